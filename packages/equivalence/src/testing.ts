/**
 * Conformance kit for framework vocabularies (`equiv_<framework>.ts` files and vocabulary
 * packages). It runs the checks `defineEquivalenceClasses` and the class registry run at load
 * time, one rule per test so a failure names the rule and the offending classes, and adds the
 * rules docs/plugins.md asks of a good vocabulary that no validator can enforce at load time:
 * every phrase is found by the matcher in a task that contains it, no phrase is made only of
 * English stop words, no two classes of a plugin share a phrase.
 */
import { describe, expect, it } from 'vitest';
import { ENGLISH_STOP_WORDS } from '@knowing/keywords/data';
import { BUILTIN_PLUGINS } from './classes/builtin.js';
import { DETERMINERS } from './data/words.js';
import { defineEquivalenceClasses } from './define.js';
import { isGenericTarget } from './generic.js';
import { KNOWN_LANGUAGES } from './language.js';
import { matchClasses } from './match.js';
import { createClassRegistry } from './registry.js';
import { normalizePhrase, phraseWords } from './text.js';
import type { EquivalenceClass, EquivalencePlugin, EquivalencePluginInput, PluginSource } from './types.js';

/** What {@link testVocabulary} checks: one plugin (as written or as defined), several, or bare classes. */
export type Vocabulary =
  | EquivalencePlugin
  | EquivalencePluginInput
  | readonly (EquivalencePlugin | EquivalencePluginInput)[]
  | readonly EquivalenceClass[];

/** Options of {@link testVocabulary}. */
export interface TestVocabularyOptions {
  /** Suite name. @default the plugin names, joined */
  readonly name?: string;
  /**
   * Plugins the vocabulary must register next to: no plugin name or concept id may collide with
   * theirs. Plugins of the vocabulary itself are left out of this list automatically.
   * @default BUILTIN_PLUGINS
   */
  readonly alongside?: readonly EquivalencePlugin[];
  /**
   * Exemptions from the advisory rules (stop-word-only phrases, phrases shared by two classes),
   * as `CONCEPT:phrase`. Say why next to the list.
   */
  readonly allow?: readonly string[];
  /**
   * Names of tests to skip (as printed by vitest, without the suite prefix), for a vocabulary
   * that knowingly does not meet one rule yet. Say why next to the list.
   */
  readonly skip?: readonly string[];
}

/** The concept id pattern of the validator (validate.ts). */
const CONCEPT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
/** Plugin names and frameworks: visible characters, no surrounding or inner whitespace. */
const NAME_PATTERN = /^[^\s\p{Cc}]+$/u;
const PLUGIN_SOURCES: ReadonlySet<string> = new Set<PluginSource>(['universal', 'language', 'framework', 'plugin']);
const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;
const ENGLISH: ReadonlySet<string> = new Set(ENGLISH_STOP_WORDS.map((w) => w.toLowerCase()));
const DETERMINER_SET: ReadonlySet<string> = new Set(DETERMINERS);

/** One plugin of the vocabulary: as written (to validate) and its label. */
interface Unit {
  readonly label: string;
  readonly input: EquivalencePluginInput;
  /** The object the caller passed, when it is an already defined plugin. */
  readonly defined?: EquivalencePlugin;
}

function isClass(value: unknown): value is EquivalenceClass {
  return typeof value === 'object' && value !== null && 'concept' in value;
}

/** A defined plugin has classes carrying their source (filled in by the validator). */
function isDefinedPlugin(value: EquivalencePlugin | EquivalencePluginInput): value is EquivalencePlugin {
  return Array.isArray(value.classes) && value.classes.length > 0 && value.classes.every((c) => typeof (c as { source?: unknown }).source === 'string');
}

/** A class as a plugin file would write it, from a defined class. */
function classInput(cls: EquivalenceClass): EquivalencePluginInput['classes'][number] & { targetIds?: readonly string[] } {
  return {
    concept: cls.concept,
    phrases: cls.phrases,
    targets: cls.targets,
    targetType: cls.targetType,
    weight: cls.weight,
    ...(cls.language !== undefined ? { language: cls.language } : {}),
    ...(cls.targetIds !== undefined ? { targetIds: cls.targetIds } : {}),
  };
}

function pluginInput(plugin: EquivalencePlugin): EquivalencePluginInput {
  return {
    framework: plugin.framework,
    name: plugin.name,
    source: plugin.source,
    ...(plugin.language !== undefined ? { language: plugin.language } : {}),
    classes: plugin.classes.map(classInput),
  };
}

function unitsOf(vocabulary: Vocabulary): Unit[] {
  const list: readonly unknown[] = Array.isArray(vocabulary) ? vocabulary : [vocabulary];
  return list.map((item, i) => {
    if (isClass(item)) {
      const source = PLUGIN_SOURCES.has(item.source) ? (item.source as PluginSource) : 'plugin';
      return { label: `class ${item.concept}`, input: { framework: item.framework ?? 'classes', name: `class:${item.concept}`, source, classes: [classInput(item)] } };
    }
    const plugin = item as EquivalencePlugin | EquivalencePluginInput;
    const name = typeof plugin?.name === 'string' ? plugin.name : typeof plugin?.framework === 'string' ? plugin.framework : `#${i + 1}`;
    if (plugin && isDefinedPlugin(plugin)) return { label: `plugin "${name}"`, input: pluginInput(plugin), defined: plugin };
    return { label: `plugin "${name}"`, input: plugin };
  });
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
}

/** A class as the validator would fill it in, read from input it refuses, for the other rules. */
function lenientClass(plugin: EquivalencePluginInput, raw: Record<string, unknown>, index: number): EquivalenceClass {
  const source = typeof raw['source'] === 'string' && PLUGIN_SOURCES.has(raw['source']) ? (raw['source'] as PluginSource) : (plugin.source ?? 'plugin');
  const language = (raw['language'] ?? plugin.language) as EquivalenceClass['language'];
  return {
    concept: typeof raw['concept'] === 'string' && raw['concept'] !== '' ? raw['concept'] : `#${index + 1}`,
    phrases: strings(raw['phrases']),
    targets: strings(raw['targets']),
    targetType: (raw['targetType'] ?? 'any') as EquivalenceClass['targetType'],
    weight: (raw['weight'] ?? (source === 'framework' || source === 'plugin' ? 0.9 : 0.8)) as number,
    source,
    ...(language !== undefined ? { language } : {}),
  };
}

function problemOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What every group of cases shares: the vocabulary read as units, and the views of its classes. */
interface VocabularySuite {
  readonly vocabulary: Vocabulary;
  readonly options: TestVocabularyOptions;
  readonly units: readonly Unit[];
  readonly allow: ReadonlySet<string>;
  /** Registers a case, or skips it when the options name it. */
  readonly test: (title: string, fn: () => void) => void;
  /** The unit defined (validated, defaults filled in); throws the validator's error. */
  readonly define: (unit: Unit) => EquivalencePlugin;
  /**
   * Every class with the label of its plugin: as defined, or, for a plugin the validator
   * refuses, read leniently from what was written, so every rule still reports on it.
   */
  readonly classes: () => { unit: Unit; cls: EquivalenceClass }[];
  /** Every class as written, before validation. */
  readonly rawClasses: () => { unit: Unit; cls: Record<string, unknown>; index: number }[];
  /** Where a class as written sits, for messages: its plugin and its concept (or position). */
  readonly where: (unit: Unit, concept: unknown, index: number) => string;
}

function vocabularySuite(vocabulary: Vocabulary, options: TestVocabularyOptions): VocabularySuite {
  const units = unitsOf(vocabulary);
  const skip = new Set(options.skip ?? []);
  const test = (title: string, fn: () => void): void => {
    if (skip.has(title)) it.skip(title, fn);
    else it(title, fn);
  };
  const definedCache = new Map<Unit, EquivalencePlugin>();
  const define = (unit: Unit): EquivalencePlugin => {
    let plugin = definedCache.get(unit);
    if (!plugin) definedCache.set(unit, (plugin = defineEquivalenceClasses({ ...unit.input })));
    return plugin;
  };
  const rawClasses = (): { unit: Unit; cls: Record<string, unknown>; index: number }[] =>
    units.flatMap((unit) => (Array.isArray(unit.input.classes) ? unit.input.classes : []).map((cls, index) => ({ unit, cls: cls as unknown as Record<string, unknown>, index })));
  const classes = (): { unit: Unit; cls: EquivalenceClass }[] =>
    units.flatMap((unit) => {
      try {
        return define(unit).classes.map((cls) => ({ unit, cls }));
      } catch {
        return rawClasses()
          .filter((raw) => raw.unit === unit)
          .map(({ cls, index }) => ({ unit, cls: lenientClass(unit.input, cls, index) }));
      }
    });
  const where = (unit: Unit, concept: unknown, index: number): string =>
    `${unit.label}, ${typeof concept === 'string' && concept !== '' ? concept : `class #${index + 1}`}`;
  return { vocabulary, options, units, allow: new Set(options.allow ?? []), test, define, classes, rawClasses, where };
}

/** The rules on plugins and classes as written: what the validator and the class registry refuse. */
function registerPluginCases(suite: VocabularySuite): void {
  const { vocabulary, options, units, test, define, rawClasses, where } = suite;
  test('passes the checks defineEquivalenceClasses runs', () => {
    const problems: string[] = [];
    for (const unit of units) {
      try {
        define(unit);
      } catch (error) {
        problems.push(problemOf(error));
      }
    }
    expect(problems).toEqual([]);
  });

  test('is what defineEquivalenceClasses returns: frozen, defaults filled in', () => {
    for (const unit of units) {
      if (!unit.defined) continue;
      expect(Object.isFrozen(unit.defined), `${unit.label} is not frozen: export defineEquivalenceClasses(...)`).toBe(true);
      expect(unit.defined.classes.every((c) => Object.isFrozen(c)), `${unit.label} has classes that are not frozen`).toBe(true);
      expect(define(unit), unit.label).toEqual(unit.defined);
    }
  });

  test('has well-formed plugin names and concept ids', () => {
    const bad: string[] = [];
    for (const unit of units) {
      for (const field of ['framework', 'name'] as const) {
        const value = unit.input[field];
        if (value !== undefined && (typeof value !== 'string' || !NAME_PATTERN.test(value))) bad.push(`${unit.label}: ${field} ${JSON.stringify(value)}`);
      }
      if (unit.input.source !== undefined && !PLUGIN_SOURCES.has(unit.input.source)) bad.push(`${unit.label}: source ${JSON.stringify(unit.input.source)}`);
    }
    for (const { unit, cls, index } of rawClasses()) {
      if (typeof cls['concept'] !== 'string' || !CONCEPT_PATTERN.test(cls['concept'])) bad.push(`${where(unit, cls['concept'], index)}: concept ${JSON.stringify(cls['concept'])}`);
    }
    expect(bad, 'names: no whitespace; concept ids: letters, digits, _ . : -').toEqual([]);
  });

  test('uses each concept id once', () => {
    const owners = new Map<string, string>();
    const twice: string[] = [];
    for (const { unit, cls } of rawClasses()) {
      const concept = cls['concept'];
      if (typeof concept !== 'string') continue;
      const owner = owners.get(concept);
      if (owner !== undefined) twice.push(`${concept} (${owner} and ${unit.label})`);
      else owners.set(concept, unit.label);
    }
    expect(twice).toEqual([]);
  });

  test('registers next to the built-in vocabulary', () => {
    // Built-in plugins under test (passed whole, or as their classes) are not "alongside".
    const own = new Set<unknown>((Array.isArray(vocabulary) ? vocabulary : [vocabulary]) as readonly unknown[]);
    for (const unit of units) for (const cls of unit.defined?.classes ?? []) own.add(cls);
    const alongside = (options.alongside ?? BUILTIN_PLUGINS).filter((p) => !own.has(p) && !p.classes.some((c) => own.has(c)));
    const registry = createClassRegistry(alongside);
    const problems: string[] = [];
    for (const unit of units) {
      try {
        registry.register(define(unit));
      } catch (error) {
        problems.push(problemOf(error));
      }
    }
    expect(problems, 'a plugin name or concept id is already taken: prefix concept ids with the framework (GIN_…)').toEqual([]);
  });

  test('has at least one class per plugin, each with phrases and targets', () => {
    const empty: string[] = [];
    for (const unit of units) if (!Array.isArray(unit.input.classes) || unit.input.classes.length === 0) empty.push(`${unit.label}: no classes`);
    for (const { unit, cls, index } of rawClasses()) {
      for (const field of ['phrases', 'targets'] as const) {
        const list = cls[field];
        if (!Array.isArray(list) || list.length === 0) empty.push(`${where(unit, cls['concept'], index)}: no ${field}`);
        else if (list.some((item) => typeof item !== 'string' || item.trim() === '')) empty.push(`${where(unit, cls['concept'], index)}: an empty ${field.slice(0, -1)}`);
      }
    }
    expect(empty).toEqual([]);
  });
}

/** The rules on phrases: read by the matcher as written, found in tasks, specific, not shared. */
function registerPhraseCases(suite: VocabularySuite): void {
  const { units, allow, test, classes } = suite;
  test('writes phrases the matcher reads as written: matchable words, no determiners, no repeats', () => {
    const bad: string[] = [];
    for (const { unit, cls } of classes()) {
      const keys = new Map<string, string>();
      for (const phrase of cls.phrases) {
        const at = `${unit.label}, ${cls.concept}: ${JSON.stringify(phrase)}`;
        const determiners = phrase.toLowerCase().split(NON_WORD).filter((w) => DETERMINER_SET.has(w));
        if (determiners.length > 0) bad.push(`${at} contains ${determiners.join(', ')}, which matching ignores`);
        const key = normalizePhrase(phrase);
        if (phraseWords(phrase).length === 0) bad.push(`${at} has no matchable word`);
        else if (keys.has(key)) bad.push(`${at} matches the same text as ${JSON.stringify(keys.get(key))}`);
        else keys.set(key, phrase);
      }
    }
    expect(bad).toEqual([]);
  });

  test('finds each phrase in a task that contains it', () => {
    const missed: string[] = [];
    for (const { unit, cls } of classes()) {
      for (const phrase of cls.phrases) {
        // With and without neighbouring words, and whatever the repository's language.
        const tasks = [phrase, `please ${phrase} now`, phrase.toUpperCase()];
        for (const task of tasks) {
          const match = matchClasses(task, [cls], { language: null });
          if (match[0]?.phrases.includes(phrase) !== true) {
            missed.push(`${unit.label}, ${cls.concept}: ${JSON.stringify(phrase)} in ${JSON.stringify(task)}`);
            break;
          }
        }
      }
    }
    expect(missed).toEqual([]);
  });

  test('has no phrase made only of English stop words', () => {
    const vague: string[] = [];
    for (const { unit, cls } of classes()) {
      for (const phrase of cls.phrases) {
        const words = phrase.toLowerCase().split(NON_WORD).filter((w) => w !== '');
        if (words.length > 0 && words.every((w) => ENGLISH.has(w)) && !allow.has(`${cls.concept}:${phrase}`)) {
          vague.push(`${unit.label}, ${cls.concept}: ${JSON.stringify(phrase)}`);
        }
      }
    }
    expect(vague, 'such a phrase matches almost any task; make it specific (or allow it with a reason)').toEqual([]);
  });

  test('gives no two classes of a plugin the same phrase', () => {
    const shared: string[] = [];
    for (const unit of units) {
      const owners = new Map<string, string>();
      for (const { cls } of classes().filter((c) => c.unit === unit)) {
        for (const phrase of cls.phrases) {
          const key = normalizePhrase(phrase);
          const owner = owners.get(key);
          if (owner !== undefined && owner !== cls.concept && !allow.has(`${cls.concept}:${phrase}`)) {
            shared.push(`${unit.label}: ${JSON.stringify(phrase)} in ${owner} and ${cls.concept}`);
          } else owners.set(key, cls.concept);
        }
      }
    }
    expect(shared, 'a shared phrase always matches both classes: merge them or sharpen the phrase').toEqual([]);
  });
}

/** The rules on targets, weights, target types and languages. */
function registerTargetCases(suite: VocabularySuite): void {
  const { test, classes } = suite;
  test('names targets as symbols or dotted paths, none generic, none twice', () => {
    const TARGET = /^[\p{L}_$][\p{L}\p{N}_$]*[?!=]?(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*[?!=]?)*$/u;
    const bad: string[] = [];
    for (const { unit, cls } of classes()) {
      const seen = new Set<string>();
      for (const target of cls.targets) {
        const at = `${unit.label}, ${cls.concept}: ${JSON.stringify(target)}`;
        if (!TARGET.test(target)) bad.push(`${at} is not a symbol name or dotted path`);
        else if (isGenericTarget(target)) bad.push(`${at} is too generic to resolve; qualify it (Type.${target})`);
        if (seen.has(target)) bad.push(`${at} is listed twice`);
        seen.add(target);
      }
    }
    expect(bad).toEqual([]);
  });

  test('keeps weights in (0, 1], target types and languages known', () => {
    const bad: string[] = [];
    for (const { unit, cls } of classes()) {
      const at = `${unit.label}, ${cls.concept}`;
      if (!Number.isFinite(cls.weight) || cls.weight <= 0 || cls.weight > 1) bad.push(`${at}: weight ${cls.weight}`);
      if (!['any', 'type', 'callable'].includes(cls.targetType)) bad.push(`${at}: targetType ${String(cls.targetType)}`);
      const languages = cls.language === undefined ? [] : typeof cls.language === 'string' ? [cls.language] : cls.language;
      for (const language of languages) if (!KNOWN_LANGUAGES.includes(language)) bad.push(`${at}: language ${String(language)}`);
      if (cls.language !== undefined && languages.length === 0) bad.push(`${at}: an empty language list`);
    }
    expect(bad).toEqual([]);
  });
}

/**
 * Register the vitest tests a framework vocabulary must pass: everything
 * `defineEquivalenceClasses` checks (well-formed concept ids, non-empty phrase and target
 * lists, matchable phrases without determiners, no duplicate phrases or targets, no generic
 * target, weights in (0, 1], known languages and target types), unique concept ids across the
 * vocabulary and the built-in one, and the rules of docs/plugins.md that need a matcher to
 * check: each phrase is found in a task that contains it, no phrase is only English stop words,
 * no two classes of a plugin share a phrase. Call it at the top level of a test file.
 *
 * @example
 * ```ts
 * import { testVocabulary } from '@knowing/equivalence/testing';
 * import gin from '../src/equiv_gin.js';
 *
 * testVocabulary(gin);
 * ```
 */
export function testVocabulary(vocabulary: Vocabulary, options: TestVocabularyOptions = {}): void {
  const suite = vocabularySuite(vocabulary, options);
  const { units } = suite;
  const label = options.name ?? (units.length <= 3 ? units.map((u) => u.label).join(', ') : `${units.length} plugins`);
  describe(`Vocabulary conformance: ${label}`, () => {
    registerPluginCases(suite);
    registerPhraseCases(suite);
    registerTargetCases(suite);
  });
}
