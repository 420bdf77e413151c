import type { TextColumn } from '@knowing/graph';
import { TEXT_COLUMNS } from '@knowing/graph/store-kit';
import { COLUMN_CODE, quoteLexeme, tokensOf } from './text.js';

/*
 * The full-text query language of `TextSearch.search` is FTS5's: barewords and "quoted
 * phrases", `*` for a prefix, `+` to join phrases, column filters (`name:x`, `{name doc}:x`,
 * `-doc:x`), `AND` (also implied between neighbours), `OR`, `NOT` and parentheses; NOT binds
 * tighter than AND, AND tighter than OR. A query is parsed here into phrases (the units BM25
 * scores) and a tsquery over the column-prefixed lexemes of the search documents.
 */

/** One scored unit of a query: tokens that must follow each other in one of `columns`. */
export interface Phrase {
  readonly columns: readonly TextColumn[];
  readonly tokens: readonly string[];
  /** The last token matches as a prefix. */
  readonly prefix: boolean;
}

type Expr =
  | { readonly op: 'phrase'; readonly phrase: number }
  | { readonly op: 'and' | 'or'; readonly children: readonly Expr[] }
  | { readonly op: 'not'; readonly left: Expr; readonly right: Expr };

/** A parsed query: its phrases in query order and the tsquery that matches documents. */
export interface ParsedQuery {
  readonly phrases: readonly Phrase[];
  /** A tsquery per phrase (null for a phrase without tokens). */
  readonly phraseQueries: readonly (string | null)[];
  /** The tsquery of the whole query; null when nothing can match. */
  readonly tsquery: string | null;
}

/** Thrown for a query FTS5 would reject; the store turns it into INVALID_ARGUMENT. */
export class QuerySyntaxError extends Error {}

type Token =
  | { readonly type: 'word'; readonly text: string }
  | { readonly type: 'string'; readonly text: string }
  | { readonly type: 'and' | 'or' | 'not' | '(' | ')' | ':' | '*' | '^' | '+' | '{' | '}' | '-' | 'near' | 'end' };

const PUNCTUATION = new Set(['(', ')', ':', '*', '^', '+', '{', '}', '-']);

function isBarewordChar(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return code > 127 || code === 0x1a || code === 95 || (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function lex(query: string): Token[] {
  const tokens: Token[] = [];
  const chars = [...query];
  let i = 0;
  while (i < chars.length) {
    const ch = chars[i]!;
    if (/\s/u.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= chars.length) throw new QuerySyntaxError('unterminated string');
        if (chars[i] === '"') {
          if (chars[i + 1] === '"') {
            text += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += chars[i++]!;
      }
      tokens.push({ type: 'string', text });
      continue;
    }
    if (PUNCTUATION.has(ch)) {
      tokens.push({ type: ch as '(' });
      i++;
      continue;
    }
    if (!isBarewordChar(ch)) throw new QuerySyntaxError(`syntax error near "${ch}"`);
    let word = '';
    while (i < chars.length && isBarewordChar(chars[i]!)) word += chars[i++]!;
    if (word === 'AND') tokens.push({ type: 'and' });
    else if (word === 'OR') tokens.push({ type: 'or' });
    else if (word === 'NOT') tokens.push({ type: 'not' });
    else if (word === 'NEAR' && chars.slice(i).join('').trimStart().startsWith('(')) tokens.push({ type: 'near' });
    else tokens.push({ type: 'word', text: word });
  }
  tokens.push({ type: 'end' });
  return tokens;
}

function columnNamed(name: string): TextColumn {
  const column = TEXT_COLUMNS.find((c) => c === name.toLowerCase());
  if (column === undefined) throw new QuerySyntaxError(`no such column: ${name}`);
  return column;
}

/** Parse an FTS5 query over the six text columns. */
export function parseQuery(query: string): ParsedQuery {
  const tokens = lex(query);
  const phrases: Phrase[] = [];
  let at = 0;
  const peek = (): Token => tokens[at]!;
  const next = (): Token => tokens[at++]!;
  const expect = (type: Token['type']): void => {
    const token = next();
    if (token.type !== type) throw new QuerySyntaxError(`syntax error near ${describe(token)}`);
  };
  const describe = (token: Token): string => ('text' in token ? `"${token.text}"` : token.type === 'end' ? '""' : `"${token.type}"`);
  const startsPrimary = (token: Token): boolean =>
    token.type === 'word' || token.type === 'string' || token.type === '(' || token.type === '{' || token.type === '-' || token.type === '^' || token.type === 'near';

  function parseOr(columns: readonly TextColumn[]): Expr | null {
    const children = [parseAnd(columns)];
    while (peek().type === 'or') {
      next();
      children.push(parseAnd(columns));
    }
    return combine('or', children);
  }

  function parseAnd(columns: readonly TextColumn[]): Expr | null {
    const children = [parseNot(columns)];
    for (;;) {
      if (peek().type === 'and') {
        next();
        children.push(parseNot(columns));
      } else if (startsPrimary(peek())) {
        children.push(parseNot(columns));
      } else break;
    }
    return combine('and', children);
  }

  function parseNot(columns: readonly TextColumn[]): Expr | null {
    let left = parsePrimary(columns);
    while (peek().type === 'not') {
      next();
      const right = parsePrimary(columns);
      // FTS5 drops phrases without tokens: `x NOT "."` is `x`, `"." NOT x` matches nothing.
      left = left === null ? null : right === null ? left : { op: 'not', left, right };
    }
    return left;
  }

  function parsePrimary(outer: readonly TextColumn[]): Expr | null {
    let columns = outer;
    const token = peek();
    const following = tokens[at + 1]!;
    if (token.type === '-' || token.type === '{' || ((token.type === 'word' || token.type === 'string') && following.type === ':')) {
      columns = intersect(outer, parseColumnFilter());
    }
    const head = peek();
    if (head.type === '(') {
      next();
      const inner = parseOr(columns);
      expect(')');
      return inner;
    }
    if (head.type === 'near') throw new QuerySyntaxError('NEAR groups are not supported by store-postgres; use a phrase or AND');
    if (head.type === '^') throw new QuerySyntaxError('initial-token queries (^) are not supported by store-postgres');
    return parsePhrase(columns);
  }

  function parseColumnFilter(): TextColumn[] {
    let negate = false;
    if (peek().type === '-') {
      next();
      negate = true;
    }
    const named: TextColumn[] = [];
    const token = next();
    if (token.type === '{') {
      for (;;) {
        const item = next();
        if (item.type === '}') break;
        if (item.type !== 'word' && item.type !== 'string') throw new QuerySyntaxError(`syntax error near ${describe(item)}`);
        named.push(columnNamed(item.text));
      }
    } else if (token.type === 'word' || token.type === 'string') {
      named.push(columnNamed(token.text));
    } else {
      throw new QuerySyntaxError(`syntax error near ${describe(token)}`);
    }
    expect(':');
    return negate ? TEXT_COLUMNS.filter((c) => !named.includes(c)) : named;
  }

  function parsePhrase(columns: readonly TextColumn[]): Expr | null {
    const words: string[] = [];
    let prefix = false;
    for (;;) {
      const token = next();
      if (token.type !== 'word' && token.type !== 'string') throw new QuerySyntaxError(`syntax error near ${describe(token)}`);
      words.push(...tokensOf(token.text));
      prefix = false;
      if (peek().type === '*') {
        next();
        prefix = true;
      }
      if (peek().type !== '+') break;
      next();
    }
    if (words.length === 0) return null;
    phrases.push({ columns, tokens: words, prefix });
    return { op: 'phrase', phrase: phrases.length - 1 };
  }

  const root = parseOr(TEXT_COLUMNS);
  if (peek().type !== 'end') throw new QuerySyntaxError(`syntax error near ${describe(peek())}`);
  const phraseQueries = phrases.map(phraseQuery);
  return { phrases, phraseQueries, tsquery: root === null ? null : toTsquery(root, phraseQueries) };
}

function intersect(outer: readonly TextColumn[], inner: readonly TextColumn[]): TextColumn[] {
  return outer.filter((c) => inner.includes(c));
}

function combine(op: 'and' | 'or', children: readonly (Expr | null)[]): Expr | null {
  const present = children.filter((c): c is Expr => c !== null);
  if (present.length === 0) return null;
  return present.length === 1 ? present[0]! : { op, children: present };
}

/** The tsquery of one phrase: its lexemes in sequence (`<->`) in any of its columns. */
function phraseQuery(phrase: Phrase): string | null {
  if (phrase.columns.length === 0) return null;
  const alternatives = phrase.columns.map((column) =>
    phrase.tokens
      .map((token, i) => quoteLexeme(`${COLUMN_CODE[column]}:${token}`) + (phrase.prefix && i === phrase.tokens.length - 1 ? ':*' : ''))
      .join(' <-> '),
  );
  return alternatives.length === 1 ? `(${alternatives[0]!})` : `(${alternatives.map((a) => `(${a})`).join(' | ')})`;
}

/**
 * A phrase whose column filter leaves no column matches nothing (unlike a phrase without
 * tokens, which FTS5 drops); `!!'x'` would be true everywhere, so an impossible lexeme stands in.
 */
const NOTHING = quoteLexeme('-');

function toTsquery(expr: Expr, phraseQueries: readonly (string | null)[]): string {
  switch (expr.op) {
    case 'phrase':
      return phraseQueries[expr.phrase] ?? NOTHING;
    case 'and':
    case 'or':
      return `(${expr.children.map((c) => toTsquery(c, phraseQueries)).join(expr.op === 'and' ? ' & ' : ' | ')})`;
    case 'not':
      return `(${toTsquery(expr.left, phraseQueries)} & !${toTsquery(expr.right, phraseQueries)})`;
  }
}
