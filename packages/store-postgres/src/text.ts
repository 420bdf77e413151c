import type { GraphNode, TextColumn } from '@knowing/graph';
import { joinMixedCaseWords } from '@knowing/graph/store-kit';

/*
 * The full-text document of a symbol. Each of the six columns is the symbol's text followed by
 * the parts of its identifiers (`before_request` → `before_request before request`,
 * `SQLiteStore` → `SQLiteStore SQLite Store`), so a search finds an identifier whole or by its
 * parts, and adjacent parts form phrases. The text is then cut into tokens the way SQLite's
 * `unicode61 tokenchars '_' remove_diacritics 2` tokenizer does (letters, digits and `_`;
 * lower-cased; diacritics dropped), so a query reads the same in both stores.
 */

const WORD = /[\p{L}\p{N}_]+/gu;
const TOKEN = /[\p{L}\p{N}\p{Co}\p{M}_]+/gu;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_TOKEN = /[A-Za-z0-9_]+/g;
const MARKS = /\p{M}/gu;
const UPPER_LETTER = /\p{Lu}/u;
const LOWER_LETTER = /\p{Ll}/u;
/** SQLite's splitter treats ASCII digits only as digits; other numbers are caseless letters. */
const DIGIT = /[0-9]/;

/** Directory names that say nothing about what the code does. */
const NOISE_DIRS: ReadonlySet<string> = new Set(['src', 'lib', 'internal', 'pkg']);

type Case = 'upper' | 'lower' | 'digit' | 'other';

function caseOf(ch: string): Case {
  if (UPPER_LETTER.test(ch)) return 'upper';
  if (LOWER_LETTER.test(ch)) return 'lower';
  if (DIGIT.test(ch)) return 'digit';
  return 'other';
}

/** True when the word has a place to split: `_`, a lower-case letter or digit before a capital, or `ABc`. */
function splittable(chars: readonly string[]): boolean {
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === '_') return true;
    if (i === 0) continue;
    const here = caseOf(chars[i]!);
    const before = caseOf(chars[i - 1]!);
    if (here === 'upper' && (before === 'lower' || before === 'digit')) return true;
    if (here === 'lower' && before === 'upper' && i >= 2 && caseOf(chars[i - 2]!) === 'upper') return true;
  }
  return false;
}

/**
 * CamelCase parts of a word without `_`: a cut before a capital that follows a lower-case
 * letter or a digit, and before the last capital of a run of capitals followed by a
 * lower-case letter (`HTTPServer` → `HTTP`, `Server`); known mixed-case words stay whole.
 */
export function camelParts(word: string): string[] {
  const chars = [...word];
  const raw: string[] = [];
  let current = '';
  for (let i = 0; i < chars.length; i++) {
    const here = caseOf(chars[i]!);
    if (i > 0) {
      const before = caseOf(chars[i - 1]!);
      const next = i + 1 < chars.length ? caseOf(chars[i + 1]!) : 'other';
      const cut = (here === 'upper' && (before === 'lower' || before === 'digit')) || (here === 'upper' && before === 'upper' && next === 'lower');
      if (cut) {
        raw.push(current);
        current = '';
      }
    }
    current += chars[i]!;
  }
  raw.push(current);
  return joinMixedCaseWords(raw);
}

/**
 * The parts of one word, in order: first its `_`-separated pieces (when there are several),
 * then the CamelCase parts of each piece (when there are several). Parts shorter than
 * `minLength` or already in `seen` are left out; kept parts are added to `seen`.
 */
function partsOf(word: string, minLength: number, seen: Set<string>): string[] {
  const out: string[] = [];
  const keep = (part: string): void => {
    if ([...part].length < minLength || seen.has(part)) return;
    seen.add(part);
    out.push(part);
  };
  const pieces = word.includes('_') ? word.split('_').filter((piece) => piece !== '') : [word];
  if (pieces.length > 1 || pieces[0] !== word) pieces.forEach(keep);
  for (const piece of pieces) {
    const camel = camelParts(piece);
    if (camel.length > 1) camel.forEach(keep);
  }
  return out;
}

/**
 * The text followed by the snake_case and CamelCase parts of its identifiers (each part once,
 * parts of at least two characters).
 */
export function withIdentifierParts(text: string): string {
  const seen = new Set<string>();
  const extra: string[] = [];
  for (const [word] of text.matchAll(WORD)) {
    if (seen.has(word) || !splittable([...word])) continue;
    seen.add(word);
    extra.push(...partsOf(word, 2, seen));
  }
  return extra.length === 0 ? text : `${text} ${extra.join(' ')}`;
}

/**
 * The concept words of a file path: directory names and the file's stem with their parts of
 * at least three characters, without `src`, `lib`, `internal`, `pkg`, each once ignoring case.
 */
export function pathConcepts(file: string): string {
  if (file === '') return '';
  const components = file.split('/');
  const words: string[] = [];
  const seen = new Set<string>();
  const keep = (word: string): void => {
    const key = word.toLowerCase();
    if ([...word].length < 3 || seen.has(key) || NOISE_DIRS.has(key)) return;
    seen.add(key);
    words.push(word);
  };
  components.forEach((component, index) => {
    let stem = component;
    if (index === components.length - 1) {
      const dot = stem.lastIndexOf('.');
      if (dot > 0) stem = stem.slice(0, dot);
    }
    if (NOISE_DIRS.has(stem.toLowerCase())) return;
    for (const word of stem.split(/[^\p{L}\p{N}_]+/u)) {
      if (word === '') continue;
      keep(word);
      partsOf(word, 3, new Set([word])).forEach(keep);
    }
  });
  return words.join(' ');
}

/** The tokens of a text: runs of letters, digits and `_`, lower-cased, diacritics removed. */
export function tokensOf(text: string): string[] {
  if (ASCII_ONLY.test(text)) return text.match(ASCII_TOKEN)?.map((token) => token.toLowerCase()) ?? [];
  const out: string[] = [];
  for (const [token] of text.matchAll(TOKEN)) {
    const folded = token.normalize('NFD').replace(MARKS, '').toLowerCase();
    if (folded !== '') out.push(folded);
  }
  return out;
}

/** One-letter code of each column; lexemes are `<code>:<token>`, so one tsvector holds all six columns. */
export const COLUMN_CODE: Readonly<Record<TextColumn, string>> = Object.freeze({
  name: 'n',
  concepts: 'c',
  path: 'p',
  qualified_name: 'q',
  doc: 'd',
  signature: 's',
});

/** PostgreSQL keeps tsvector positions up to this value. */
const MAX_POSITION = 16383;

/** The searchable text of a node's six columns. */
export function columnTexts(node: GraphNode, file: { readonly concepts: string; readonly path: string }): Record<TextColumn, string> {
  return {
    name: withIdentifierParts(node.name),
    concepts: file.concepts,
    path: file.path,
    qualified_name: withIdentifierParts(node.qualifiedName),
    doc: withIdentifierParts(node.doc),
    signature: withIdentifierParts(node.signature),
  };
}

/** Text columns that depend on the file only, computed once per file. */
export function fileColumns(path: string): { readonly concepts: string; readonly path: string } {
  return { concepts: pathConcepts(path), path: withIdentifierParts(path) };
}

/** A search document: the tsvector literal (column-prefixed lexemes with 1-based positions) and its token count. */
export interface SearchDocument {
  readonly tsv: string;
  readonly length: number;
}

export function searchDocument(texts: Readonly<Record<TextColumn, string>>): SearchDocument {
  const positions = new Map<string, number[]>();
  let length = 0;
  for (const column of Object.keys(COLUMN_CODE) as TextColumn[]) {
    const tokens = tokensOf(texts[column]);
    length += tokens.length;
    tokens.forEach((token, index) => {
      const lexeme = `${COLUMN_CODE[column]}:${token}`;
      let list = positions.get(lexeme);
      if (list === undefined) positions.set(lexeme, (list = []));
      list.push(Math.min(index + 1, MAX_POSITION));
    });
  }
  const parts: string[] = [];
  for (const [lexeme, list] of positions) parts.push(`${quoteLexeme(lexeme)}:${[...new Set(list)].join(',')}`);
  return { tsv: parts.join(' '), length };
}

/** A lexeme quoted for tsvector and tsquery input. */
export function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
