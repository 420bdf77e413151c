import type { GraphNode, LexicalDocument, NodeId, NodeKind } from '@knowing/graph';
import { lexicalTermText } from '@knowing/keywords/lexical';

/**
 * Version of the documents' make-up: part of every file's output hash, so a change here
 * rewrites every file's documents on the next incremental run.
 */
export const LEXICAL_VERSION = 3;

/** Kinds that have no text of their own to search: a file is all its symbols, a route a string. */
const WITHOUT_DOCUMENT: ReadonlySet<NodeKind> = new Set<NodeKind>(['file', 'route', 'external']);

const terms = (text: string): string => (text === '' ? '' : lexicalTermText(text));

/** Kinds whose bodies are their own: a container's document leaves their lines to them. */
const CALLABLE: ReadonlySet<NodeKind> = new Set<NodeKind>(['function', 'method', 'constructor']);

/**
 * The lexical documents of one file's nodes: name, qualified name (the file path included),
 * signature, doc comment, and the body — the node's source lines, so the identifiers it uses,
 * its comments and its string literals all count. Lines of a function nested in the node (a
 * class's methods, a closure) go to its `members` field but their first line, so a search can
 * weigh what a class's methods do apart from what the class says itself.
 *
 * Each line is tokenized once, however many nodes contain it.
 *
 * @example
 * ```ts
 * const docs = lexicalDocuments(nodes, readFileSync(file, 'utf8'));
 * docs.get(node.id)!.body; // 'def render templat self name return ...'
 * ```
 */
export function lexicalDocuments(nodes: readonly GraphNode[], source: string | undefined): Map<NodeId, LexicalDocument> {
  const lines = source === undefined ? [] : source.split('\n');
  const lineTerms: (string | undefined)[] = new Array<string | undefined>(lines.length);
  const termsOfLine = (index: number): string => {
    let cached = lineTerms[index];
    if (cached === undefined) lineTerms[index] = cached = terms(lines[index]!);
    return cached;
  };
  const callables = nodes
    .filter((n) => !n.external && CALLABLE.has(n.kind) && n.startLine > 0 && n.endLine >= n.startLine)
    .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  const documents = new Map<NodeId, LexicalDocument>();
  for (const node of nodes) {
    if (node.external || WITHOUT_DOCUMENT.has(node.kind)) continue;
    const first = Math.max(1, node.startLine);
    const last = Math.min(node.endLine, lines.length);
    const body: string[] = [];
    const members: string[] = [];
    let line = first;
    for (const inner of callables) {
      if (inner.startLine > last) break;
      if (inner === node || inner.endLine <= inner.startLine || inner.startLine < line || inner.endLine > last) continue;
      if (inner.startLine === node.startLine && inner.endLine === node.endLine) continue;
      // Lines before the nested function and its first line are the node's; the rest is the member's.
      for (; line <= inner.startLine; line++) pushLine(body, termsOfLine(line - 1));
      for (; line <= inner.endLine; line++) pushLine(members, termsOfLine(line - 1));
    }
    for (; line <= last; line++) pushLine(body, termsOfLine(line - 1));
    documents.set(node.id, {
      name: terms(node.name),
      path: terms(node.qualifiedName),
      signature: terms(node.signature),
      doc: terms(node.doc),
      body: body.join(' '),
      members: members.join(' '),
    });
  }
  return documents;
}

function pushLine(body: string[], text: string): void {
  if (text !== '') body.push(text);
}
