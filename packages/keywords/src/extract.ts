import { extractCodePatterns, fileExtensionOf, isProseAbbreviation } from './code-patterns.js';
import type { CodePatternContext } from './code-patterns.js';
import { FILE_EXTENSIONS, PROSE_ABBREVIATIONS } from './data/lexicon.js';
import { DEFAULT_KEYWORD_OPTIONS, withDefaults } from './options.js';
import { isCompoundIdentifier, splitIdentifier } from './split.js';
import { capitalize, cleanText, hasLetterOrDigit, isNumeric, lengthOf, stripUrls, tokenize, wordMap, wordSet } from './text.js';
import type { Token } from './text.js';
import type { KeywordOptions, KeywordSet } from './types.js';

const BACKTICKED = /`([^`\n]+)`/g;
const TRAILING_CALL = /\([^()]*\)$/;
const WHITESPACE = /\s/u;
const VERSION = /^v\d+(?:\.\d+)*$/i;
const ASCII_WORD = /^[A-Za-z]+$/;

const PROSE = wordSet(PROSE_ABBREVIATIONS);
const EXTENSIONS = wordSet(FILE_EXTENSIONS);

/** An ordered list that keeps each keyword once across all tiers. */
class Collector {
  private readonly seen = new Set<string>();
  add(list: string[], keyword: string): void {
    if (keyword === '' || this.seen.has(keyword)) return;
    this.seen.add(keyword);
    list.push(keyword);
  }
}

/**
 * The words a token contributes: none for contractions, numbers, versions and prose
 * abbreviations; the stem of a file name (`settings.py` → `settings`); the pieces of a
 * hyphenated word (`rate-limit` → `rate`, `limit`).
 */
function wordsOf(token: string): string[] {
  if (token === '' || isNumeric(token) || VERSION.test(token)) return [];
  if (token.includes('.') && isProseAbbreviation(token, PROSE)) return [];
  let word = token;
  if (fileExtensionOf(word, EXTENSIONS) !== undefined) word = word.slice(0, word.lastIndexOf('.'));
  const pieces = word.includes('-') ? word.split('-') : [word];
  return pieces.filter((p) => p !== '' && hasLetterOrDigit(p));
}

/** Sort by length descending; ties keep their order of appearance. */
function byLengthDescending(words: readonly string[]): string[] {
  return words
    .map((word, index) => ({ word, index, length: lengthOf(word) }))
    .sort((a, b) => b.length - a.length || a.index - b.index)
    .map((e) => e.word);
}

/**
 * Turn a task description into keywords in three tiers: back-ticked identifiers (`exact`),
 * multi-part identifiers and code patterns (`compounds`), and single words (`components`,
 * priority term first, bigrams last). Pure and deterministic.
 *
 * @example
 * ```ts
 * const set = extractKeywordSet('Add a new `before_request` hook to ModelAdmin.get_inlines');
 * set.exact;      // ['before_request']
 * set.compounds;  // ['ModelAdmin.get_inlines', 'modeladmin.get_inlines', 'get_inlines']
 * set.components; // ['request', 'inlines', 'before', 'model', 'admin', 'hook']
 * set.priority;   // ['before_request']
 * ```
 */
export function extractKeywordSet(text: string, options?: KeywordOptions): KeywordSet {
  const o = withDefaults(DEFAULT_KEYWORD_OPTIONS, options);
  const stop = wordSet(o.stopWords);
  const verbs = wordSet(o.actionVerbs);
  const filler = wordSet(o.fillerWords);
  const abbreviations = wordMap(o.abbreviations);
  const source = stripUrls(cleanText(text));

  const keep = new Collector();
  const exact: string[] = [];
  const compounds: string[] = [];
  const priority: string[] = [];
  const priorityComponents: string[] = [];
  const components: string[] = [];
  const bigrams: string[] = [];

  // Phase 1: back-ticked identifiers, as written and lower-cased.
  for (const m of source.matchAll(BACKTICKED)) {
    const id = m[1]!.trim().replace(TRAILING_CALL, '');
    if (id === '' || WHITESPACE.test(id) || lengthOf(id) > o.maxIdentifierLength || !hasLetterOrDigit(id)) continue;
    keep.add(exact, id);
    keep.add(exact, id.toLowerCase());
  }

  // Phase 1.5: unambiguous code in the prose.
  const codeContext: CodePatternContext = {
    minLength: o.minCodePatternLength,
    maxLength: o.maxIdentifierLength,
    stopWords: stop,
    proseAbbreviations: PROSE,
    fileExtensions: EXTENSIONS,
  };
  for (const keyword of extractCodePatterns(source, codeContext)) keep.add(compounds, keyword);

  const addComponent = (list: string[], word: string): void => {
    const lower = word.toLowerCase();
    const length = lengthOf(lower);
    if (length < o.minComponentLength || length > o.maxIdentifierLength || stop.has(lower) || isNumeric(lower)) return;
    keep.add(list, lower);
    const expansion = abbreviations.get(lower);
    if (expansion !== undefined && !stop.has(expansion.toLowerCase())) keep.add(list, expansion);
  };
  const addCompound = (word: string): string[] => {
    const lower = word.toLowerCase();
    if (stop.has(lower) || lengthOf(word) > o.maxIdentifierLength) return [];
    const forms = word === lower ? [lower] : [lower, word];
    for (const form of forms) keep.add(compounds, form);
    return forms;
  };

  const tokens = tokenize(source);

  // Phase 2a: verb pattern — the object of a leading action verb is a priority term.
  if (o.verbPattern && tokens.length > 1 && verbs.has(tokens[0]!.text.toLowerCase())) {
    const target = verbTarget(tokens, stop, filler, o.minComponentLength, o.maxIdentifierLength);
    if (target !== undefined) {
      if (isCompoundIdentifier(target)) {
        priority.push(...addCompound(target));
      } else {
        const lower = target.toLowerCase();
        const forms = [lower, capitalize(lower)];
        const expansion = abbreviations.get(lower);
        if (expansion !== undefined && !stop.has(expansion.toLowerCase())) forms.push(expansion);
        for (const form of new Set(forms)) {
          priority.push(form);
          keep.add(priorityComponents, form);
        }
      }
    }
  }

  // Phase 2b: every word — identifiers whole to compounds, their parts to components.
  for (const token of tokens) {
    for (const word of wordsOf(token.text)) {
      if (isCompoundIdentifier(word)) {
        addCompound(word);
        for (const part of splitIdentifier(word)) addComponent(components, part);
      } else {
        addComponent(components, word);
      }
    }
  }

  // Phase 3: bigrams of adjacent plain words, in CamelCase and snake_case.
  if (o.bigrams) {
    const eligible = (word: string): boolean => {
      const lower = word.toLowerCase();
      return (
        ASCII_WORD.test(word) &&
        word.length >= o.bigramMinWordLength &&
        !stop.has(lower) &&
        !filler.has(lower) &&
        splitIdentifier(word).length === 1
      );
    };
    let pairs = 0;
    for (let i = 1; i < tokens.length && pairs < o.maxBigramPairs; i++) {
      const right = tokens[i]!;
      if (right.breakBefore) continue;
      const a = tokens[i - 1]!.text;
      const b = right.text;
      if (!eligible(a) || !eligible(b)) continue;
      const la = a.toLowerCase();
      const lb = b.toLowerCase();
      if (verbs.has(la) || verbs.has(lb)) continue;
      if (la.length < o.bigramMinLongWordLength && lb.length < o.bigramMinLongWordLength) continue;
      keep.add(bigrams, capitalize(la) + capitalize(lb));
      keep.add(bigrams, `${la}_${lb}`);
      pairs++;
    }
  }

  const ordered = [...priorityComponents, ...byLengthDescending(components)];
  if (o.bigramPlacement === 'compounds') compounds.push(...bigrams);
  else ordered.push(...bigrams);

  return Object.freeze({
    exact: Object.freeze(exact),
    compounds: Object.freeze(compounds),
    components: Object.freeze(ordered),
    priority: Object.freeze(priority),
  });
}

/** The first word after the verb that is not filler, a stop word, a number or too short. */
function verbTarget(
  tokens: readonly Token[],
  stop: ReadonlySet<string>,
  filler: ReadonlySet<string>,
  minLength: number,
  maxLength: number,
): string | undefined {
  for (let i = 1; i < tokens.length; i++) {
    for (const word of wordsOf(tokens[i]!.text)) {
      const lower = word.toLowerCase();
      if (filler.has(lower) || stop.has(lower) || lengthOf(lower) < minLength || lengthOf(lower) > maxLength) continue;
      return word;
    }
  }
  return undefined;
}

function unique(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}

/**
 * The keywords to query first: `exact` then `compounds`, de-duplicated.
 *
 * @example
 * ```ts
 * primaryKeywords(extractKeywordSet('fix `url_for` in SessionInterface'));
 * // ['url_for', 'sessioninterface', 'SessionInterface']
 * ```
 */
export function primaryKeywords(set: KeywordSet): string[] {
  return unique([set.exact, set.compounds]);
}

/**
 * Every keyword in priority order: `exact`, `compounds`, then `components`, de-duplicated.
 *
 * @example
 * ```ts
 * allKeywords(extractKeywordSet('blast radius'));
 * // ['radius', 'blast', 'BlastRadius', 'blast_radius']
 * ```
 */
export function allKeywords(set: KeywordSet): string[] {
  return unique([set.exact, set.compounds, set.components]);
}

/**
 * True when no keyword at all was extracted ("refactor the handlers" still gives
 * `handlers`; "fix it" gives nothing).
 *
 * @example
 * ```ts
 * isKeywordSetEmpty(extractKeywordSet('fix it')); // true
 * ```
 */
export function isKeywordSetEmpty(set: KeywordSet): boolean {
  return set.exact.length === 0 && set.compounds.length === 0 && set.components.length === 0;
}
