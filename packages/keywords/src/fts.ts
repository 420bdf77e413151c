import { DEFAULT_DECOMPOSE_OPTIONS, DEFAULT_FTS_QUERY_OPTIONS, withDefaults } from './options.js';
import { splitIdentifier } from './split.js';
import { cleanText, hasLetterOrDigit, lengthOf, wordSet } from './text.js';
import type { DecomposeOptions, FtsQueryOptions } from './types.js';

/** FTS5 column holding the terminal symbol name. */
const NAME_COLUMN = 'name';
/** FTS5 column holding the file path. */
const PATH_COLUMN = 'path';

const BAREWORD = /^[A-Za-z0-9_]+$/;
const OPERATOR = /^(?:AND|OR|NOT|NEAR)$/i;
const UPPER = /[\p{Lu}\p{Lt}]/u;
const LOWER = /\p{Ll}/u;
const SPACES = /\s+/gu;
const DUNDER = /^__.+__$/;
const SNAKE_PAIR = /^([\p{L}]+)_([\p{L}]+)$/u;

/** A keyword with control characters, lone surrogates and double quotes made spaces, trimmed. */
function cleanTerm(term: string): string {
  return cleanText(term).replace(/"/g, ' ').replace(SPACES, ' ').trim();
}

/** FTS5 string literal. Inner quotes are already gone; doubling them keeps this safe anyway. */
function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * A bare term if it is a plain ASCII word that is not an operator (in any case: FTS5 only
 * reads upper-case operators, but quoting costs nothing); a quoted string otherwise.
 */
function term(word: string): string {
  return BAREWORD.test(word) && !OPERATOR.test(word) ? word : quote(word);
}

/** Identifier-like: contains `_` or `.`, or mixes upper and lower case. */
function isFtsCompound(keyword: string): boolean {
  return keyword.includes('_') || keyword.includes('.') || (UPPER.test(keyword) && LOWER.test(keyword));
}

/** Clauses kept once each, compared case-insensitively (FTS5 matching is). */
class Clauses {
  private readonly seen = new Set<string>();
  readonly list: string[] = [];
  add(clause: string): boolean {
    const key = clause.toLowerCase();
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    this.list.push(clause);
    return true;
  }
}

/**
 * Build an FTS5 `MATCH` expression over the columns `name`, `concepts`, `path`,
 * `qualified_name`, `doc` and `signature`. Identifier-like keywords (containing `_` or `.`,
 * or mixed case) become phrases on `name`; plain words are bare terms; then phrase pairs
 * from `phraseTerms` (its two-word snake_case entries, else its adjacent plain words),
 * `path:term*` prefixes and `relatedTerms`, all joined with `OR`.
 * Every term is quoted or checked to be a plain word, so any input gives a valid query;
 * returns `''` when nothing is searchable.
 *
 * @example
 * ```ts
 * const task = 'add a before_request hook';
 * const set = extractKeywordSet(task);
 * buildFtsQuery(primaryKeywords(set), { phraseTerms: allKeywords(set), pathTerms: extractPathTerms(task) });
 * // 'name:"before_request" OR "before request" OR path:before_request* OR path:hook*'
 * ```
 */
export function buildFtsQuery(keywords: readonly string[], options?: FtsQueryOptions): string {
  const o = withDefaults(DEFAULT_FTS_QUERY_OPTIONS, options);
  const clauses = new Clauses();
  const clean = (raw: string): string => {
    const cleaned = cleanTerm(raw);
    return lengthOf(cleaned) > o.maxTermLength ? '' : cleaned;
  };

  let taken = 0;
  for (const raw of keywords) {
    if (taken >= o.maxTerms) break;
    const keyword = clean(raw);
    if (!hasLetterOrDigit(keyword)) continue;
    const clause = isFtsCompound(keyword) ? `${NAME_COLUMN}:${quote(keyword)}` : term(keyword);
    if (clauses.add(clause)) taken++;
  }

  // Phrase pairs. A two-word snake_case entry (a bigram, or an identifier such as
  // `before_request`) is a pair of words adjacent in the task. Only when there is none do
  // neighbours in the list pair up (the original rule; components are sorted by length, so
  // those pairs are rarely adjacent in the task). Case variants are collapsed so
  // `snapshot Snapshot` never pairs up.
  const pairs: (readonly [string, string])[] = [];
  const words: string[] = [];
  for (const raw of options?.phraseTerms ?? []) {
    const entry = clean(raw);
    const snake = SNAKE_PAIR.exec(entry);
    if (snake) pairs.push([snake[1]!.toLowerCase(), snake[2]!.toLowerCase()]);
    else if (hasLetterOrDigit(entry) && !entry.includes(' ') && !isFtsCompound(entry)) {
      const word = entry.toLowerCase();
      if (words[words.length - 1] !== word) words.push(word);
    }
  }
  if (pairs.length === 0) for (let i = 1; i < words.length; i++) pairs.push([words[i - 1]!, words[i]!]);
  let phrases = 0;
  for (const [a, b] of pairs) {
    if (phrases >= o.maxPhrasePairs) break;
    if (a === b || lengthOf(a) < o.minPhraseWordLength || lengthOf(b) < o.minPhraseWordLength) continue;
    if (clauses.add(quote(`${a} ${b}`))) phrases++;
  }

  let paths = 0;
  for (const raw of options?.pathTerms ?? []) {
    if (paths >= o.maxPathTerms) break;
    const path = clean(raw).toLowerCase();
    if (lengthOf(path) < o.minPathTermLength || !hasLetterOrDigit(path) || path.includes(' ')) continue;
    const prefix = `${term(path)}*`;
    if (clauses.add(`${PATH_COLUMN}:${prefix}`)) paths++;
  }

  let related = 0;
  for (const raw of options?.relatedTerms ?? []) {
    if (related >= o.maxRelatedTerms) break;
    const word = clean(raw);
    if (!hasLetterOrDigit(word)) continue;
    if (clauses.add(term(word))) related++;
  }

  return clauses.list.join(' OR ');
}

/**
 * The fallback query for when a compound query finds nothing: each identifier-like keyword
 * is broken into its words (dotted keywords keep their last two segments, `__dunder__`
 * segments dropped; parts of at least three characters that are not stop words), each
 * matched on `name`; plain words stay bare terms. A lower-cased copy of a listed mixed-case
 * keyword is skipped. Returns `''` when nothing is left.
 *
 * @example
 * ```ts
 * decomposeCompounds(['django.contrib.admin.ModelAdmin.get_inlines', 'inlines']);
 * // 'name:model OR name:admin OR name:inlines OR inlines'
 * ```
 */
export function decomposeCompounds(keywords: readonly string[], options?: DecomposeOptions): string {
  const o = withDefaults(DEFAULT_DECOMPOSE_OPTIONS, options);
  const stop = wordSet(o.stopWords);
  const clauses = new Clauses();
  // `modeladmin.get_inlines` next to `ModelAdmin.get_inlines` has lost the case that splits
  // it, so only the cased form is decomposed.
  const cased = new Set(keywords.filter((k) => k !== k.toLowerCase()).map((k) => k.toLowerCase()));
  for (const raw of keywords) {
    if (raw === raw.toLowerCase() && /[_.]/.test(raw) && cased.has(raw)) continue;
    const keyword = cleanTerm(raw);
    if (!hasLetterOrDigit(keyword)) continue;
    if (!isFtsCompound(keyword)) {
      if (lengthOf(keyword) > o.maxTermLength) continue;
      clauses.add(term(keyword));
      continue;
    }
    const segments = keyword.split('.').filter((s) => s !== '' && !DUNDER.test(s));
    for (const segment of segments.slice(-Math.max(1, o.maxSegments))) {
      for (const part of splitIdentifier(segment)) {
        const lower = part.toLowerCase();
        const length = lengthOf(lower);
        if (length < o.minPartLength || length > o.maxTermLength || stop.has(lower)) continue;
        clauses.add(`${NAME_COLUMN}:${term(lower)}`);
      }
    }
  }
  return clauses.list.join(' OR ');
}
