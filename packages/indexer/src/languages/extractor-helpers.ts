/**
 * Internal helpers shared by the extractors built on one pattern (C#, Java, Ruby): a single
 * class walks the tree, keeps `symbols`/`references` with dedup indexes, and reads docs from
 * the comments it saw. Not part of the language-module contract.
 */
import type { NodeKind } from '@knowing/graph';
import type { Node } from 'web-tree-sitter';
import { MAX_SIGNATURE_CHARS, sliceWithoutComments, truncate } from './common.js';
import type { CommentScan, Mutable, MutableSymbol } from './common.js';
import type { NameRef, Reference, ReferenceKind, SupertypeRef } from './types.js';

/** Named children. web-tree-sitter types them as nullable, but a child list never holds null. */
export function named(node: Node): readonly Node[] {
  return node.namedChildren as readonly Node[];
}

/** All children, anonymous tokens included. */
export function kids(node: Node): readonly Node[] {
  return node.children as readonly Node[];
}

/** Dedup key of a reference: one per source, kind, qualified name and receiver type. */
export function refKey(from: number, kind: ReferenceKind, name: string, qualifier: readonly string[], receiverType: NameRef | undefined): string {
  const receiver = receiverType ? `${receiverType.qualifier.join('.')}:${receiverType.name}` : '';
  return `${from}|${kind}|${qualifier.join('.')}|${name}|${receiver}`;
}

/** A dotted path (`a.b.C`) as a reference: the last segment names it, the others qualify it; undefined with no name. */
export function pathRef(segments: readonly string[]): NameRef | undefined {
  const name = segments[segments.length - 1];
  return name ? { name, qualifier: segments.slice(0, -1) } : undefined;
}

export function sameRef(a: NameRef, b: NameRef): boolean {
  return a.name === b.name && a.qualifier.length === b.qualifier.length && a.qualifier.every((q, i) => q === b.qualifier[i]);
}

/** Union of two optional lists, first-seen order; undefined when both are empty. */
export function mergeRefs<T extends NameRef>(a: readonly T[] | undefined, b: readonly T[] | undefined): T[] | undefined {
  const out: T[] = [...(a ?? [])];
  for (const ref of b ?? []) if (!out.some((r) => r.name === ref.name && r.qualifier.join('.') === ref.qualifier.join('.'))) out.push(ref);
  return out.length > 0 ? out : undefined;
}

export function pushUnique(list: NameRef[], ref: NameRef): void {
  if (!list.some((r) => sameRef(r, ref))) list.push(ref);
}

/** End of the line of `source` that `start` is on (bounded by `limit`). */
export function lineEnd(source: string, start: number, limit: number): number {
  const newline = source.indexOf('\n', start);
  return newline < 0 || newline > limit ? limit : newline;
}

/**
 * `source` from `start` to `end` on one line, comments cut (see `sliceWithoutComments`),
 * whitespace collapsed, at most {@link MAX_SIGNATURE_CHARS}; with `stripBrace`, a trailing `{`
 * or `;` is dropped first.
 */
export function declarationSignature(source: string, start: number, end: number, stripBrace: boolean, comments?: CommentScan): string {
  const text = sliceWithoutComments(source, start, Math.min(end, start + MAX_SIGNATURE_CHARS * 2), comments);
  const flat = text.replace(/\s+/g, ' ').trim();
  return truncate(stripBrace ? flat.replace(/\s*[{;]$/, '') : flat, MAX_SIGNATURE_CHARS);
}

/**
 * Append a reference unless one with the same `key` (see {@link refKey}) was already added;
 * its line is `at`'s. Nothing for an empty name.
 */
export function addReference(
  references: Reference[],
  seen: Set<string>,
  key: string,
  from: number,
  kind: ReferenceKind,
  name: string,
  qualifier: readonly string[],
  receiverType: NameRef | undefined,
  at: Node,
): void {
  if (!name) return;
  if (seen.has(key)) return;
  seen.add(key);
  const ref: Mutable<Reference> = { from, kind, name, qualifier, line: at.startPosition.row + 1 };
  if (receiverType) ref.receiverType = receiverType;
  references.push(ref);
}

/** What a C# or Java declaration contributes to its symbol. */
export interface DeclarationOptions {
  exported: boolean;
  isTest: boolean;
  /** Record components share their record's line: the doc above it is the record's. */
  noDoc?: boolean;
  decorators?: NameRef[];
  supertypes?: SupertypeRef[];
  typeHints?: NameRef[];
  valueType?: NameRef | undefined;
  overrides?: boolean;
  signatureStart?: number | undefined;
  signatureEnd?: number | undefined;
}

/** The extractor state {@link addDeclaration} reads and writes. */
export interface DeclarationTable {
  readonly symbols: MutableSymbol[];
  /** Symbols by parent, scope, name and kind. */
  readonly symbolKeys: Map<string, number>;
  readonly from: number;
  readonly scope: string[];
  signature(start: number, end: number): string;
  docBefore(startRow: number): string;
}

/**
 * Add the symbol `node` declares in `table.scope` under `table.from`, and return its index.
 * Overloads (same parent, scope, name and kind) merge into the first: one symbol covering all.
 */
export function addDeclaration(table: DeclarationTable, node: Node, name: string, kind: NodeKind, options: DeclarationOptions): number {
  const startRow = node.startPosition.row;
  const key = `${table.from}\u0000${table.scope.join('\u0000')}\u0000${name}\u0000${kind}`;
  const existing = table.symbolKeys.get(key);
  const previous = existing === undefined ? undefined : table.symbols[existing];
  if (existing !== undefined && previous) {
    // An overload: one symbol covering all of them.
    previous.endLine = Math.max(previous.endLine, node.endPosition.row + 1);
    previous.exported ||= options.exported;
    previous.isTest ||= options.isTest;
    if (!previous.doc) previous.doc = table.docBefore(startRow);
    if (options.overrides) previous.overrides = true;
    previous.typeHints = mergeRefs(previous.typeHints, options.typeHints);
    previous.decorators = mergeRefs(previous.decorators, options.decorators);
    if (!previous.typeHints) delete previous.typeHints;
    if (!previous.decorators) delete previous.decorators;
    return existing;
  }
  const symbol: MutableSymbol = {
    name,
    kind,
    scope: table.scope,
    startLine: startRow + 1,
    endLine: node.endPosition.row + 1,
    signature: table.signature(options.signatureStart ?? node.startIndex, options.signatureEnd ?? node.endIndex),
    doc: options.noDoc ? '' : table.docBefore(startRow),
    isTest: options.isTest,
    parent: table.from,
    exported: options.exported,
  };
  if (options.supertypes?.length) symbol.supertypes = options.supertypes;
  if (options.decorators?.length) symbol.decorators = options.decorators;
  if (options.typeHints?.length) symbol.typeHints = options.typeHints;
  if (options.valueType) symbol.valueType = options.valueType;
  if (options.overrides) symbol.overrides = true;
  table.symbols.push(symbol);
  table.symbolKeys.set(key, table.symbols.length - 1);
  return table.symbols.length - 1;
}

/** The innermost binding of `name` in a stack of scopes (innermost last). */
export function lookupBinding<B>(frames: readonly Map<string, B>[], name: string): B | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    const binding = frames[i]?.get(name);
    if (binding) return binding;
  }
  return undefined;
}

/**
 * The declared type of the innermost member binding (one with an `owner`: a field or property)
 * named `member`; the innermost class frame is the one pushed by the current type.
 */
export function memberBindingType(frames: readonly Map<string, { readonly type: NameRef | undefined; readonly owner: NameRef | undefined }>[], member: string | undefined): NameRef | undefined {
  if (member === undefined) return undefined;
  for (let i = frames.length - 1; i >= 0; i--) {
    const binding = frames[i]?.get(member);
    if (binding?.owner) return binding.type;
  }
  return undefined;
}
