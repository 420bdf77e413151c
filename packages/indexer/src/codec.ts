/**
 * Compact encoding of a FileExtraction for the note store, so unchanged files can be
 * re-resolved on the next run without being parsed. Positional arrays instead of objects
 * keep the notes about a third of the size of plain JSON.
 */
import { createHash } from 'node:crypto';
import type { LanguageId, NodeKind } from '@knowing/graph';
import type { FileExtraction, Implementation, ImportDecl, NameRef, Reference, ReferenceKind, SupertypeRef, SymbolDef } from './languages/types.js';
import type { ProjectLinks } from './resolve.js';
import { Interner } from './interner.js';

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

/** Bits of a symbol's flags field, in both codecs. */
const IS_TEST = 1;
const EXPORTED = 2;
const OVERRIDES = 4;

function symbolFlags(s: SymbolDef): number {
  return (s.isTest ? IS_TEST : 0) | (s.exported ? EXPORTED : 0) | (s.overrides ? OVERRIDES : 0);
}

/** Serialise an extraction with the hash and module version it belongs to. */
export function encodeExtraction(extraction: FileExtraction, contentHash: string, moduleVersion: string): Uint8Array {
  return encoder.encode(JSON.stringify(extractionPayload(extraction, contentHash, moduleVersion)));
}

/** The positional-array form of an extraction, before JSON. */
export function extractionPayload(extraction: FileExtraction, contentHash: string, moduleVersion: string): unknown[] {
  const symbols = extraction.symbols.map((s) => {
    const flags = symbolFlags(s);
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
      isTest: (flags & IS_TEST) !== 0,
      exported: (flags & EXPORTED) !== 0,
      parent,
    };
    if ((flags & OVERRIDES) !== 0) symbol.overrides = true;
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
export const TABLES_CODEC_VERSION = 2;

/** Decoded tables and the id they were stored under. */
export interface DecodedTables {
  /** Hash of the encoded tables, written into the blob when it was made (see {@link encodeTables}). */
  readonly id: string;
  readonly tables: FileExtraction[];
  /** The links stored with the tables, if any. */
  readonly links: ProjectLinks | undefined;
}

/**
 * A tables blob opened for reading one file's table at a time: the shared strings and the
 * links are decoded when opened, each table when asked for.
 */
export interface TablesReader {
  readonly id: string;
  /** Tables in the blob. */
  readonly count: number;
  readonly links: ProjectLinks | undefined;
  /** The table at this position (the order the tables were encoded in); throws {@link DamagedTablesError} when damaged. */
  table(index: number): FileExtraction;
}

/**
 * A table of an opened blob cannot be read back (see {@link TablesReader.table}); the indexer
 * answers it by resolving every file from its extraction.
 */
export class DamagedTablesError extends Error {
  override readonly name = 'DamagedTablesError';
}

/** Strings of a tables blob, each stored once; index 0 is always the empty string. */
function stringTable(): Interner<string> {
  const table = new Interner<string>();
  table.id('');
  return table;
}

/** Lines of a tables blob before the tables, one per file, follow. */
const TABLES_HEADER_LINES = 5;
const NEWLINE = 10;

/**
 * Serialise the symbol tables of every file, and the links a project computed from them
 * (see `ProjectLinks`), into one blob. Names, kinds, scopes and import sources repeat across
 * files, so each distinct string and scope is stored once and rows refer to them by index.
 * The blob is lines of JSON (JSON text has no raw newlines): a head with the version and
 * the blob's id (a hash of the rest, read back by {@link peekTablesId} without hashing or
 * decoding), the strings, the scopes, the links, the name index of the links, then one line
 * per table. A one-file re-index reads the strings and the links and only the tables its
 * resolution reaches (see {@link openTables}).
 */
export function encodeTables(tables: Iterable<FileExtraction>, links?: ProjectLinks): { readonly id: string; readonly bytes: Uint8Array } {
  const strings = stringTable();
  const scopes = new Interner<number[]>((encoded) => encoded.join(','));
  const scopeId = (scope: readonly string[]): number => scopes.id(scope.map((segment) => strings.id(segment)));
  const nameRef = (ref: NameRef): number[] => [...ref.qualifier.map((q) => strings.id(q)), strings.id(ref.name)];
  const rows: string[] = [];
  for (const table of tables) {
    const symbols = table.symbols.map((s) => {
      const flags = symbolFlags(s);
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
    rows.push(JSON.stringify([strings.id(table.path), strings.id(table.language), strings.id(table.namespace), table.syntaxErrors, symbols, references, imports, implementations]));
  }
  let linksLine = 'null';
  let namesLine = 'null';
  if (links) {
    const ids = (list: readonly string[]): number[] => list.map((value) => strings.id(value));
    linksLine = JSON.stringify({
      paths: ids(links.paths),
      languages: ids(links.languages),
      namespaces: ids(links.namespaces),
      counts: links.counts,
      goModulePath: links.goModulePath,
      attached: links.attached,
      implementations: links.implementations,
      parts: links.parts.map((item) => (typeof item === 'string' ? -1 - strings.id(item) : item)),
      nameKinds: ids(links.nameKinds),
    });
    // Names as negative string ids among the keys and kinds: an array of integers parses fastest.
    namesLine = JSON.stringify(links.names.map((item) => (typeof item === 'string' ? -1 - strings.id(item) : item)));
  }
  const body = [JSON.stringify(strings.list), JSON.stringify(scopes.list), linksLine, namesLine, ...rows].join('\n');
  const id = createHash('sha1').update(body).digest('hex');
  return { id, bytes: encoder.encode(`[${TABLES_CODEC_VERSION},"${id}"]\n${body}`) };
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

/** Decode every table of a blob written by {@link encodeTables}; undefined when damaged or of another version. */
export function decodeTables(bytes: Uint8Array): DecodedTables | undefined {
  const reader = openTables(bytes);
  if (!reader) return undefined;
  try {
    const tables: FileExtraction[] = [];
    for (let index = 0; index < reader.count; index++) tables.push(reader.table(index));
    return { id: reader.id, tables, links: reader.links };
  } catch {
    // Unparsable rows, or valid JSON of the wrong shape: damaged either way.
    return undefined;
  }
}

/**
 * Open a blob written by {@link encodeTables} to read tables one at a time (see
 * {@link TablesReader}); undefined when it is of another version or its head, strings or
 * links are damaged.
 */
export function openTables(bytes: Uint8Array): TablesReader | undefined {
  const id = peekTablesId(bytes);
  if (id === undefined) return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // Line i spans starts[i] .. starts[i + 1] - 1 (the newline).
  const starts: number[] = [0];
  for (let at = buffer.indexOf(NEWLINE); at >= 0; at = buffer.indexOf(NEWLINE, at + 1)) starts.push(at + 1);
  starts.push(buffer.length + 1);
  const lineCount = starts.length - 1;
  if (lineCount < TABLES_HEADER_LINES) return undefined;
  const line = (index: number): unknown => JSON.parse(buffer.toString('utf8', starts[index]!, starts[index + 1]! - 1));
  let strings: string[];
  let scopes: string[][];
  let links: ProjectLinks | undefined;
  try {
    strings = line(1) as string[];
    scopes = (line(2) as number[][]).map((scope) => scope.map((s) => strings[s]!));
    const stored = line(3) as StoredLinks | null;
    links = stored ? linksFromStored(stored, strings, () => line(4) as number[]) : undefined;
  } catch {
    return undefined;
  }
  if (!Array.isArray(strings) || !Array.isArray(scopes)) return undefined;
  const count = lineCount - TABLES_HEADER_LINES;
  return {
    id,
    count,
    links,
    table(index: number): FileExtraction {
      if (index < 0 || index >= count) throw new RangeError(`no table ${index} in a blob of ${count}`);
      try {
        return tableFromRow(line(TABLES_HEADER_LINES + index) as unknown[], strings, scopes);
      } catch (error) {
        throw new DamagedTablesError(`table ${index} of tables ${id} cannot be read`, { cause: error });
      }
    },
  };
}

/** Links as stored: strings by their index in the blob's strings. */
interface StoredLinks {
  readonly paths: number[];
  readonly languages: number[];
  readonly namespaces: number[];
  readonly counts: number[];
  readonly goModulePath: string;
  readonly attached: number[];
  readonly implementations: number[];
  /** Part keys as `-1 - string id`. */
  readonly parts: number[];
  readonly nameKinds: number[];
}

function linksFromStored(stored: StoredLinks, strings: readonly string[], readNames: () => number[]): ProjectLinks {
  const text = (ids: readonly number[]): string[] => ids.map((id) => strings[id]!);
  let names: (string | number)[] | undefined;
  return {
    paths: text(stored.paths),
    languages: text(stored.languages),
    namespaces: text(stored.namespaces),
    counts: stored.counts,
    goModulePath: stored.goModulePath,
    attached: stored.attached,
    implementations: stored.implementations,
    parts: stored.parts.map((item) => (item < 0 ? strings[-1 - item]! : item)),
    nameKinds: text(stored.nameKinds),
    // Most of the links by size, and only a call no definition answers needs it: decoded on first use.
    get names(): (string | number)[] {
      return (names ??= readNames().map((item) => (item < 0 ? strings[-1 - item]! : item)));
    },
  };
}

function tableFromRow(file: unknown[], strings: readonly string[], scopes: readonly string[][]): FileExtraction {
  const nameRef = (row: readonly number[]): NameRef => {
    const last = row.length - 1;
    const qualifier: string[] = new Array<string>(last);
    for (let i = 0; i < last; i++) qualifier[i] = strings[row[i]!]!;
    return { name: strings[row[last]!]!, qualifier };
  };
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
      isTest: (row[7]! & IS_TEST) !== 0,
      exported: (row[7]! & EXPORTED) !== 0,
      parent: row[8]!,
    };
    if ((row[7]! & OVERRIDES) !== 0) symbol.overrides = true;
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
