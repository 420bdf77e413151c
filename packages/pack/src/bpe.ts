import { createRequire } from 'node:module';

/**
 * What a byte-pair table is made of: the ranks (a token's rank is its index; a token is a
 * string or, when its bytes are no valid UTF-8, the bytes; holes allowed), the pattern that
 * cuts text into pieces, and the special tokens (text holding one is not counted here).
 */
export interface BpeTableSource {
  readonly ranks: readonly (string | readonly number[] | undefined)[];
  readonly pattern: string;
  readonly flags: string;
  readonly specials: readonly string[];
  /** Where the table comes from (`gpt-tokenizer@3.4.0 cl100k_base`), recorded in the table for the record. */
  readonly origin: string;
}

/** Counts the tokens of a text, or answers undefined when the text holds a special token. */
export interface BpeCounter {
  readonly origin: string;
  count(text: string): number | undefined;
}

interface TableHeader {
  readonly pattern: string;
  readonly flags: string;
  readonly specials: readonly string[];
  readonly origin: string;
  readonly tokens: number;
  readonly slots: number;
  readonly blobBytes: number;
}

const MAGIC = 0x4550424b; // "KBPE" read as a little-endian u32
const FORMAT_VERSION = 1;
const EMPTY_SLOT = -1;

/** FNV-1a over bytes[start, end): cheap, and spreads the short keys of a BPE vocabulary well. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** No lone surrogate (String.prototype.isWellFormed, which the ES2023 library lacks). */
function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return false;
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

const BOM = '\ufeff';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const align4 = (n: number): number => (n + 3) & ~3;

/**
 * The table as one buffer: a header, each rank's byte range, and an open-addressing hash
 * index from bytes to rank, built here (at build time) so that loading it costs a file read
 * instead of the ~50 ms it takes to fill a Map with 100 k strings.
 */
export function encodeBpeTable(source: BpeTableSource): Uint8Array {
  const encoder = new TextEncoder();
  // Which tokens a lookup by bytes may find: gpt-tokenizer finds a string token by its text and
  // a byte token (bytes that are no valid UTF-8) by its bytes; bytes that are valid UTF-8 are
  // decoded first, which drops a leading byte-order mark, so a byte token that decodes (one
  // starting with a BOM) is never found, and the counter strips that BOM before looking up.
  const findable: boolean[] = [];
  const tokenBytes = source.ranks.map((token, rank) => {
    if (token === undefined) {
      findable.push(false);
      return new Uint8Array(0);
    }
    if (typeof token === 'string') {
      if (token === '' || token.startsWith(BOM) || !isWellFormed(token)) throw new Error(`rank ${rank} is a string the counter cannot look up as gpt-tokenizer does`);
      findable.push(true);
      return encoder.encode(token);
    }
    const bytes = Uint8Array.from(token);
    findable.push(!isValidUtf8(bytes));
    return bytes;
  });
  const blobBytes = tokenBytes.reduce((sum, bytes) => sum + bytes.length, 0);
  let slots = 1;
  while (slots < tokenBytes.length * 2.5) slots *= 2;
  const header: TableHeader = { pattern: source.pattern, flags: source.flags, specials: source.specials, origin: source.origin, tokens: tokenBytes.length, slots, blobBytes };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const offsetsAt = align4(12 + headerBytes.length);
  const slotsAt = offsetsAt + 4 * (tokenBytes.length + 1);
  const blobAt = slotsAt + 4 * slots;
  const out = new Uint8Array(blobAt + blobBytes);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, 12);
  // Typed arrays use the machine's byte order; the reader assumes little-endian, as the header is.
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('the BPE table is written on little-endian machines only');
  const offsets = new Uint32Array(out.buffer, offsetsAt, tokenBytes.length + 1);
  const index = new Int32Array(out.buffer, slotsAt, slots).fill(EMPTY_SLOT);
  let at = 0;
  for (const [rank, bytes] of tokenBytes.entries()) {
    offsets[rank] = at;
    out.set(bytes, blobAt + at);
    at += bytes.length;
    if (!findable[rank]) continue;
    let slot = hashBytes(bytes, 0, bytes.length) & (slots - 1);
    for (; index[slot] !== EMPTY_SLOT; slot = (slot + 1) & (slots - 1)) {
      if (sameBytes(tokenBytes[index[slot]!]!, bytes)) throw new Error(`ranks ${index[slot]} and ${rank} have the same bytes`);
    }
    index[slot] = rank;
  }
  offsets[tokenBytes.length] = at;
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A table's typed arrays need 4-byte alignment; a buffer read from a file may be a slice of a pool. */
function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
}

/**
 * A counter over a table from {@link encodeBpeTable}. Throws when the buffer is not such a
 * table. Counts as gpt-tokenizer's `countTokens` does: the text cut by the pattern, each piece
 * one token when the vocabulary holds it whole, else the number of parts byte-pair merging
 * leaves (the lowest-ranked adjacent pair first, the leftmost among equals).
 */
export function readBpeTable(input: Uint8Array): BpeCounter {
  const bytes = aligned(input);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 12 || view.getUint32(0, true) !== MAGIC) throw new Error('not a BPE table');
  if (view.getUint32(4, true) !== FORMAT_VERSION) throw new Error(`BPE table format ${view.getUint32(4, true)}, this build reads ${FORMAT_VERSION}`);
  const headerLength = view.getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as TableHeader;
  const offsetsAt = bytes.byteOffset + align4(12 + headerLength);
  const slotsAt = offsetsAt + 4 * (header.tokens + 1);
  const blobAt = slotsAt + 4 * header.slots;
  if (blobAt - bytes.byteOffset + header.blobBytes !== bytes.byteLength) throw new Error('truncated BPE table');
  const offsets = new Uint32Array(bytes.buffer, offsetsAt, header.tokens + 1);
  const index = new Int32Array(bytes.buffer, slotsAt, header.slots);
  const blob = new Uint8Array(bytes.buffer, blobAt, header.blobBytes);
  const mask = header.slots - 1;
  const splitter = new RegExp(header.pattern, header.flags.includes('g') ? header.flags : `${header.flags}g`);
  const specials = header.specials;

  const rankOf = (piece: Uint8Array, start: number, end: number): number => {
    const length = end - start;
    let slot = hashBytes(piece, start, end) & mask;
    for (;;) {
      const rank = index[slot]!;
      if (rank === EMPTY_SLOT) return -1;
      const at = offsets[rank]!;
      if (offsets[rank + 1]! - at === length) {
        let i = 0;
        while (i < length && blob[at + i] === piece[start + i]) i++;
        if (i === length) return rank;
      }
      slot = (slot + 1) & mask;
    }
  };

  const encoder = new TextEncoder();
  let scratch = new Uint8Array(256);
  const starts: number[] = [];
  const pairRanks: number[] = [];
  const NONE = Number.POSITIVE_INFINITY;
  const pairRank = (i: number): number => {
    if (i + 2 >= starts.length) return NONE;
    let start = starts[i]!;
    const end = starts[i + 2]!;
    // As gpt-tokenizer looks bytes up: valid UTF-8 as decoded text, which has lost a leading BOM.
    if (scratch[start] === 0xef && scratch[start + 1] === 0xbb && scratch[start + 2] === 0xbf && end - start >= 3 && isValidUtf8(scratch.subarray(start, end))) start += 3;
    const rank = start === end ? -1 : rankOf(scratch, start, end);
    return rank < 0 ? NONE : rank;
  };
  /** The parts byte-pair merging leaves of scratch[0, length). */
  const mergedParts = (length: number): number => {
    starts.length = 0;
    pairRanks.length = 0;
    for (let i = 0; i <= length; i++) starts.push(i);
    for (let i = 0; i < length; i++) pairRanks.push(pairRank(i));
    while (starts.length > 2) {
      let best = NONE;
      let at = -1;
      for (let i = 0; i < pairRanks.length; i++) {
        if (pairRanks[i]! < best) {
          best = pairRanks[i]!;
          at = i;
        }
      }
      if (at < 0) break;
      starts.splice(at + 1, 1);
      pairRanks.splice(at + 1, 1);
      pairRanks[at] = pairRank(at);
      if (at > 0) pairRanks[at - 1] = pairRank(at - 1);
    }
    return starts.length - 1;
  };

  // Code and the formats' markup repeat their pieces: each is counted once per process. Cleared
  // when full, so that a long-lived process holds at most this many.
  const counted = new Map<string, number>();
  const COUNTED_MAX = 100_000;
  const countPiece = (piece: string): number => {
    let count = counted.get(piece);
    if (count !== undefined) return count;
    if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3 + 256);
    const { written } = encoder.encodeInto(piece, scratch);
    // gpt-tokenizer looks a piece up whole as a string: one with a lone surrogate (which UTF-8
    // turns into U+FFFD's bytes) is never found whole, only merged.
    count = isWellFormed(piece) && rankOf(scratch, 0, written) >= 0 ? 1 : mergedParts(written);
    if (counted.size >= COUNTED_MAX) counted.clear();
    counted.set(piece, count);
    return count;
  };

  return {
    origin: header.origin,
    count(text: string): number | undefined {
      if (text.includes('<|')) for (const special of specials) if (text.includes(special)) return undefined;
      // match() with a global pattern returns the pieces alone, as matchAll would yield them,
      // without a match object for each (most of the time a count took went to those).
      const pieces = text.match(splitter);
      if (pieces === null) return 0;
      let total = 0;
      for (const piece of pieces) total += countPiece(piece);
      return total;
    },
  };
}

/**
 * The cl100k_base table as gpt-tokenizer ships it (run at build time, and by tests). Reads
 * gpt-tokenizer's data modules, which take ~150 ms to load.
 */
export function cl100kSource(): BpeTableSource {
  const require = createRequire(import.meta.url);
  const ranks = (require('gpt-tokenizer/bpeRanks/cl100k_base') as { default: (string | number[])[] }).default;
  const { CL100K_TOKEN_SPLIT_REGEX } = require('gpt-tokenizer/encodingParams/constants') as { CL100K_TOKEN_SPLIT_REGEX: RegExp };
  const { Cl100KBase } = require('gpt-tokenizer/encodingParams/cl100k_base') as { Cl100KBase: (ranks: unknown) => { specialTokensEncoder: Map<string, number> } };
  const { version } = require('gpt-tokenizer/package.json') as { version: string };
  return {
    // A sparse array's holes stay holes (undefined): Array.from would do the same.
    ranks: Array.from(ranks),
    pattern: CL100K_TOKEN_SPLIT_REGEX.source,
    flags: CL100K_TOKEN_SPLIT_REGEX.flags,
    specials: [...Cl100KBase(ranks).specialTokensEncoder.keys()],
    origin: `gpt-tokenizer@${version} cl100k_base`,
  };
}
