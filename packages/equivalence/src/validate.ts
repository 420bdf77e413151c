import { ErrorCode, KnowingError } from '@knowing/graph';
import type { LanguageId } from '@knowing/graph';
import { DETERMINERS } from './data/words.js';
import { isLanguageId } from './language.js';
import { SOURCE } from './options.js';
import { isGenericTarget } from './generic.js';
import { phraseWords } from './text.js';
import type { EquivalenceClass, EquivalencePlugin, EquivalencePluginInput, PluginSource, TargetType } from './types.js';

/** Concept ids: a letter or digit first, then letters, digits, `_`, `.`, `:`, `-`. */
const CONCEPT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
/**
 * Targets: identifiers joined by `.` or `::`. Identifier characters include `$`; a Ruby
 * method may end in `?`, `!` or `=`.
 */
const TARGET_PATTERN = /^[\p{L}_$][\p{L}\p{N}_$]*[?!=]?(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*[?!=]?)*$/u;
const TARGET_TYPES: ReadonlySet<string> = new Set<TargetType>(['any', 'type', 'callable']);
const PLUGIN_SOURCES: ReadonlySet<string> = new Set<PluginSource>(['universal', 'language', 'framework', 'plugin']);
const PLUGIN_KEYS: ReadonlySet<string> = new Set(['framework', 'name', 'language', 'source', 'classes']);
const CLASS_KEYS: ReadonlySet<string> = new Set([
  'concept',
  'phrases',
  'targets',
  'targetIds',
  'targetType',
  'weight',
  'language',
  'source',
  'framework',
]);
const MAX_PROBLEMS = 10;
const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;
const DETERMINER_SET: ReadonlySet<string> = new Set(DETERMINERS);

type Language = LanguageId | readonly LanguageId[] | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Collects problems and turns them into one PLUGIN_INVALID error naming the plugin. */
class Problems {
  readonly list: string[] = [];
  add(message: string): void {
    this.list.push(message);
  }
  throwIfAny(label: string): void {
    if (this.list.length === 0) return;
    const shown = this.list.slice(0, MAX_PROBLEMS);
    const more = this.list.length > MAX_PROBLEMS ? ` (and ${this.list.length - MAX_PROBLEMS} more)` : '';
    throw new KnowingError(ErrorCode.PluginInvalid, `${label} is invalid: ${shown.join('; ')}${more}`, {
      source: SOURCE,
      hint: 'fix the vocabulary file (see the @knowing/equivalence README, "Writing a framework vocabulary")',
    });
  }
}

function checkLanguage(value: unknown, where: string, problems: Problems): Language {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if (isLanguageId(value)) return value;
    problems.add(`${where}: unknown language ${show(value)}`);
    return undefined;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      problems.add(`${where}: language list is empty (omit it for every language)`);
      return undefined;
    }
    const bad = value.filter((l) => !isLanguageId(l));
    if (bad.length > 0) {
      problems.add(`${where}: unknown language ${bad.map(show).join(', ')}`);
      return undefined;
    }
    return Object.freeze([...new Set(value as LanguageId[])]);
  }
  problems.add(`${where}: language must be a language id or a list of them, got ${show(value)}`);
  return undefined;
}

function checkStrings(value: unknown, field: string, where: string, problems: Problems): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.add(`${where}: ${field} must be a non-empty list of strings`);
    return [];
  }
  const out: string[] = [];
  for (const item of value) {
    if (isNonEmptyString(item)) out.push(item.trim());
    else problems.add(`${where}: ${field} holds an empty or non-string entry ${show(item)}`);
  }
  return out;
}

function checkPhrases(phrases: readonly string[], where: string, problems: Problems): void {
  const seen = new Map<string, string>();
  for (const phrase of phrases) {
    const ignored = phrase.toLowerCase().split(NON_WORD).filter((w) => DETERMINER_SET.has(w));
    if (ignored.length > 0) {
      problems.add(`${where}: phrase ${show(phrase)} contains ${ignored.map(show).join(', ')}, which matching ignores; leave it out`);
      continue;
    }
    const key = phraseWords(phrase).join(' ');
    if (key === '') {
      problems.add(`${where}: phrase ${show(phrase)} has no matchable word`);
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) problems.add(`${where}: phrase ${show(phrase)} matches the same text as ${show(earlier)}`);
    else seen.set(key, phrase);
  }
}

function checkTargets(targets: readonly string[], where: string, problems: Problems): void {
  const seen = new Set<string>();
  for (const target of targets) {
    if (!TARGET_PATTERN.test(target)) {
      problems.add(`${where}: target ${show(target)} is not a symbol name or dotted path`);
    } else if (isGenericTarget(target)) {
      problems.add(`${where}: target ${show(target)} is too generic to resolve (qualify it, e.g. "Router.${target}")`);
    }
    if (seen.has(target)) problems.add(`${where}: target ${show(target)} is listed twice`);
    seen.add(target);
  }
}

function checkClass(
  raw: unknown,
  index: number,
  plugin: { framework: string; source: PluginSource; language: Language },
  concepts: Set<string>,
  problems: Problems,
  checkWords: boolean,
): EquivalenceClass | undefined {
  if (!isRecord(raw)) {
    problems.add(`class #${index + 1} is not an object`);
    return undefined;
  }
  const concept = raw['concept'];
  const where = isNonEmptyString(concept) ? `class ${concept}` : `class #${index + 1}`;
  if (!isNonEmptyString(concept) || !CONCEPT_PATTERN.test(concept)) {
    problems.add(`${where}: concept must be a non-empty id of letters, digits, _ . : -, got ${show(concept)}`);
  } else if (concepts.has(concept)) {
    problems.add(`${where}: concept id is used twice`);
  } else {
    concepts.add(concept);
  }
  for (const key of Object.keys(raw)) if (!CLASS_KEYS.has(key)) problems.add(`${where}: unknown field ${show(key)}`);

  const phrases = checkStrings(raw['phrases'], 'phrases', where, problems);
  if (checkWords) checkPhrases(phrases, where, problems);
  const targets = checkStrings(raw['targets'], 'targets', where, problems);
  if (checkWords) checkTargets(targets, where, problems);

  let targetIds: string[] | undefined;
  if (raw['targetIds'] !== undefined) targetIds = checkStrings(raw['targetIds'], 'targetIds', where, problems);

  const targetType = raw['targetType'] ?? 'any';
  if (typeof targetType !== 'string' || !TARGET_TYPES.has(targetType)) {
    problems.add(`${where}: targetType must be 'any', 'type' or 'callable', got ${show(targetType)}`);
  }
  const source = raw['source'] ?? plugin.source;
  if (typeof source !== 'string' || !PLUGIN_SOURCES.has(source)) {
    problems.add(`${where}: source must be one of ${[...PLUGIN_SOURCES].join(', ')}, got ${show(source)}`);
  }
  if (raw['framework'] !== undefined && raw['framework'] !== plugin.framework) {
    problems.add(`${where}: framework ${show(raw['framework'])} differs from the plugin's ${show(plugin.framework)}`);
  }
  const weight = raw['weight'] ?? (source === 'framework' || source === 'plugin' ? 0.9 : 0.8);
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0 || weight > 1) {
    problems.add(`${where}: weight must be a number in (0, 1], got ${show(weight)}`);
  }
  const language = raw['language'] === undefined ? plugin.language : checkLanguage(raw['language'], where, problems);

  if (problems.list.length > 0) return undefined;
  const cls: EquivalenceClass = {
    concept: concept as string,
    phrases: Object.freeze(phrases),
    targets: Object.freeze(targets),
    ...(targetIds !== undefined && targetIds.length > 0 ? { targetIds: Object.freeze(targetIds) } : {}),
    targetType: targetType as TargetType,
    weight: weight as number,
    source: source as PluginSource,
    ...(language !== undefined ? { language } : {}),
    ...(source === 'framework' || source === 'plugin' ? { framework: plugin.framework } : {}),
  };
  return Object.freeze(cls);
}

/**
 * Plugins this function returned. They are frozen through and through, so checking one again
 * (a vocabulary file's `defineEquivalenceClasses` result, registered by every engine a process
 * creates) would find what the first check found: about 30 ms of every CLI command otherwise.
 */
const validated = new WeakSet<object>();

/**
 * Validate a plugin as written (or as loaded from a package) and return it frozen with
 * defaults filled in. `label` names it in errors (`plugin "django"`).
 */
export function validatePlugin(raw: unknown, label?: string): EquivalencePlugin {
  return definePlugin(raw, label, true);
}

/**
 * A vocabulary shipped with this package, filled in and frozen exactly as {@link validatePlugin}
 * does, without the checks of its phrases and targets (their words, patterns and duplicates):
 * those checks cost about 10 ms of every cold command, which loads all the built-in vocabulary,
 * and find nothing in it. The tests run every check on every built-in plugin, as on a user's
 * (test/data.test.ts, test/conformance.test.ts).
 */
export function builtinPlugin(raw: EquivalencePluginInput, label?: string): EquivalencePlugin {
  return definePlugin(raw, label, false);
}

function definePlugin(raw: unknown, label: string | undefined, checkWords: boolean): EquivalencePlugin {
  if (typeof raw === 'object' && raw !== null && validated.has(raw)) return raw as EquivalencePlugin;
  const problems = new Problems();
  if (!isRecord(raw)) {
    problems.add(`expected an object with framework and classes, got ${show(raw)}`);
    problems.throwIfAny(label ?? 'equivalence plugin');
  }
  const input = raw as Record<string, unknown>;
  const framework = input['framework'];
  const name = input['name'] ?? framework;
  const title = label ?? (isNonEmptyString(name) ? `plugin ${show(name)}` : 'equivalence plugin');
  if (!isNonEmptyString(framework)) problems.add(`framework must be a non-empty string, got ${show(framework)}`);
  if (!isNonEmptyString(name)) problems.add(`name must be a non-empty string, got ${show(name)}`);
  for (const key of Object.keys(input)) if (!PLUGIN_KEYS.has(key)) problems.add(`unknown field ${show(key)}`);
  const source = input['source'] ?? 'plugin';
  if (typeof source !== 'string' || !PLUGIN_SOURCES.has(source)) {
    problems.add(`source must be one of ${[...PLUGIN_SOURCES].join(', ')}, got ${show(source)}`);
  }
  const language = checkLanguage(input['language'], 'plugin', problems);
  const classesRaw = input['classes'];
  if (!Array.isArray(classesRaw) || classesRaw.length === 0) problems.add('classes must be a non-empty list');
  problems.throwIfAny(title);

  const concepts = new Set<string>();
  const classes: EquivalenceClass[] = [];
  const context = { framework: (framework as string).trim(), source: source as PluginSource, language };
  (classesRaw as unknown[]).forEach((rawClass, i) => {
    const cls = checkClass(rawClass, i, context, concepts, problems, checkWords);
    if (cls) classes.push(cls);
  });
  problems.throwIfAny(title);

  const plugin: EquivalencePlugin = {
    name: (name as string).trim(),
    framework: context.framework,
    ...(language !== undefined ? { language } : {}),
    source: source as PluginSource,
    classes: Object.freeze(classes),
  };
  Object.freeze(plugin);
  validated.add(plugin);
  return plugin;
}
