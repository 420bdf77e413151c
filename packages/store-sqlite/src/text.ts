import type { GraphNode } from '@knowing/graph';
import { joinMixedCaseWords } from '@knowing/graph/store-kit';

/**
 * Index text for the six FTS5 columns. The tokenizer (`unicode61 tokenchars '_'`) keeps
 * `before_request` and `SQLiteStore` whole, so a query for `request` or `store` would miss
 * them; the text is therefore expanded here with the parts of each identifier while the
 * original tokens stay, so both the whole identifier and its parts match.
 *
 * This runs for every node of a full index (hundreds of thousands), so it scans character
 * codes instead of using regular expressions and Array.from.
 */
export interface FtsRow {
  readonly name: string;
  readonly concepts: string;
  readonly path: string;
  readonly qualified_name: string;
  readonly doc: string;
  readonly signature: string;
}

const OTHER = 0; // separator for the tokenizer
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const UNDERSCORE = 4;
const CASELESS = 5; // a letter without case (CJK, …) or a surrogate half: part of a word

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] =
    c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : c === 95 ? UNDERSCORE : OTHER;
}
const UNICODE_UPPER = /\p{Lu}/u;
const UNICODE_LOWER = /\p{Ll}/u;
const UNICODE_WORD = /[\p{L}\p{N}]/u;

function classAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 128) return ASCII_CLASS[code]!;
  if (code >= 0xd800 && code <= 0xdfff) return CASELESS;
  const ch = text[i]!;
  if (UNICODE_UPPER.test(ch)) return UPPER;
  if (UNICODE_LOWER.test(ch)) return LOWER;
  return UNICODE_WORD.test(ch) ? CASELESS : OTHER;
}

const MIN_PART = 2;
const MIN_CONCEPT = 3;
/** Directory names that say nothing about what the code does. */
const NOISE_DIRS = new Set(['src', 'lib', 'internal', 'pkg']);

/**
 * CamelCase parts of a word without `_`: breaks before an upper-case letter that follows a
 * lower-case letter or digit, and before the last capital of a capital run followed by a
 * lower-case letter (`HTTPServer` → `HTTP`, `Server`), keeping known mixed-case words such
 * as `SQLite` whole (`SQLiteStore` → `SQLite`, `Store`).
 */
export function camelParts(word: string): string[] {
  const raw: string[] = [];
  let start = 0;
  let prev = word.length > 0 ? classAt(word, 0) : OTHER;
  for (let i = 1; i < word.length; i++) {
    const cur = classAt(word, i);
    if (
      (cur === UPPER && (prev === LOWER || prev === DIGIT)) ||
      (prev === UPPER && cur === UPPER && i + 1 < word.length && classAt(word, i + 1) === LOWER)
    ) {
      raw.push(word.slice(start, i));
      start = i;
    }
    prev = cur;
  }
  raw.push(word.slice(start));
  if (raw.length < 2) return raw;
  return joinMixedCaseWords(raw);
}

/**
 * Append the snake_case and CamelCase parts of `word` (not the word itself) to `out`,
 * skipping parts shorter than `minLength` and parts already in `seen`.
 */
function pushParts(word: string, minLength: number, seen: Set<string>, out: string[]): void {
  const add = (part: string): void => {
    if (part.length >= minLength && !seen.has(part)) {
      seen.add(part);
      out.push(part);
    }
  };
  const pieces = word.indexOf('_') >= 0 ? word.split('_').filter((p) => p.length > 0) : [word];
  if (pieces.length > 1 || pieces[0] !== word) for (const piece of pieces) add(piece);
  for (const piece of pieces) {
    const camel = camelParts(piece);
    if (camel.length > 1) for (const part of camel) add(part);
  }
}

/** The parts of one identifier-like word, excluding the word itself, in order, deduplicated. */
export function identifierParts(word: string, minLength = MIN_PART): string[] {
  const out: string[] = [];
  pushParts(word, minLength, new Set([word]), out);
  return out;
}

/**
 * The parts of words already split ({@link identifierParts}): a repository repeats its
 * identifiers in names, qualified names, signatures and docs, and a first index expands four
 * texts of every symbol. Bounded like the stem memo of the lexical terms.
 */
const PARTS = new Map<string, readonly string[]>();
const PARTS_MEMO_LIMIT = 100_000;

/**
 * What pushParts(word, MIN_PART, seen, out) appends, with `word` already in `seen`: its parts
 * not seen yet, in order. The memo holds the parts without the word itself and without repeats,
 * which the same filter against `seen` then skips as pushParts would.
 */
function appendParts(word: string, seen: Set<string>, out: string[]): void {
  let parts = PARTS.get(word);
  if (parts === undefined) {
    parts = identifierParts(word);
    if (PARTS.size >= PARTS_MEMO_LIMIT) PARTS.clear();
    PARTS.set(word, parts);
  }
  for (const part of parts) {
    if (!seen.has(part)) {
      seen.add(part);
      out.push(part);
    }
  }
}

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_SPLITTABLE = /_|[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
/** A whole ASCII word (letters, digits, '_') that contains a split point. */
const ASCII_SPLITTABLE_WORD = /(?<![A-Za-z0-9_])[A-Za-z0-9_]*(?:_|[a-z0-9][A-Z]|[A-Z][A-Z][a-z])[A-Za-z0-9_]*/g;

/**
 * The text as written, followed by the CamelCase, snake_case and path parts of its
 * identifiers: `SQLiteStore` → `SQLiteStore SQLite Store`, `before_request` →
 * `before_request before request`. Path separators are already token boundaries, so
 * `src/flask/app.py` yields `src flask app py` from the original text alone.
 */
export function expandIdentifiers(text: string): string {
  if (!NON_ASCII.test(text)) {
    // Common case, in native regex speed: only words with a split point are looked at.
    if (!ASCII_SPLITTABLE.test(text)) return text;
    let extras: string[] | undefined;
    const seen = new Set<string>();
    for (const match of text.matchAll(ASCII_SPLITTABLE_WORD)) {
      const word = match[0];
      if (seen.has(word)) continue;
      seen.add(word);
      appendParts(word, seen, (extras ??= []));
    }
    return extras === undefined || extras.length === 0 ? text : `${text} ${extras.join(' ')}`;
  }
  return expandScanning(text);
}

/** {@link expandIdentifiers} for text with non-ASCII characters: Unicode-aware scan. */
function expandScanning(text: string): string {
  let extras: string[] | undefined;
  let seen: Set<string> | undefined;
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && classAt(text, i) === OTHER) i++;
    const start = i;
    let splittable = false;
    let prev = OTHER;
    let prev2 = OTHER;
    while (i < n) {
      const cur = classAt(text, i);
      if (cur === OTHER) break;
      if (
        cur === UNDERSCORE ||
        (cur === UPPER && (prev === LOWER || prev === DIGIT)) ||
        (cur === LOWER && prev === UPPER && prev2 === UPPER)
      ) {
        splittable = true;
      }
      prev2 = prev;
      prev = cur;
      i++;
    }
    if (!splittable) continue;
    const word = text.slice(start, i);
    seen ??= new Set();
    if (seen.has(word)) continue;
    seen.add(word);
    appendParts(word, seen, (extras ??= []));
  }
  return extras === undefined || extras.length === 0 ? text : `${text} ${extras.join(' ')}`;
}

/**
 * Concept words of a file path: its directory names and file stem, split into CamelCase and
 * snake_case parts of at least three characters, skipping `src`, `lib`, `internal`, `pkg`.
 * `src/auth/OAuthHandler.go` → `auth OAuthHandler OAuth Handler`.
 */
export function conceptsOf(file: string): string {
  if (file.length === 0) return '';
  const components = file.split('/');
  const last = components.length - 1;
  const words: string[] = [];
  const seen = new Set<string>();
  const add = (w: string): void => {
    const key = w.toLowerCase();
    if (w.length >= MIN_CONCEPT && !seen.has(key) && !NOISE_DIRS.has(key)) {
      seen.add(key);
      words.push(w);
    }
  };
  for (let index = 0; index <= last; index++) {
    let stem = components[index]!;
    if (index === last) {
      const dot = stem.lastIndexOf('.');
      if (dot > 0) stem = stem.slice(0, dot);
    }
    if (NOISE_DIRS.has(stem.toLowerCase())) continue;
    for (const word of stem.split(/[^\p{L}\p{N}_]+/u)) {
      if (word.length === 0) continue;
      add(word);
      for (const part of identifierParts(word, MIN_CONCEPT)) add(part);
    }
  }
  return words.join(' ');
}

/** The columns that depend only on the file, computed once per file rather than per node. */
export interface FileText {
  readonly concepts: string;
  readonly path: string;
}

export function fileTextOf(file: string): FileText {
  return { concepts: conceptsOf(file), path: expandIdentifiers(file) };
}

/** The FTS row of a (non-external) node. */
export function ftsRowOf(node: GraphNode, fileText: FileText = fileTextOf(node.file)): FtsRow {
  return {
    name: expandIdentifiers(node.name),
    concepts: fileText.concepts,
    path: fileText.path,
    qualified_name: expandIdentifiers(node.qualifiedName),
    doc: expandIdentifiers(node.doc),
    signature: expandIdentifiers(node.signature),
  };
}
