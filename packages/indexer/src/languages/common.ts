/**
 * Small helpers every language module needs. Modules may import them; none is required.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { NodeKind } from '@knowing/graph';
import type { NameRef, SupertypeRef, SymbolDef } from './types.js';

/** Longest signature kept, in characters. */
export const MAX_SIGNATURE_CHARS = 200;
/** Longest doc kept, in characters. */
export const MAX_DOC_CHARS = 500;

/**
 * Count ERROR and MISSING nodes. Descends only into subtrees that contain an error, so a
 * clean file costs one property read.
 */
export function countSyntaxErrors(root: SyntaxNode): number {
  if (!root.hasError) return 0;
  let count = 0;
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend) {
        if (node.type === 'ERROR' || node.isMissing) count++;
        if (node.hasError && cursor.gotoFirstChild()) continue;
      }
      if (cursor.gotoNextSibling()) {
        descend = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descend = false;
    }
  } finally {
    cursor.delete();
  }
  return count;
}

/**
 * The declaration text from `from` up to (not including) `bodyStart`, whitespace collapsed,
 * trailing `{`/`:` dropped, at most {@link MAX_SIGNATURE_CHARS}.
 */
export function signatureText(source: string, from: number, bodyStart: number): string {
  let text = source.slice(from, Math.max(from, bodyStart)).replace(/\s+/g, ' ').trim();
  text = text.replace(/\s*[:{]\s*$/, '');
  return truncate(text, MAX_SIGNATURE_CHARS);
}

/** The first line of `text`, trimmed, at most {@link MAX_SIGNATURE_CHARS}. */
export function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return truncate((newline < 0 ? text : text.slice(0, newline)).trim(), MAX_SIGNATURE_CHARS);
}

/** Shorten to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

/**
 * Remove common leading indentation and surrounding blank lines (Python's `inspect.cleandoc`
 * rule: the first line's indentation is ignored), then cap at {@link MAX_DOC_CHARS}.
 */
export function cleanDoc(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let indent = Infinity;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const stripped = line.trimStart();
    if (stripped) indent = Math.min(indent, line.length - stripped.length);
  }
  const out = lines.map((line, i) => (i === 0 ? line.trim() : indent === Infinity ? line.trim() : line.slice(indent).trimEnd()));
  while (out.length > 0 && out[0] === '') out.shift();
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return truncate(out.join('\n'), MAX_DOC_CHARS);
}

/** `T` with its `readonly` modifiers removed, for building records step by step. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** A {@link SymbolDef} under construction. */
export type MutableSymbol = Mutable<SymbolDef>;

/** A {@link NameRef}; the qualifier defaults to none. */
export function ref(name: string, qualifier: readonly string[] = []): NameRef {
  return { name, qualifier };
}

/** Whitespace collapsed, cut (without a mark) at {@link MAX_SIGNATURE_CHARS}. */
export function collapse(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SIGNATURE_CHARS ? flat.slice(0, MAX_SIGNATURE_CHARS) : flat;
}

/** A node that is present and named (for `find`/`filter` over nullable child lists). */
export function isNamedNode(node: SyntaxNode | null): node is SyntaxNode {
  return node !== null && node.isNamed;
}

/** A symbol under construction whose lists may still grow (Python and TypeScript/JavaScript). */
export interface SymbolBuilder {
  name: string;
  kind: NodeKind;
  scope: readonly string[];
  startLine: number;
  endLine: number;
  signature: string;
  doc: string;
  isTest: boolean;
  parent: number;
  exported: boolean;
  supertypes?: SupertypeRef[];
  decorators?: NameRef[];
  typeHints?: NameRef[];
  valueType?: NameRef;
  overrides?: boolean;
}
