import { foldWord, splitIdentifier } from '@knowing/keywords';
import { DETERMINERS } from './data/words.js';

const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;
const DEFAULT_IGNORED: ReadonlySet<string> = new Set(DETERMINERS);

function fold(words: readonly string[], ignored: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const raw of words) {
    const word = raw.toLowerCase();
    if (word === '' || ignored.has(word)) continue;
    out.push(foldWord(word));
  }
  return out;
}

/** The ignored-word set for an option value, reusing the default set when possible. */
export function ignoredSet(words: readonly string[] | undefined): ReadonlySet<string> {
  return words === undefined || words === DETERMINERS ? DEFAULT_IGNORED : new Set(words.map((w) => w.toLowerCase()));
}

/** Folded words of a phrase: lower-cased, split on anything but letters and digits. */
export function phraseWords(phrase: string, ignored: ReadonlySet<string> = DEFAULT_IGNORED): string[] {
  return fold(phrase.toLowerCase().split(NON_WORD), ignored);
}

/**
 * The word streams of a task: the text split on non-word characters, and, when different,
 * the text with identifiers also split at CamelCase boundaries (`RateLimiter` → rate
 * limiter). A phrase matches when it occurs in either stream, so `WebSocket` matches the
 * phrase "websocket" and `before_request` matches "before request".
 */
export function taskWordStreams(task: string, ignored: ReadonlySet<string> = DEFAULT_IGNORED): string[][] {
  const plain = fold(task.split(NON_WORD), ignored);
  const camel = fold(splitIdentifier(task), ignored);
  const same = plain.length === camel.length && plain.every((w, i) => w === camel[i]);
  return same ? [plain] : [plain, camel];
}

/**
 * The comparison key the matcher uses for a phrase: lower case, words split on anything but
 * letters and digits (so hyphens and underscores are spaces), determiners dropped, plurals
 * and verb inflections folded (a key, not prose: a final `e` goes and a final `y` becomes
 * `i`). Two phrases with the same key are the same phrase to the matcher.
 *
 * @example
 * ```ts
 * normalizePhrase('Rate-Limiting the requests') === normalizePhrase('rate limit request'); // true
 * normalizePhrase('custom validators'); // 'custom validator'
 * ```
 */
export function normalizePhrase(phrase: string): string {
  return phraseWords(phrase).join(' ');
}
