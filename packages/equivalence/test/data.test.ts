import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_PLUGINS,
  FRAMEWORK_FILES,
  builtinClasses,
  createClassRegistry,
  defineEquivalenceClasses,
  normalizePhrase,
} from '../src/index.js';
import { CONCEPT_THESAURUS, KNOWN_LANGUAGES } from '../src/stage.js';
import { isGenericTarget } from '../src/generic.js';
import type { EquivalenceClass, EquivalencePlugin } from '../src/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const frameworksDir = join(root, 'src', 'classes', 'frameworks');

function languagesOf(cls: EquivalenceClass): readonly string[] {
  return cls.language === undefined ? [] : typeof cls.language === 'string' ? [cls.language] : cls.language;
}

function pluginsWithSource(source: EquivalencePlugin['source']): EquivalencePlugin[] {
  return BUILTIN_PLUGINS.filter((p) => p.source === source);
}

describe('built-in vocabulary', () => {
  it('passes plugin validation again (every class valid, as a user plugin would be checked)', () => {
    for (const plugin of BUILTIN_PLUGINS) {
      expect(() =>
        defineEquivalenceClasses({
          framework: plugin.framework,
          name: plugin.name,
          source: plugin.source,
          classes: plugin.classes.map(({ concept, phrases, targets, targetType, weight, language }) => ({
            concept,
            phrases,
            targets,
            targetType,
            weight,
            ...(language !== undefined ? { language } : {}),
          })),
        }),
      ).not.toThrow();
    }
  });

  it('uses each concept id once across all files, so all of it can be registered together', () => {
    const ids = builtinClasses().map((c) => c.concept);
    const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(duplicates).toEqual([]);
    expect(() => createClassRegistry(BUILTIN_PLUGINS)).not.toThrow();
  });

  it('has no target the generic filter would drop', () => {
    const dropped = builtinClasses().flatMap((c) => c.targets.filter((t) => isGenericTarget(t)).map((t) => `${c.concept}:${t}`));
    expect(dropped).toEqual([]);
  });

  it('has no phrase that only repeats another phrase of its class after normalisation', () => {
    for (const cls of builtinClasses()) {
      const keys = cls.phrases.map(normalizePhrase);
      expect(new Set(keys).size, cls.concept).toBe(keys.length);
    }
  });

  it('has about sixty universal concepts at weight 0.8 for every language', () => {
    const [universal] = pluginsWithSource('universal');
    expect(universal).toBeDefined();
    expect(universal!.classes.length).toBeGreaterThanOrEqual(55);
    for (const cls of universal!.classes) {
      expect(cls.weight).toBe(0.8);
      expect(cls.source).toBe('universal');
      expect(cls.language).toBeUndefined();
    }
  });

  it('has a language file for each of the eight languages, scoped to it, at weight 0.8', () => {
    const plugins = pluginsWithSource('language');
    const covered = new Set(plugins.flatMap((p) => p.classes.flatMap(languagesOf)));
    for (const language of ['go', 'python', 'typescript', 'javascript', 'rust', 'java', 'csharp', 'ruby']) {
      expect(covered.has(language), language).toBe(true);
    }
    for (const cls of plugins.flatMap((p) => p.classes)) {
      expect(cls.weight).toBe(0.8);
      expect(languagesOf(cls).length).toBeGreaterThan(0);
      expect(cls.framework).toBeUndefined();
    }
  });

  it('ships every requested framework file with 4–15 language-scoped classes at weight 0.9', () => {
    const expected = [
      'equiv_aspnetcore', 'equiv_cargo', 'equiv_django', 'equiv_fastapi', 'equiv_flask', 'equiv_kafka',
      'equiv_kubernetes', 'equiv_nestjs', 'equiv_nextjs', 'equiv_rails', 'equiv_react', 'equiv_spring',
      'equiv_static_site', 'equiv_terraform',
    ];
    expect([...FRAMEWORK_FILES]).toEqual(expected);
    const frameworks = pluginsWithSource('framework');
    expect(frameworks).toHaveLength(expected.length);
    for (const plugin of frameworks) {
      expect(plugin.classes.length, plugin.name).toBeGreaterThanOrEqual(4);
      expect(plugin.classes.length, plugin.name).toBeLessThanOrEqual(15);
      for (const cls of plugin.classes) {
        expect(cls.weight).toBe(0.9);
        expect(cls.source).toBe('framework');
        expect(cls.framework).toBe(plugin.framework);
        expect(languagesOf(cls).length, cls.concept).toBeGreaterThan(0);
        for (const l of languagesOf(cls)) expect(KNOWN_LANGUAGES).toContain(l);
      }
    }
  });

  it('keeps the generated framework index in step with the equiv_*.ts files', () => {
    const files = readdirSync(frameworksDir).filter((f) => /^equiv_.+\.ts$/.test(f)).map((f) => f.replace(/\.ts$/, '')).sort();
    expect([...FRAMEWORK_FILES]).toEqual(files);
    // The generator's own check: exits non-zero when regenerating would change the file.
    expect(() => execFileSync(process.execPath, [join(root, 'scripts', 'gen-frameworks-index.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('has a thesaurus of single-word clusters with unique heads', () => {
    expect(CONCEPT_THESAURUS.length).toBeGreaterThanOrEqual(80);
    const heads = CONCEPT_THESAURUS.map((c) => c.concept);
    expect(new Set(heads).size).toBe(heads.length);
    for (const cluster of CONCEPT_THESAURUS) {
      expect(cluster.terms[0]).toBe(cluster.concept);
      expect(cluster.terms.length).toBeGreaterThanOrEqual(3);
      for (const term of cluster.terms) expect(term).toMatch(/^[a-z0-9]+$/);
    }
  });
});
