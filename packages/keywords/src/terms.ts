/**
 * Term matching between a task and a symbol's own path: both sides become sets of light-stemmed,
 * lower-case word stems, so "serializer chain" meets `SerializerChain` and "serialized" meets
 * `serialize`. Used as a ranking signal (how many task terms a symbol names), not for retrieval.
 */
import { stemTerm } from './fold.js';
import { splitIdentifier } from './split.js';
import { STOP_WORDS } from './data/stop-words.js';

const MIN_TERM = 3;
/** What separates the words of a symbol path: `::`, `.`, `#`, `/` and white space. */
const SYMBOL_WORDS = /::|[.#/\s]+/;
const STOP: ReadonlySet<string> = new Set(STOP_WORDS);

/**
 * Each word's terms, kept for the process: a query splits the paths and docs of hundreds of
 * symbols that share most of their words (their files' paths, the project's vocabulary), in
 * several stages, and in a short-lived process that code runs before the JIT has compiled it.
 * Cleared when full, so memory stays bounded in a long-lived server.
 */
const termsByWord = new Map<string, readonly string[]>();
const TERMS_BY_WORD_LIMIT = 50_000;

function termsOfWord(word: string): readonly string[] {
  let terms = termsByWord.get(word);
  if (terms !== undefined) return terms;
  const out: string[] = [];
  for (const part of splitIdentifier(word)) {
    const lower = part.toLowerCase();
    if (lower.length < MIN_TERM || STOP.has(lower) || /^\d+$/.test(lower)) continue;
    out.push(stemTerm(lower));
  }
  if (termsByWord.size >= TERMS_BY_WORD_LIMIT) termsByWord.clear();
  termsByWord.set(word, (terms = out));
  return terms;
}

function addTerms(word: string, out: Set<string>): void {
  for (const term of termsOfWord(word)) out.add(term);
}

/**
 * The distinct stemmed terms of a task: every word and every part of an identifier written in
 * it, lower-cased, without stop words, numbers and words shorter than three letters.
 *
 * @example
 * ```ts
 * taskTerms('Trace how route values reach the SerializerChain'); // ['trac', 'rout', 'valu', 'reach', 'serializ', 'chain']
 * ```
 */
export function taskTerms(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.split(/[^A-Za-z0-9_]+/)) if (word) addTerms(word, out);
  return [...out];
}

/**
 * A lower-case text that every word giving `term` (through {@link taskTerms} and its kin)
 * contains, lower-cased: the term itself, or the term less its last letter when that is an
 * `i` (`dependenci` comes of `dependency`). A term is a prefix of one part of the word, the
 * part's final `y` read as `i`. A word without the core of any task term yields none of them,
 * which a caller matching many words can tell without splitting or folding them.
 *
 * @example
 * ```ts
 * termCore('dependenci'); // 'dependenc'
 * termCore('serializ');   // 'serializ'
 * 'MaxDependencyDepth'.toLowerCase().includes(termCore(stemTerm('dependencies'))); // true
 * ```
 */
export function termCore(term: string): string {
  return term.endsWith('i') ? term.slice(0, -1) : term;
}

/**
 * The distinct stemmed terms of a symbol path such as `Serializer.processElement` or
 * `Jekyll::Drops::DocumentDrop` (the part of a qualified name after its file), filtered like
 * {@link taskTerms}.
 *
 * @example
 * ```ts
 * symbolTerms('SerializerChain.process'); // ['serializ', 'chain', 'process']
 * ```
 */
export function symbolTerms(symbolPath: string): string[] {
  const out = new Set<string>();
  for (const word of symbolPath.split(SYMBOL_WORDS)) if (word) addTerms(word, out);
  return [...out];
}

/**
 * How many distinct task terms a symbol path names (read through {@link termMatcher}). For many
 * paths against one task, {@link termCounter} reads each word once for all of them.
 *
 * @example
 * ```ts
 * countTermMatches(new Set(taskTerms('serializer chain of the response')), 'SerializerChain.process'); // 2
 * ```
 */
export function countTermMatches(task: ReadonlySet<string>, symbolPath: string): number {
  return termCounter(task)(symbolPath);
}

/**
 * {@link countTermMatches} for one task and many symbol paths: the terms' cores are taken once,
 * and a word the paths share (their file's directories, the project's vocabulary) is read once.
 *
 * @example
 * ```ts
 * const matches = termCounter(new Set(taskTerms(task)));
 * const counts = candidates.map((c) => matches(symbolPath(c.qualifiedName, c.file)));
 * ```
 */
export function termCounter(task: ReadonlySet<string>): (symbolPath: string) => number {
  const termsIn = termMatcher(task);
  return (symbolPath) => {
    const matched = new Set<string>();
    for (const word of symbolPath.split(SYMBOL_WORDS)) if (word) for (const term of termsIn(word)) matched.add(term);
    return matched.size;
  };
}

const NONE: readonly string[] = [];

/**
 * The task's terms a word gives (those of its {@link taskTerms} that `task` holds), for reading
 * many words against one task: a word holding none of the terms' cores ({@link termCore}) gives
 * none of them and is settled by that test alone, without being split and stemmed; each
 * distinct word is read once per matcher.
 *
 * @example
 * ```ts
 * const termsIn = termMatcher(new Set(taskTerms('retry the dependency download')));
 * termsIn('MaxDependencyDepth'); // ['dependenci']
 * termsIn('render');             // [] (no core of the task's terms is in it)
 * ```
 */
export function termMatcher(task: ReadonlySet<string>): (word: string) => readonly string[] {
  const cores = [...new Set(Array.from(task, termCore))];
  const byWord = new Map<string, readonly string[]>();
  return (word) => {
    let hits = byWord.get(word);
    if (hits === undefined) {
      const lower = word.toLowerCase();
      hits = cores.some((core) => lower.includes(core)) ? termsOfWord(word).filter((term) => task.has(term)) : NONE;
      byWord.set(word, hits);
    }
    return hits;
  };
}
