import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import { BUILTIN_PLUGINS, createClassRegistry, defineEquivalenceClasses } from '../src/index.js';
import type { EquivalencePluginInput } from '../src/index.js';

const celery: EquivalencePluginInput = {
  framework: 'celery',
  language: 'python',
  classes: [
    { concept: 'CELERY_TASK', phrases: ['celery task', 'background job'], targets: ['shared_task', 'Task.apply_async'] },
    { concept: 'CELERY_BEAT', phrases: ['periodic task', 'celery beat'], targets: ['PersistentScheduler'], weight: 0.5, language: ['python', 'go'] },
  ],
};

/** Run `fn`, expect a PLUGIN_INVALID KnowingError, return its message. */
function pluginError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(isKnowingError(error, ErrorCode.PluginInvalid)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected PLUGIN_INVALID');
}

describe('defineEquivalenceClasses', () => {
  it('fills in defaults and freezes the plugin', () => {
    const plugin = defineEquivalenceClasses(celery);
    expect(plugin.name).toBe('celery');
    expect(plugin.source).toBe('plugin');
    const [task, beat] = plugin.classes;
    expect(task).toMatchObject({ targetType: 'any', weight: 0.9, source: 'plugin', language: 'python', framework: 'celery' });
    expect(beat).toMatchObject({ weight: 0.5, language: ['python', 'go'] });
    expect(Object.isFrozen(plugin)).toBe(true);
    expect(Object.isFrozen(plugin.classes)).toBe(true);
    expect(Object.isFrozen(task)).toBe(true);
  });

  it.each([
    ['an empty phrase list', { phrases: [] }, /CELERY_TASK: phrases must be a non-empty list/],
    ['an empty phrase', { phrases: ['celery task', '  '] }, /empty or non-string entry/],
    ['a phrase with no matchable word', { phrases: ['--'] }, /phrase "--" has no matchable word/],
    ['a phrase with a word matching ignores', { phrases: ['before each task'] }, /phrase "before each task" contains "each", which matching ignores/],
    ['duplicate phrases after normalisation', { phrases: ['celery task', 'Celery-Tasks'] }, /matches the same text as "celery task"/],
    ['an empty target list', { targets: [] }, /targets must be a non-empty list/],
    ['a target that is not a symbol name', { targets: ['impl Display'] }, /"impl Display" is not a symbol name/],
    ['a generic target', { targets: ['run'] }, /"run" is too generic/],
    ['a weight of zero', { weight: 0 }, /weight must be a number in \(0, 1\]/],
    ['a weight above one', { weight: 1.5 }, /weight must be a number in \(0, 1\]/],
    ['an unknown language', { language: 'cobol' }, /unknown language "cobol"/],
    ['an empty language list', { language: [] }, /language list is empty/],
    ['a bad target type', { targetType: 'module' }, /targetType must be/],
    ['a misspelt field', { phrase: ['x'] }, /unknown field "phrase"/],
    ['a bad concept id', { concept: 'has space' }, /concept must be a non-empty id/],
  ])('rejects %s, naming the plugin and the class', (_label, change, message) => {
    const [first, second] = celery.classes;
    const input = { ...celery, classes: [{ ...first!, ...change }, second!] } as unknown as EquivalencePluginInput;
    const text = pluginError(() => defineEquivalenceClasses(input));
    expect(text).toMatch(/^\[knowing:equivalence\] plugin "celery" is invalid/);
    expect(text).toMatch(message);
  });

  it('rejects duplicate concept ids, no classes, a missing framework and unknown plugin languages', () => {
    const [first] = celery.classes;
    expect(pluginError(() => defineEquivalenceClasses({ ...celery, classes: [first!, first!] }))).toMatch(/CELERY_TASK: concept id is used twice/);
    expect(pluginError(() => defineEquivalenceClasses({ ...celery, classes: [] }))).toMatch(/classes must be a non-empty list/);
    expect(pluginError(() => defineEquivalenceClasses({ ...celery, framework: '' }))).toMatch(/framework must be a non-empty string/);
    expect(pluginError(() => defineEquivalenceClasses({ ...celery, language: 'klingon' as never }))).toMatch(/plugin: unknown language "klingon"/);
  });

  it('reports several problems at once', () => {
    const input = { framework: 'bad', classes: [{ concept: 'A', phrases: [], targets: ['get'], weight: 2 }] } as unknown as EquivalencePluginInput;
    const text = pluginError(() => defineEquivalenceClasses(input));
    expect(text).toMatch(/phrases must be a non-empty list/);
    expect(text).toMatch(/"get" is too generic/);
    expect(text).toMatch(/weight must be/);
  });
});

describe('createClassRegistry', () => {
  it('registers, lists, flattens and unregisters plugins', () => {
    const registry = createClassRegistry();
    expect(registry.classes()).toEqual([]);
    const plugin = registry.register(celery);
    expect(registry.list().map((p) => p.name)).toEqual(['celery']);
    expect(registry.classes().map((c) => c.concept)).toEqual(['CELERY_TASK', 'CELERY_BEAT']);
    expect(plugin.classes[0]!.weight).toBe(0.9);
    expect(registry.unregister('celery')).toBe(true);
    expect(registry.unregister('celery')).toBe(false);
    expect(registry.classes()).toEqual([]);
  });

  it('starts from the initial plugins, e.g. the built-in ones', () => {
    const registry = createClassRegistry(BUILTIN_PLUGINS);
    expect(registry.list()).toHaveLength(BUILTIN_PLUGINS.length);
    expect(registry.classes().length).toBe(BUILTIN_PLUGINS.reduce((n, p) => n + p.classes.length, 0));
    expect(registry.unregister('react')).toBe(true);
    expect(registry.classes().some((c) => c.framework === 'react')).toBe(false);
  });

  it('rejects a second plugin with the same name, and a concept another plugin owns, naming both', () => {
    const registry = createClassRegistry([celery]);
    expect(pluginError(() => registry.register(celery))).toMatch(/plugin "celery": a plugin named "celery" is already registered/);
    const clash = { ...celery, framework: 'celery-extras', classes: [celery.classes[0]!] };
    expect(pluginError(() => registry.register(clash))).toMatch(/plugin "celery-extras": concept CELERY_TASK is already defined by plugin "celery"/);
    expect(registry.list().map((p) => p.name)).toEqual(['celery']);
    // after unregistering, the concept id is free again
    registry.unregister('celery');
    expect(() => registry.register(clash)).not.toThrow();
  });

  it('takes a plugin the helper already checked as it is, and checks a copy of it again', () => {
    const defined = defineEquivalenceClasses(celery);
    expect(createClassRegistry().register(defined)).toBe(defined);
    const copy = { ...defined, name: 'celery-copy', classes: defined.classes.map((cls) => ({ ...cls, concept: `${cls.concept}_COPY`, weight: 2 })) };
    expect(pluginError(() => createClassRegistry().register(copy))).toMatch(/plugin "celery-copy" is invalid: class CELERY_TASK_COPY: weight/);
  });

  it('validates what it is given at runtime, not only what went through the helper', () => {
    const registry = createClassRegistry();
    const broken = { framework: 'runtime', classes: [{ concept: 'X', phrases: ['x thing'], targets: ['XThing'], weight: -1 }] };
    expect(pluginError(() => registry.register(broken as EquivalencePluginInput))).toMatch(/plugin "runtime" is invalid: class X: weight/);
    expect(registry.list()).toEqual([]);
  });
});

describe('loadFromPackage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'knowing-equiv-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function write(file: string, text: string): string {
    const path = join(dir, file);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    return path;
  }

  const pluginSource = (framework: string, concept: string) => `{
    framework: '${framework}',
    language: 'ruby',
    classes: [{ concept: '${concept}', phrases: ['sidekiq worker', 'job retries'], targets: ['Sidekiq.Worker', 'perform_async'] }],
  }`;

  it('registers a default-exported plugin from a file path', async () => {
    const path = write('default-plugin.mjs', `export default ${pluginSource('sidekiq', 'SIDEKIQ_WORKER')};\n`);
    const registry = createClassRegistry();
    const loaded = await registry.loadFromPackage(path);
    expect(loaded.map((p) => p.name)).toEqual(['sidekiq']);
    expect(registry.classes()[0]).toMatchObject({ concept: 'SIDEKIQ_WORKER', weight: 0.9, source: 'plugin', language: 'ruby' });
  });

  it('accepts a `classes` export holding an array of plugins, and file URLs', async () => {
    const path = write('named.mjs', `export const classes = [${pluginSource('a', 'A_ONE')}, ${pluginSource('b', 'B_ONE')}];\n`);
    const registry = createClassRegistry();
    await registry.loadFromPackage(pathToFileURL(path).href);
    expect(registry.list().map((p) => p.name)).toEqual(['a', 'b']);
  });

  it('resolves a bare package name from a directory through its exports map', async () => {
    write('project/node_modules/knowing-vocab-demo/package.json', JSON.stringify({
      name: 'knowing-vocab-demo',
      type: 'module',
      exports: { '.': { types: './index.d.ts', import: './dist/index.js' } },
    }));
    write('project/node_modules/knowing-vocab-demo/dist/index.js', `export default ${pluginSource('demo', 'DEMO_ONE')};\n`);
    const registry = createClassRegistry();
    await registry.loadFromPackage('knowing-vocab-demo', { from: join(dir, 'project') });
    expect(registry.classes().map((c) => c.concept)).toEqual(['DEMO_ONE']);
  });

  it('names the package when the module is invalid and leaves the registry unchanged', async () => {
    const path = write('invalid.mjs', `export default [${pluginSource('good', 'GOOD_ONE')}, { framework: 'bad', classes: [{ concept: 'B', phrases: ['b thing'], targets: ['BThing'], weight: 7 }] }];\n`);
    const registry = createClassRegistry();
    const error = await registry.loadFromPackage(path).catch((e: unknown) => e);
    expect(isKnowingError(error, ErrorCode.PluginInvalid)).toBe(true);
    expect((error as Error).message).toContain(`plugin #2 from package "${path}" is invalid`);
    expect(registry.list()).toEqual([]);
  });

  it('names the package when it has no usable export, or when it clashes with a registered plugin', async () => {
    const empty = write('empty.mjs', 'export const somethingElse = 1;\n');
    const registry = createClassRegistry();
    await expect(registry.loadFromPackage(empty)).rejects.toThrow(`package "${empty}" has neither a default export nor a \`classes\` export`);
    const first = write('first.mjs', `export default ${pluginSource('dup', 'DUP_ONE')};\n`);
    await registry.loadFromPackage(first);
    await expect(registry.loadFromPackage(first)).rejects.toThrow(`plugin "dup" from package "${first}": a plugin named "dup" is already registered`);
  });

  it('reports a package that cannot be imported with NOT_FOUND and its name', async () => {
    const registry = createClassRegistry();
    const error = await registry.loadFromPackage('knowing-vocab-that-does-not-exist', { from: dir }).catch((e: unknown) => e);
    expect(isKnowingError(error, ErrorCode.NotFound)).toBe(true);
    expect((error as Error).message).toContain('"knowing-vocab-that-does-not-exist"');
  });
});
