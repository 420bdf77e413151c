/**
 * Compact encoding of a FileExtraction for the note store, so unchanged files can be
 * re-resolved on the next run without being parsed. Positional arrays instead of objects
 * keep the notes about a third of the size of plain JSON.
 */
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

/** Serialise several extractions into one blob (the symbol tables note). */
export function encodeExtractions(entries: readonly CachedExtraction[]): Uint8Array {
  return encoder.encode(JSON.stringify(entries.map((e) => extractionPayload(e.extraction, e.contentHash, e.moduleVersion))));
}

/** Decode a blob written by {@link encodeExtractions}; undefined when damaged or of another version. */
export function decodeExtractions(bytes: Uint8Array): CachedExtraction[] | undefined {
  let payloads: unknown[];
  try {
    payloads = JSON.parse(decoder.decode(bytes)) as unknown[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(payloads)) return undefined;
  const out: CachedExtraction[] = [];
  for (const payload of payloads) {
    const decoded = fromPayload(payload);
    if (!decoded) return undefined;
    out.push(decoded);
  }
  return out;
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
