import type { LanguageId } from '@knowing/graph';
import { DEFAULT_DETECT_LANGUAGE_OPTIONS, checkNumber, withDefaults } from './options.js';
import type { DetectLanguageOptions, EquivalenceClass } from './types.js';

/** Every language id, kept in step with `LanguageId` by the exhaustive record below. */
const LANGUAGE_RECORD: Readonly<Record<LanguageId, true>> = {
  go: true,
  python: true,
  typescript: true,
  tsx: true,
  javascript: true,
  rust: true,
  java: true,
  csharp: true,
  ruby: true,
};

/**
 * The language ids a class or plugin may name.
 *
 * @example
 * ```ts
 * KNOWN_LANGUAGES.includes('python'); // true
 * ```
 */
export const KNOWN_LANGUAGES: readonly LanguageId[] = Object.freeze(Object.keys(LANGUAGE_RECORD) as LanguageId[]);

const KNOWN = new Set<string>(KNOWN_LANGUAGES);

export function isLanguageId(value: unknown): value is LanguageId {
  return typeof value === 'string' && KNOWN.has(value);
}

/** `tsx` files are TypeScript for vocabulary purposes. */
function canonical(language: LanguageId): LanguageId {
  return language === 'tsx' ? 'typescript' : language;
}

/** The languages of a class as a list (empty = all). */
export function classLanguages(language: EquivalenceClass['language']): readonly LanguageId[] {
  if (language === undefined) return [];
  return typeof language === 'string' ? [language] : language;
}

/**
 * Whether a class applies to a repository of `repoLanguage`: classes without languages
 * always do, and so does every class when the repository's language is unknown.
 */
export function appliesToLanguage(cls: EquivalenceClass, repoLanguage: LanguageId | null | undefined): boolean {
  const languages = classLanguages(cls.language);
  if (languages.length === 0 || repoLanguage === null || repoLanguage === undefined) return true;
  const repo = canonical(repoLanguage);
  return languages.some((l) => canonical(l) === repo);
}

/**
 * The repository's language for class scoping: the language with the most nodes. `tsx`
 * counts as `typescript`; unknown keys (the empty language of external placeholders) are
 * ignored; ties go to the language listed first in {@link KNOWN_LANGUAGES}. Returns null for
 * no counts, or when the leader's share is below `minShare`. Pass the store's
 * `counts().nodesByLanguage` — no node scan needed.
 *
 * @example
 * ```ts
 * detectRepoLanguage({ python: 900, javascript: 120, '': 40 }); // 'python'
 * detectRepoLanguage({ typescript: 30, tsx: 50, javascript: 60 }); // 'typescript'
 * ```
 */
export function detectRepoLanguage(
  counts: Readonly<Record<string, number>>,
  options?: DetectLanguageOptions,
): LanguageId | null {
  const o = withDefaults(DEFAULT_DETECT_LANGUAGE_OPTIONS, options);
  checkNumber('minShare', o.minShare, 0, 1);
  const totals = new Map<LanguageId, number>();
  let all = 0;
  for (const [key, value] of Object.entries(counts)) {
    if (!isLanguageId(key) || !Number.isFinite(value) || value <= 0) continue;
    const language = canonical(key);
    totals.set(language, (totals.get(language) ?? 0) + value);
    all += value;
  }
  let best: LanguageId | null = null;
  let bestCount = 0;
  for (const language of KNOWN_LANGUAGES) {
    const count = totals.get(language) ?? 0;
    if (count > bestCount) {
      best = language;
      bestCount = count;
    }
  }
  if (best === null || bestCount / all < o.minShare) return null;
  return best;
}
