import { KnowingError, ErrorCode } from './errors.js';
import { joinMixedCaseWords, TEXT_COLUMNS } from './store-kit.js';
import type { TextColumn } from './types.js';

/**
 * Text indexing and the FTS5 query subset of the in-memory store. Tokens follow FTS5's
 * `unicode61 tokenchars '_'` tokenizer (runs of letters, digits and `_`, lower-cased, accents
 * removed), and each column's text is followed by the snake_case and CamelCase parts of its
 * identifiers, as the SQLite store indexes it, so `request` finds `before_request` and the
 * phrase "before request" matches it too.
 */

const TOKEN = /[\p{L}\p{N}_]+/gu;
const MARKS = /\p{M}/gu;
const NOISE_DIRS = new Set(['src', 'lib', 'internal', 'pkg']);
const MIN_PART = 2;
const MIN_CONCEPT = 3;

function fold(token: string): string {
  return token.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** CamelCase pieces of a word without `_`: `HTTPServer` → HTTP, Server; `SQLiteStore` → SQLite, Store. */
function camelParts(word: string): string[] {
  const raw = word.match(/\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+\p{N}*|\p{Lu}+\p{N}*|\p{N}+|[^\p{Lu}\p{Ll}\p{N}]+/gu) ?? [word];
  return joinMixedCaseWords(raw);
}

/** The snake_case and CamelCase parts of an identifier, without the identifier itself. */
function identifierParts(word: string, minLength: number): string[] {
  const pieces = word.split('_').filter((p) => p.length > 0);
  const parts: string[] = [];
  if (pieces.length > 1 || pieces[0] !== word) parts.push(...pieces);
  for (const piece of pieces) {
    const camel = camelParts(piece);
    if (camel.length > 1) parts.push(...camel);
  }
  return parts.filter((p) => p.length >= minLength && p !== word);
}

/** Tokens of a text as FTS5 would read them, without identifier expansion (query side). */
export function queryTokens(text: string): string[] {
  return (text.match(TOKEN) ?? []).map(fold);
}

/** A word with a snake_case or CamelCase split point. */
const SPLITTABLE = /_|[\p{Ll}\p{N}]\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;

/**
 * Tokens of a column's text: the text's own tokens, then the parts of its splittable
 * identifiers. Like the SQLite store, a part is left out only when the same spelling was
 * already added as a part or is one of the split words, so `Validator` in `StructValidator
 * … Validator` counts again: term frequencies and lengths match the SQLite index.
 */
export function indexTokens(text: string): string[] {
  const raw = text.match(TOKEN) ?? [];
  const out = raw.map(fold);
  const seen = new Set<string>();
  for (const word of raw) {
    if (!SPLITTABLE.test(word) || seen.has(word)) continue;
    seen.add(word);
    for (const part of identifierParts(word, MIN_PART)) {
      if (seen.has(part)) continue;
      seen.add(part);
      out.push(fold(part));
    }
  }
  return out;
}

/** Directory names and the file stem, with their parts, skipping src, lib, internal and pkg. */
export function conceptTokens(file: string): string[] {
  if (file === '') return [];
  const components = file.split('/');
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (word: string): void => {
    const token = fold(word);
    if (word.length >= MIN_CONCEPT && !seen.has(token) && !NOISE_DIRS.has(token)) {
      seen.add(token);
      out.push(token);
    }
  };
  components.forEach((component, index) => {
    let stem = component;
    if (index === components.length - 1) {
      const dot = stem.lastIndexOf('.');
      if (dot > 0) stem = stem.slice(0, dot);
    }
    if (NOISE_DIRS.has(stem.toLowerCase())) return;
    for (const word of stem.match(TOKEN) ?? []) {
      add(word);
      for (const part of identifierParts(word, MIN_CONCEPT)) add(part);
    }
  });
  return out;
}

/** A parsed full-text query. */
export type QueryNode =
  | { readonly op: 'phrase'; readonly column: TextColumn | null; readonly terms: readonly string[]; readonly prefix: boolean }
  | { readonly op: 'and' | 'or' | 'not'; readonly left: QueryNode; readonly right: QueryNode };

type Token =
  | { readonly type: 'word'; readonly text: string }
  | { readonly type: 'string'; readonly text: string }
  | { readonly type: '(' | ')' | '*' | ':' };

function malformed(query: string, detail: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, `memory store: malformed full-text query ${JSON.stringify(query)}: ${detail}`, {
    source: 'graph',
    hint: `quote terms with special characters ("like:this") and use only the columns ${TEXT_COLUMNS.join(', ')}`,
  });
}

function lex(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    if (/\s/u.test(ch)) {
      i++;
    } else if (ch === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= query.length) throw malformed(query, 'unterminated string');
        if (query[i] === '"') {
          if (query[i + 1] === '"') {
            text += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += query[i];
        i++;
      }
      tokens.push({ type: 'string', text });
    } else if (ch === '(' || ch === ')' || ch === '*' || ch === ':') {
      tokens.push({ type: ch });
      i++;
    } else {
      const match = /^[\p{L}\p{N}_\u0080-\uffff]+/u.exec(query.slice(i));
      if (!match) throw malformed(query, `unexpected ${JSON.stringify(ch)}`);
      tokens.push({ type: 'word', text: match[0] });
      i += match[0].length;
    }
  }
  return tokens;
}

/**
 * Parse the FTS5 subset the engine writes: bare words and "quoted phrases", a trailing `*`
 * for a prefix, `column:` filters (also before a parenthesised group), `AND` (or juxtaposition),
 * `OR`, `NOT` and parentheses. Returns null for a query with no terms.
 */
export function parseQuery(query: string): QueryNode | null {
  const tokens = lex(query);
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const isOperator = (token: Token | undefined, name: string): boolean => token?.type === 'word' && token.text === name;

  function primary(column: TextColumn | null): QueryNode | null {
    const token = peek();
    if (token === undefined) throw malformed(query, 'a term is missing at the end');
    if (token.type === '(') {
      at++;
      const inner = expression(column);
      if (peek()?.type !== ')') throw malformed(query, 'a parenthesis is not closed');
      at++;
      return inner;
    }
    if (token.type === 'word' && tokens[at + 1]?.type === ':') {
      if (column !== null) throw malformed(query, 'nested column filters');
      const name = token.text as TextColumn;
      if (!TEXT_COLUMNS.includes(name)) throw malformed(query, `no such column: ${token.text}`);
      at += 2;
      return primary(name);
    }
    if (token.type !== 'word' && token.type !== 'string') throw malformed(query, `unexpected ${JSON.stringify(token.type)}`);
    at++;
    let prefix = false;
    if (peek()?.type === '*') {
      prefix = true;
      at++;
    }
    const terms = queryTokens(token.text);
    return terms.length === 0 ? null : { op: 'phrase', column, terms, prefix };
  }

  const combine = (op: 'and' | 'or' | 'not', left: QueryNode | null, right: QueryNode | null): QueryNode | null => {
    if (left === null) return op === 'not' ? null : right;
    if (right === null) return left;
    return { op, left, right };
  };

  function conjunction(column: TextColumn | null): QueryNode | null {
    let node = primary(column);
    for (;;) {
      const token = peek();
      if (token === undefined || token.type === ')' || isOperator(token, 'OR')) return node;
      if (isOperator(token, 'AND')) {
        at++;
        node = combine('and', node, primary(column));
      } else if (isOperator(token, 'NOT')) {
        at++;
        node = combine('not', node, primary(column));
      } else {
        node = combine('and', node, primary(column));
      }
    }
  }

  function expression(column: TextColumn | null): QueryNode | null {
    let node = conjunction(column);
    while (isOperator(peek(), 'OR')) {
      at++;
      node = combine('or', node, conjunction(column));
    }
    return node;
  }

  if (tokens.length === 0) return null;
  const tree = expression(null);
  if (at < tokens.length) throw malformed(query, `unexpected ${JSON.stringify(tokens[at]!.type)}`);
  return tree;
}

/** The phrases of a query, in order: each contributes to the BM25 score. */
export function phrasesOf(node: QueryNode): Extract<QueryNode, { op: 'phrase' }>[] {
  return node.op === 'phrase' ? [node] : [...phrasesOf(node.left), ...phrasesOf(node.right)];
}

/** Occurrences of a phrase in a token list. */
export function countPhrase(tokens: readonly string[], terms: readonly string[], prefix: boolean): number {
  let count = 0;
  const last = terms.length - 1;
  for (let start = 0; start + terms.length <= tokens.length; start++) {
    let ok = true;
    for (let k = 0; k <= last && ok; k++) {
      const token = tokens[start + k]!;
      ok = k === last && prefix ? token.startsWith(terms[k]!) : token === terms[k];
    }
    if (ok) count++;
  }
  return count;
}
