import type { ContextPack, RankedSymbol } from '@knowing/graph';
import { GCB_CUSTOM, GCB_EDGE_TYPE_CODES, GCB_KIND_CODES, GCB_PROVENANCE_CODES, invert, lookup } from './codes.js';
import { badFormat } from './errors.js';
import { DEFAULT_FORMAT_OPTIONS } from './options.js';
import { compareText, edgeKey, newEdgeKeys, preparePack } from './order.js';
import type { EdgeStatus, FormatOptions, Formatter, GcbDocument, GcbEdge, GcbSymbol } from './types.js';

/**
 * The magic a GCB document starts with: the ASCII bytes 0x47 0x43 0x42.
 *
 * @example
 * ```ts
 * const looksLikeGcb = new TextDecoder().decode(bytes.subarray(0, 3)) === GCB_MAGIC;
 * ```
 */
export const GCB_MAGIC = 'GCB';
const MAGIC_BYTES = new TextEncoder().encode(GCB_MAGIC);
/**
 * The layout version this build writes and the newest it reads (the byte after the magic).
 *
 * @example
 * ```ts
 * bytes[3] === GCB_VERSION; // for documents this build wrote
 * ```
 */
export const GCB_VERSION = 1;

const STATUS_CODES: Readonly<Record<EdgeStatus, number>> = Object.freeze({ added: 1, removed: 2 });
const STATUS_BY_CODE = new Map<number, EdgeStatus>([
  [1, 'added'],
  [2, 'removed'],
]);
const KIND_BY_CODE = invert(GCB_KIND_CODES);
const PROVENANCE_BY_CODE = invert(GCB_PROVENANCE_CODES);
const EDGE_TYPE_BY_CODE = invert(GCB_EDGE_TYPE_CODES);

/** Smallest encodings, to reject counts the remaining bytes cannot hold before looping. */
const MIN_STRING_BYTES = 1;
const MIN_SYMBOL_BYTES = 13;
const MIN_EDGE_BYTES = 4;
const MAX_VARINT_BYTES = 8;

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface Writer {
  byte(value: number): void;
  uvarint(value: number): void;
  f32(value: number): void;
  bytes(value: Uint8Array): void;
  string(value: string): void;
  finish(): Uint8Array;
}

function createWriter(): Writer {
  let buffer = new Uint8Array(256);
  let view = new DataView(buffer.buffer);
  let length = 0;
  const reserve = (extra: number): void => {
    if (length + extra <= buffer.length) return;
    let size = buffer.length * 2;
    while (size < length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(buffer.subarray(0, length));
    buffer = grown;
    view = new DataView(buffer.buffer);
  };
  const writer: Writer = {
    byte(value) {
      reserve(1);
      buffer[length++] = value;
    },
    uvarint(value) {
      // LEB128 on doubles: exact for every safe integer, which callers guarantee.
      let rest = value;
      while (rest >= 0x80) {
        writer.byte((rest % 0x80) | 0x80);
        rest = Math.floor(rest / 0x80);
      }
      writer.byte(rest);
    },
    f32(value) {
      reserve(4);
      view.setFloat32(length, value, true);
      length += 4;
    },
    bytes(value) {
      reserve(value.length);
      buffer.set(value, length);
      length += value.length;
    },
    string(value) {
      const encoded = utf8.encode(value);
      writer.uvarint(encoded.length);
      writer.bytes(encoded);
    },
    finish: () => buffer.slice(0, length),
  };
  return writer;
}

/** Interns strings into the table in order of first use. */
function createStringTable() {
  const index = new Map<string, number>();
  return {
    id(value: string): number {
      let id = index.get(value);
      if (id === undefined) {
        id = index.size;
        index.set(value, id);
      }
      return id;
    },
    values: (): string[] => [...index.keys()],
  };
}

type StringTable = ReturnType<typeof createStringTable>;

function writeEnum(out: Writer, strings: StringTable, code: number | undefined, value: string): void {
  if (code !== undefined) out.byte(code);
  else {
    out.byte(GCB_CUSTOM);
    out.uvarint(strings.id(value));
  }
}

function writeSymbol(out: Writer, strings: StringTable, symbol: RankedSymbol): void {
  const { node } = symbol;
  out.string(node.qualifiedName);
  writeEnum(out, strings, lookup(GCB_KIND_CODES, node.kind), node.kind);
  out.f32(symbol.score);
  const provenance = symbol.provenance ?? '';
  if (provenance === '') out.byte(0);
  else writeEnum(out, strings, lookup(GCB_PROVENANCE_CODES, provenance), provenance);
  out.uvarint(symbol.distance);
  out.uvarint(strings.id(node.file));
  out.uvarint(node.startLine);
  out.uvarint(node.endLine);
  out.string(node.signature);
  const components = Object.entries(symbol.components).sort((a, b) => compareText(a[0], b[0]));
  out.uvarint(components.length);
  for (const [name, value] of components) {
    out.uvarint(strings.id(name));
    out.f32(value);
  }
}

function encodeGcb(pack: ContextPack, options: FormatOptions = {}): Uint8Array {
  const prepared = preparePack(pack);
  const fresh = newEdgeKeys(prepared, options.previous);
  const strings = createStringTable();
  const records = createWriter();
  for (const symbol of prepared.symbols) writeSymbol(records, strings, symbol);
  for (const edge of prepared.edges) {
    records.uvarint(prepared.position.get(edge.source)!);
    records.uvarint(prepared.position.get(edge.target)!);
    writeEnum(records, strings, lookup(GCB_EDGE_TYPE_CODES, edge.type), edge.type);
    records.byte(fresh?.has(edgeKey(edge)) ? STATUS_CODES.added : 0);
  }
  const out = createWriter();
  out.bytes(MAGIC_BYTES);
  out.byte(GCB_VERSION);
  out.string(options.tool ?? DEFAULT_FORMAT_OPTIONS.tool);
  out.uvarint(prepared.tokensUsed);
  out.uvarint(prepared.tokenBudget);
  out.string(prepared.packRoot);
  const table = strings.values();
  out.uvarint(table.length);
  out.uvarint(prepared.symbols.length);
  out.uvarint(prepared.edges.length);
  for (const value of table) out.string(value);
  out.bytes(records.finish());
  return out.finish();
}

function createReader(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  const need = (count: number, what: string): void => {
    if (offset + count > bytes.length) throw badFormat(`GCB truncated: ${what} at byte ${offset} needs ${count} byte(s), ${bytes.length - offset} left`);
  };
  const reader = {
    get offset() {
      return offset;
    },
    remaining: () => bytes.length - offset,
    byte(what: string): number {
      need(1, what);
      return bytes[offset++]!;
    },
    uvarint(what: string): number {
      const start = offset;
      let value = 0;
      let scale = 1;
      for (let i = 0; ; i++) {
        if (i === MAX_VARINT_BYTES) throw badFormat(`GCB varint for ${what} at byte ${start} is longer than ${MAX_VARINT_BYTES} bytes`);
        const byte = reader.byte(what);
        value += (byte & 0x7f) * scale;
        scale *= 0x80;
        if (byte < 0x80) {
          if (byte === 0 && i > 0) throw badFormat(`GCB varint for ${what} at byte ${start} is not minimally encoded`);
          break;
        }
      }
      if (!Number.isSafeInteger(value)) throw badFormat(`GCB varint for ${what} at byte ${start} exceeds 2^53 − 1`);
      return value;
    },
    f32(what: string): number {
      need(4, what);
      const value = view.getFloat32(offset, true);
      offset += 4;
      return value;
    },
    string(what: string): string {
      const length = reader.uvarint(`${what} length`);
      need(length, what);
      const slice = bytes.subarray(offset, offset + length);
      offset += length;
      try {
        return strictUtf8.decode(slice);
      } catch (cause) {
        throw badFormat(`GCB ${what} ending at byte ${offset} is not valid UTF-8`, cause);
      }
    },
  };
  return reader;
}

type Reader = ReturnType<typeof createReader>;

function readEnum(input: Reader, table: readonly string[], names: ReadonlyMap<number, string>, what: string): string {
  const code = input.byte(what);
  if (code === GCB_CUSTOM) return tableString(input, table, what);
  return names.get(code) ?? `unknown_${code}`;
}

function tableString(input: Reader, table: readonly string[], what: string): string {
  const id = input.uvarint(`${what} string id`);
  const value = table[id];
  if (value === undefined) throw badFormat(`GCB ${what} refers to string ${id}; the table has ${table.length}`);
  return value;
}

function readSymbol(input: Reader, table: readonly string[], n: number): GcbSymbol {
  const what = `symbol ${n}`;
  const qualifiedName = input.string(`${what} qualified name`);
  const kind = readEnum(input, table, KIND_BY_CODE, `${what} kind`);
  const score = input.f32(`${what} score`);
  const provenanceCode = input.byte(`${what} provenance`);
  const provenance =
    provenanceCode === 0
      ? undefined
      : provenanceCode === GCB_CUSTOM
        ? tableString(input, table, `${what} provenance`)
        : (PROVENANCE_BY_CODE.get(provenanceCode) ?? `unknown_${provenanceCode}`);
  const distance = input.uvarint(`${what} distance`);
  const file = tableString(input, table, `${what} file`);
  const startLine = input.uvarint(`${what} start line`);
  const endLine = input.uvarint(`${what} end line`);
  const signature = input.string(`${what} signature`);
  const count = input.uvarint(`${what} component count`);
  if (count * 5 > input.remaining()) throw badFormat(`GCB ${what} announces ${count} components, more than the remaining bytes hold`);
  const components = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const name = tableString(input, table, `${what} component ${i}`);
    if (components.has(name)) throw badFormat(`GCB ${what} repeats component ${JSON.stringify(name)}`);
    components.set(name, input.f32(`${what} component ${name}`));
  }
  return {
    qualifiedName,
    kind,
    score,
    ...(provenance === undefined ? {} : { provenance }),
    distance,
    file,
    startLine,
    endLine,
    signature,
    components: Object.fromEntries(components),
  };
}

/**
 * Decode a GCB document (see docs/formats.md). Symbols come back in the encoder's order and
 * edges refer to them by position; scores and components are 32-bit floats. Truncated,
 * corrupted or future-version input throws a KnowingError with code BAD_FORMAT — never
 * anything else — and decoding is linear in the input size.
 *
 * @example
 * ```ts
 * const doc = decodeGcb(gcbFormat.encode(pack) as Uint8Array);
 * doc.symbols[doc.edges[0].source].qualifiedName;
 * ```
 */
export function decodeGcb(bytes: Uint8Array): GcbDocument {
  if (!(bytes instanceof Uint8Array)) throw badFormat('GCB input must be a Uint8Array');
  const input = createReader(bytes);
  for (const expected of MAGIC_BYTES) {
    if (input.remaining() === 0 || input.byte('magic') !== expected) throw badFormat('not a GCB document: it must start with the bytes "GCB"');
  }
  const version = input.byte('version');
  if (version === 0x31) throw badFormat('this is the original system\'s "GCB1" layout, which @knowing/wire does not read');
  if (version === 0 || version > GCB_VERSION) {
    throw badFormat(`GCB version ${version} is not readable; this build reads versions 1–${GCB_VERSION} (upgrade @knowing/wire for newer ones)`);
  }
  const tool = input.string('tool');
  const tokensUsed = input.uvarint('tokens used');
  const tokenBudget = input.uvarint('token budget');
  const packRoot = input.string('pack root');
  const stringCount = input.uvarint('string count');
  const symbolCount = input.uvarint('symbol count');
  const edgeCount = input.uvarint('edge count');
  if (stringCount * MIN_STRING_BYTES + symbolCount * MIN_SYMBOL_BYTES + edgeCount * MIN_EDGE_BYTES > input.remaining()) {
    throw badFormat(`GCB counts (${stringCount} strings, ${symbolCount} symbols, ${edgeCount} edges) exceed the ${input.remaining()} remaining bytes`);
  }
  const table: string[] = [];
  for (let i = 0; i < stringCount; i++) table.push(input.string(`string ${i}`));
  const symbols: GcbSymbol[] = [];
  for (let i = 0; i < symbolCount; i++) symbols.push(readSymbol(input, table, i));
  const edges: GcbEdge[] = [];
  for (let i = 0; i < edgeCount; i++) {
    const source = input.uvarint(`edge ${i} source`);
    const target = input.uvarint(`edge ${i} target`);
    if (source >= symbolCount || target >= symbolCount) throw badFormat(`GCB edge ${i} refers to symbol ${Math.max(source, target)}; there are ${symbolCount}`);
    const type = readEnum(input, table, EDGE_TYPE_BY_CODE, `edge ${i} type`);
    const statusCode = input.byte(`edge ${i} status`);
    const status = STATUS_BY_CODE.get(statusCode);
    if (statusCode !== 0 && !status) throw badFormat(`GCB edge ${i} has status ${statusCode}; known are 0 (none), 1 (added), 2 (removed)`);
    edges.push({ source, target, type, ...(status ? { status } : {}) });
  }
  if (input.remaining() !== 0) throw badFormat(`GCB document ends at byte ${input.offset} but ${input.remaining()} more byte(s) follow`);
  return { version, tool, tokensUsed, tokenBudget, packRoot, symbols, edges };
}

/**
 * GCB, the binary format: "GCB", a version byte, LEB128 varints, UTF-8 strings, a shared
 * string table, little-endian 32-bit float scores and components. Read it back with
 * {@link decodeGcb}. Costs are ⌊record bytes / 4⌋ (the tokenizer does not apply to bytes).
 *
 * @example
 * ```ts
 * const bytes = gcbFormat.encode(pack, { tool: 'context_for_task' }) as Uint8Array;
 * decodeGcb(bytes).symbols.length === pack.symbols.length; // for a pack without duplicates
 * ```
 */
export const gcbFormat: Formatter = Object.freeze({
  name: 'gcb',
  mediaType: 'application/x-gcb',
  binary: true,
  encode: encodeGcb,
  symbolCost(symbol: RankedSymbol) {
    const out = createWriter();
    writeSymbol(out, createStringTable(), symbol);
    return Math.max(1, Math.floor(out.finish().length / 4));
  },
});
