/**
 * Compact encoding of a FileExtraction for the note store, so unchanged files can be
 * re-resolved on the next run without being parsed. Positional arrays instead of objects
 * keep the notes about a third of the size of plain JSON.
 */
import { createHash } from 'node:crypto';
import type { LanguageId, NodeKind } from '@knowing/graph';
import type { FileExtraction, Implementation, ImportDecl, NameRef, Reference, ReferenceKind, SupertypeRef, SymbolDef } from './languages/types.js';

/** Bump when the encoding changes; older notes are then ignored (and the files re-parsed). */
export const EXTRACTION_CODEC_VERSION = 2;

/** A decoded note: the extraction and what it was computed from. */
export interface CachedExtraction {
  /** Hex SHA-256 of the bytes the extraction was computed from. */
  readonly contentHash: string;
  /** `LanguageModule.version` at extraction time. */
  readonly moduleVersion: string;
  readonly extraction: FileExtraction;
}

type EncodedRef = string[];
const REFERENCE_KINDS: readonly ReferenceKind[] = ['call', 'new', 'type', 'field', 'value', 'raise'];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function encodeRef(ref: NameRef): EncodedRef {
  return [...ref.qualifier, ref.name];
}

function decodeRef(value: EncodedRef): NameRef {
  return { name: value[value.length - 1] ?? '', qualifier: value.slice(0, -1) };
}

/** Serialise an extraction with the hash and module version it belongs to. */
export function encodeExtraction(extraction: FileExtraction, contentHash: string, moduleVersion: string): Uint8Array {
  return encoder.encode(JSON.stringify(extractionPayload(extraction, contentHash, moduleVersion)));
}

/** The positional-array form of an extraction, before JSON. */
export function extractionPayload(extraction: FileExtraction, contentHash: string, moduleVersion: string): unknown[] {
  const symbols = extraction.symbols.map((s) => {
    const flags = (s.isTest ? 1 : 0) | (s.exported ? 2 : 0) | (s.overrides ? 4 : 0);
    const row: unknown[] = [s.name, s.kind, s.scope, s.startLine, s.endLine, s.signature, s.doc, flags, s.parent];
    const extras: unknown[] = [
      s.supertypes?.map((t) => [t.relation, ...encodeRef(t)]) ?? 0,
      s.decorators?.map(encodeRef) ?? 0,
      s.typeHints?.map(encodeRef) ?? 0,
      s.valueType ? encodeRef(s.valueType) : 0,
      s.localName ?? 0,
    ];
    while (extras.length > 0 && extras[extras.length - 1] === 0) extras.pop();
    return row.concat(extras);
  });
  const references = extraction.references.map((r) => {
    const row: unknown[] = [encodeRef(r), r.from, REFERENCE_KINDS.indexOf(r.kind), r.line];
    if (r.receiverType) row.push(encodeRef(r.receiverType));
    return row;
  });
  const imports = extraction.imports.map((i) => [
    i.source,
    i.names.flatMap((n) => [n.imported, n.local]),
    i.moduleAlias ?? 0,
    i.reexport ? 1 : 0,
    i.line,
  ]);
  const payload: unknown[] = [
    EXTRACTION_CODEC_VERSION,
    contentHash,
    moduleVersion,
    extraction.path,
    extraction.language,
    extraction.namespace,
    extraction.syntaxErrors,
    symbols,
    references,
    imports,
  ];
  if (extraction.implementations && extraction.implementations.length > 0) {
    payload.push(extraction.implementations.map((i) => [encodeRef(i.type), encodeRef(i.trait), i.line]));
  }
  return payload;
}

/** Decode a note written by {@link encodeExtraction}; undefined when it is from another codec version or damaged. */
export function decodeExtraction(bytes: Uint8Array): CachedExtraction | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  return fromPayload(payload);
}

/**
 * The content hash a note written by {@link encodeExtraction} was made for, read from its
 * first bytes without decoding the rest; undefined when the note is of another version.
 * Lets a caller skip decoding a note that is stale anyway.
 */
export function peekContentHash(bytes: Uint8Array): string | undefined {
  const prefix = `[${EXTRACTION_CODEC_VERSION},"`;
  // A hex SHA-256 (or the empty hash of a fallback) follows the prefix, then a quote.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, prefix.length + 65)).toString('latin1');
  if (!head.startsWith(prefix)) return undefined;
  const end = head.indexOf('"', prefix.length);
  return end < 0 ? undefined : head.slice(prefix.length, end);
}

function fromPayload(payload: unknown): CachedExtraction | undefined {
  if (!Array.isArray(payload) || payload[0] !== EXTRACTION_CODEC_VERSION) return undefined;
  const [, contentHash, moduleVersion, path, language, namespace, syntaxErrors, rawSymbols, rawReferences, rawImports, rawImplementations] = payload as [
    number,
    string,
    string,
    string,
    LanguageId,
    string,
    number,
    unknown[][],
    unknown[][],
    unknown[][],
    [EncodedRef, EncodedRef, number][] | undefined,
  ];
  const symbols: SymbolDef[] = rawSymbols.map((row) => {
    const [name, kind, scope, startLine, endLine, signature, doc, flags, parent, supertypes, decorators, typeHints, valueType, localName] = row as [
      string,
      NodeKind,
      string[],
      number,
      number,
      string,
      string,
      number,
      number,
      (string[] | 0)[] | 0 | undefined,
      EncodedRef[] | 0 | undefined,
      EncodedRef[] | 0 | undefined,
      EncodedRef | 0 | undefined,
      string | 0 | undefined,
    ];
    const symbol: {
      -readonly [K in keyof SymbolDef]: SymbolDef[K];
    } = {
      name,
      kind,
      scope,
      startLine,
      endLine,
      signature,
      doc,
      isTest: (flags & 1) !== 0,
      exported: (flags & 2) !== 0,
      parent,
    };
    if ((flags & 4) !== 0) symbol.overrides = true;
    if (supertypes) {
      symbol.supertypes = (supertypes as string[][]).map(([relation, ...ref]): SupertypeRef => ({
        ...decodeRef(ref),
        relation: relation as SupertypeRef['relation'],
      }));
    }
    if (decorators) symbol.decorators = decorators.map(decodeRef);
    if (typeHints) symbol.typeHints = typeHints.map(decodeRef);
    if (valueType) symbol.valueType = decodeRef(valueType);
    if (localName) symbol.localName = localName;
    return symbol;
  });
  const references: Reference[] = rawReferences.map((row) => {
    const [ref, from, kind, line, receiverType] = row as [EncodedRef, number, number, number, EncodedRef | undefined];
    const reference: { -readonly [K in keyof Reference]: Reference[K] } = {
      ...decodeRef(ref),
      from,
      kind: REFERENCE_KINDS[kind] ?? 'call',
      line,
    };
    if (receiverType) reference.receiverType = decodeRef(receiverType);
    return reference;
  });
  const imports: ImportDecl[] = rawImports.map((row) => {
    const [source, flatNames, moduleAlias, reexport, line] = row as [string, string[], string | 0, number, number];
    const names: { imported: string; local: string }[] = [];
    for (let i = 0; i + 1 < flatNames.length; i += 2) names.push({ imported: flatNames[i]!, local: flatNames[i + 1]! });
    const decl: { -readonly [K in keyof ImportDecl]: ImportDecl[K] } = { source, names, line };
    if (moduleAlias) decl.moduleAlias = moduleAlias;
    if (reexport) decl.reexport = true;
    return decl;
  });
  const extraction: { -readonly [K in keyof FileExtraction]: FileExtraction[K] } = { path, language, namespace, syntaxErrors, symbols, references, imports };
  if (rawImplementations && rawImplementations.length > 0) {
    extraction.implementations = rawImplementations.map(([type, trait, line]): Implementation => ({ type: decodeRef(type), trait: decodeRef(trait), line }));
  }
  return { contentHash, moduleVersion, extraction };
}

// ------------------------------------------------------------------ symbol tables

/** Bump when the tables encoding changes; older tables notes are then ignored (one full re-resolve). */
export const TABLES_CODEC_VERSION = 1;

/** Decoded tables and the id they were stored under. */
export interface DecodedTables {
  /** Hash of the encoded tables, written into the blob when it was made (see {@link encodeTables}). */
  readonly id: string;
  readonly tables: FileExtraction[];
}

/** Strings of a tables blob, each stored once; index 0 is always the empty string. */
class StringTable {
  readonly list: string[] = [''];
  private readonly ids = new Map<string, number>([['', 0]]);

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
}

/**
 * Serialise the symbol tables of every file (read on each re-index, over every file) into one
 * blob. Names, kinds, scopes and import sources repeat across files, so each distinct string
 * and scope is stored once and rows refer to them by index: on cargo the blob is a third
 * smaller than per-file payloads and decodes two to three times faster, and decoded tables
 * share their strings and scope arrays. The blob carries its own id (a hash of its body), read
 * back by {@link peekTablesId} without hashing or decoding.
 */
export function encodeTables(tables: Iterable<FileExtraction>): { readonly id: string; readonly bytes: Uint8Array } {
  const strings = new StringTable();
  const scopeIds = new Map<string, number>();
  const scopes: number[][] = [];
  const scopeId = (scope: readonly string[]): number => {
    const encoded = scope.map((segment) => strings.id(segment));
    const key = encoded.join(',');
    let id = scopeIds.get(key);
    if (id === undefined) {
      id = scopes.length;
      scopes.push(encoded);
      scopeIds.set(key, id);
    }
    return id;
  };
  const nameRef = (ref: NameRef): number[] => [...ref.qualifier.map((q) => strings.id(q)), strings.id(ref.name)];
  const files: unknown[] = [];
  for (const table of tables) {
    const symbols = table.symbols.map((s) => {
      const flags = (s.isTest ? 1 : 0) | (s.exported ? 2 : 0) | (s.overrides ? 4 : 0);
      const row: unknown[] = [strings.id(s.name), strings.id(s.kind), scopeId(s.scope), s.startLine, s.endLine, strings.id(s.signature), strings.id(s.doc), flags, s.parent];
      const extras: unknown[] = [
        s.localName === undefined ? 0 : strings.id(s.localName) + 1,
        s.valueType ? nameRef(s.valueType) : 0,
        s.supertypes?.map((t) => [strings.id(t.relation), ...nameRef(t)]) ?? 0,
        s.decorators?.map(nameRef) ?? 0,
        s.typeHints?.map(nameRef) ?? 0,
      ];
      while (extras.length > 0 && extras[extras.length - 1] === 0) extras.pop();
      return row.concat(extras);
    });
    const references = table.references.map((r) => {
      const row: unknown[] = [nameRef(r), r.from, REFERENCE_KINDS.indexOf(r.kind), r.line];
      if (r.receiverType) row.push(nameRef(r.receiverType));
      return row;
    });
    const imports = table.imports.map((i) => [
      strings.id(i.source),
      i.names.flatMap((n) => [strings.id(n.imported), strings.id(n.local)]),
      i.moduleAlias === undefined ? 0 : strings.id(i.moduleAlias) + 1,
      i.reexport ? 1 : 0,
      i.line,
    ]);
    const implementations = table.implementations && table.implementations.length > 0 ? table.implementations.map((i) => [nameRef(i.type), nameRef(i.trait), i.line]) : 0;
    files.push([strings.id(table.path), strings.id(table.language), strings.id(table.namespace), table.syntaxErrors, symbols, references, imports, implementations]);
  }
  const body = JSON.stringify([strings.list, scopes, files]);
  const id = createHash('sha1').update(body).digest('hex');
  return { id, bytes: encoder.encode(`[${TABLES_CODEC_VERSION},"${id}",${body}]`) };
}

/**
 * The id a blob written by {@link encodeTables} carries, read from its first bytes without
 * decoding the rest; undefined when the blob is of another version.
 */
export function peekTablesId(bytes: Uint8Array): string | undefined {
  const prefix = `[${TABLES_CODEC_VERSION},"`;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, prefix.length + 41)).toString('latin1');
  if (!head.startsWith(prefix)) return undefined;
  const end = head.indexOf('"', prefix.length);
  return end < 0 ? undefined : head.slice(prefix.length, end);
}

/** Decode a blob written by {@link encodeTables}; undefined when damaged or of another version. */
export function decodeTables(bytes: Uint8Array): DecodedTables | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  if (!Array.isArray(payload) || payload[0] !== TABLES_CODEC_VERSION) return undefined;
  try {
    return tablesFromPayload(payload);
  } catch {
    // Valid JSON of the wrong shape: as damaged as unparsable bytes.
    return undefined;
  }
}

function tablesFromPayload(payload: unknown[]): DecodedTables {
  const [, id, [strings, rawScopes, rawFiles]] = payload as [number, string, [string[], number[][], unknown[][]]];
  const scopes = rawScopes.map((scope) => scope.map((s) => strings[s]!));
  const nameRef = (row: readonly number[]): NameRef => {
    const last = row.length - 1;
    const qualifier: string[] = new Array<string>(last);
    for (let i = 0; i < last; i++) qualifier[i] = strings[row[i]!]!;
    return { name: strings[row[last]!]!, qualifier };
  };
  const tables = rawFiles.map((file): FileExtraction => {
    const [path, language, namespace, syntaxErrors, rawSymbols, rawReferences, rawImports, rawImplementations] = file as [
      number,
      number,
      number,
      number,
      number[][],
      [number[], number, number, number, number[]?][],
      [number, number[], number, number, number][],
      [number[], number[], number][] | 0,
    ];
    const symbols = rawSymbols.map((row): SymbolDef => {
      const symbol: { -readonly [K in keyof SymbolDef]: SymbolDef[K] } = {
        name: strings[row[0]!]!,
        kind: strings[row[1]!]! as NodeKind,
        scope: scopes[row[2]!]!,
        startLine: row[3]!,
        endLine: row[4]!,
        signature: strings[row[5]!]!,
        doc: strings[row[6]!]!,
        isTest: (row[7]! & 1) !== 0,
        exported: (row[7]! & 2) !== 0,
        parent: row[8]!,
      };
      if ((row[7]! & 4) !== 0) symbol.overrides = true;
      if (row.length > 9) decodeSymbolExtras(symbol, row as unknown[], strings, nameRef);
      return symbol;
    });
    const references = rawReferences.map(([ref, from, kind, line, receiverType]): Reference => {
      const reference: { -readonly [K in keyof Reference]: Reference[K] } = { ...nameRef(ref), from, kind: REFERENCE_KINDS[kind] ?? 'call', line };
      if (receiverType) reference.receiverType = nameRef(receiverType);
      return reference;
    });
    const imports = rawImports.map(([source, flatNames, moduleAlias, reexport, line]): ImportDecl => {
      const names: { imported: string; local: string }[] = [];
      for (let i = 0; i + 1 < flatNames.length; i += 2) names.push({ imported: strings[flatNames[i]!]!, local: strings[flatNames[i + 1]!]! });
      const decl: { -readonly [K in keyof ImportDecl]: ImportDecl[K] } = { source: strings[source]!, names, line };
      if (moduleAlias) decl.moduleAlias = strings[moduleAlias - 1]!;
      if (reexport) decl.reexport = true;
      return decl;
    });
    const table: { -readonly [K in keyof FileExtraction]: FileExtraction[K] } = {
      path: strings[path]!,
      language: strings[language]! as LanguageId,
      namespace: strings[namespace]!,
      syntaxErrors,
      symbols,
      references,
      imports,
    };
    if (rawImplementations) {
      table.implementations = rawImplementations.map(([type, trait, line]): Implementation => ({ type: nameRef(type), trait: nameRef(trait), line }));
    }
    return table;
  });
  return { id, tables };
}

/** The optional tail of a symbol row (see {@link encodeTables}). */
function decodeSymbolExtras(symbol: { -readonly [K in keyof SymbolDef]: SymbolDef[K] }, row: readonly unknown[], strings: readonly string[], nameRef: (row: readonly number[]) => NameRef): void {
  const [localName, valueType, supertypes, decorators, typeHints] = row.slice(9) as [number, number[] | 0, number[][] | 0, number[][] | 0, number[][] | 0];
  if (localName) symbol.localName = strings[localName - 1]!;
  if (valueType) symbol.valueType = nameRef(valueType);
  if (supertypes) {
    symbol.supertypes = supertypes.map(([relation, ...ref]): SupertypeRef => ({ ...nameRef(ref), relation: strings[relation!]! as SupertypeRef['relation'] }));
  }
  if (decorators) symbol.decorators = decorators.map(nameRef);
  if (typeHints) symbol.typeHints = typeHints.map(nameRef);
}
