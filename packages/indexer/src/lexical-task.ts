/**
 * The lexical documents of written files, built in a parser worker while this thread resolves:
 * after the parse the worker would otherwise idle through resolution and the write, and the
 * documents (every source line read again and tokenized) are a large share of a first index's
 * serial work. The worker runs the same {@link lexicalDocuments} over the same nodes and the
 * file's text, so where they are built changes nothing in them.
 */
import { readFileSync } from 'node:fs';
import type { GraphNode, LexicalDocument, NodeId } from '@knowing/graph';
import { lexicalDocuments } from './lexical.js';

/** Files whose documents one task builds. */
export interface LexicalTask {
  readonly kind: 'lexical';
  readonly files: readonly { readonly absolutePath: string; readonly nodes: readonly GraphNode[] }[];
}

/** The documents of each file of a {@link LexicalTask}, in its order. */
export interface LexicalResult {
  readonly documents: readonly ReadonlyMap<NodeId, LexicalDocument>[];
}

/** A file's text for the lexical index; undefined when it can no longer be read (its nodes get bodiless documents). */
export function readSourceText(absolutePath: string): string | undefined {
  try {
    return readFileSync(absolutePath, 'utf8');
  } catch {
    return undefined;
  }
}

export function runLexicalTask(task: LexicalTask): LexicalResult {
  return { documents: task.files.map((file) => lexicalDocuments(file.nodes, readSourceText(file.absolutePath))) };
}

export function isLexicalTask(task: unknown): task is LexicalTask {
  return (task as { kind?: unknown } | null)?.kind === 'lexical';
}
