import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_HASH_PREFIX, BUNDLE_HEAD, BUNDLE_IMPORT, BUNDLE_TAIL, loadBundle } from '../src/compile-cache.js';

const scratch = mkdtempSync(join(tmpdir(), 'knowing-compile-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Exports {
  answer(): number;
  basename(path: string): Promise<string>;
}

/**
 * A bundle as the build writes it: CommonJS in the module wrapper, import() renamed, its hash
 * on the last line. Each
 * load of the same bundle gets a copy under another name: V8 reuses a script this process
 * compiled from the same file without looking at the cache, as no CLI process ever does.
 */
function writeBundle(name: string, answer: number, hash: string): string {
  const file = join(scratch, `${name}-${copies++}.cjs`);
  const body = [
    '"use strict";',
    `exports.answer = function answer() { return ${answer}; };`,
    `exports.basename = async function basename(path) { return (await ${BUNDLE_IMPORT}('node:path')).basename(path); };`,
  ].join('\n');
  writeFileSync(file, `${BUNDLE_HEAD}${body}${BUNDLE_TAIL}${BUNDLE_HASH_PREFIX}${hash}\n`);
  return file;
}

let copies = 0;

const importer = (specifier: string): Promise<unknown> => import(specifier);
// Tests name the flags (none, unless a test is about them): vitest's own would name every cache.
const caches = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.v8cache'));

describe('loadBundle', () => {
  it('compiles a bundle once: the next start takes its code from the cache the first one left', async () => {
    const cacheDir = join(scratch, 'once');
    const file = writeBundle('once', 42, 'a'.repeat(32));
    const first = loadBundle<Exports>({ runtimeFlags: [], file, cacheDir, importer });
    expect(first.fromCache).toBe(false);
    expect(first.exports.answer()).toBe(42);
    expect(await first.exports.basename('/x/y.ts')).toBe('y.ts');
    first.saveCache();
    expect(caches(cacheDir)).toEqual([`${'a'.repeat(32)}-${process.version}-${process.arch}.v8cache`]);

    const second = loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('once', 42, 'a'.repeat(32)), cacheDir, importer });
    expect(second.fromCache).toBe(true);
    expect(second.exports.answer()).toBe(42);
    // import() inside code restored from a cache: through the importer.
    expect(await second.exports.basename('/x/z.ts')).toBe('z.ts');
  });

  it('reads a bundle as UTF-8: one in ASCII alone, as the build writes it, and one with other characters', () => {
    const bundleSaying = (literal: string): string => {
      const file = join(scratch, `text-${copies++}.cjs`);
      writeFileSync(file, `${BUNDLE_HEAD}"use strict";\nexports.text = function text() { return '${literal}'; };${BUNDLE_TAIL}${BUNDLE_HASH_PREFIX}${'d'.repeat(32)}\n`, 'utf8');
      return file;
    };
    const expected = 'caf\u00e9 \u2014 \u{1F600}';
    // Escaped, as esbuild writes strings: the file is ASCII.
    const escaped = loadBundle<{ text(): string }>({ runtimeFlags: [], file: bundleSaying('caf\\u00e9 \\u2014 \\u{1F600}'), cacheDir: undefined, importer });
    expect(escaped.exports.text()).toBe(expected);
    // Written out: two, three and four bytes of UTF-8.
    const written = loadBundle<{ text(): string }>({ runtimeFlags: [], file: bundleSaying(expected), cacheDir: undefined, importer });
    expect(written.exports.text()).toBe(expected);
  });

  it('keys the cache by the bundle hash, so that a rebuilt bundle never runs an old cache', () => {
    const cacheDir = join(scratch, 'rebuilt');
    const old = loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('rebuilt', 1, 'b'.repeat(32)), cacheDir, importer });
    old.saveCache();
    const rebuilt = loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('rebuilt', 2, 'c'.repeat(32)), cacheDir, importer });
    expect(rebuilt.fromCache).toBe(false);
    expect(rebuilt.exports.answer()).toBe(2);
    rebuilt.saveCache();
    expect(caches(cacheDir).sort()).toEqual([`${'b'.repeat(32)}-${process.version}-${process.arch}.v8cache`, `${'c'.repeat(32)}-${process.version}-${process.arch}.v8cache`]);
  });

  it('keeps one cache per set of Node flags, since V8 refuses a cache made under other flags', () => {
    const cacheDir = join(scratch, 'flags');
    const hash = 'e'.repeat(32);
    const plain = `${hash}-${process.version}-${process.arch}.v8cache`;
    loadBundle<Exports>({ file: writeBundle('flags', 3, hash), cacheDir, importer, runtimeFlags: [] }).saveCache();
    const flagged = loadBundle<Exports>({ file: writeBundle('flags', 3, hash), cacheDir, importer, runtimeFlags: ['--max-old-space-size=4096'] });
    expect(flagged.fromCache).toBe(false);
    flagged.saveCache();
    const names = caches(cacheDir).sort();
    expect(names).toHaveLength(2);
    expect(names).toContain(plain);
    expect(names.find((name) => name !== plain)).toMatch(new RegExp(`^${hash}-${process.version}-${process.arch}-flags-[0-9a-f]{8}\\.v8cache$`));
    // Each set of flags finds its own cache again.
    expect(loadBundle<Exports>({ file: writeBundle('flags', 3, hash), cacheDir, importer, runtimeFlags: [] }).fromCache).toBe(true);
    expect(loadBundle<Exports>({ file: writeBundle('flags', 3, hash), cacheDir, importer, runtimeFlags: ['--max-old-space-size=4096'] }).fromCache).toBe(true);
    expect(loadBundle<Exports>({ file: writeBundle('flags', 3, hash), cacheDir, importer, runtimeFlags: ['--max-old-space-size=2048'] }).fromCache).toBe(false);
  });

  it('keeps one cache per purpose: the first run of one command leaves the other its own to write', () => {
    const cacheDir = join(scratch, 'purposes');
    const hash = '7'.repeat(32);
    const load = (purpose: string) => loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('purposes', 5, hash), cacheDir, importer, purpose });
    load('index').saveCache();
    expect(caches(cacheDir)).toEqual([`${hash}-index-${process.version}-${process.arch}.v8cache`]);
    const context = load('context');
    // The index's cache is not the context's: it still compiles, and writes its own.
    expect(context.fromCache).toBe(false);
    context.saveCache();
    expect(caches(cacheDir).sort()).toEqual([`${hash}-context-${process.version}-${process.arch}.v8cache`, `${hash}-index-${process.version}-${process.arch}.v8cache`]);
    expect(load('context').fromCache).toBe(true);
    expect(load('index').fromCache).toBe(true);
    // A purpose is a file name part, never a path.
    load('../up').saveCache();
    expect(caches(cacheDir)).toContain(`${hash}-___up-${process.version}-${process.arch}.v8cache`);
  });

  it('runs from source when the cache is garbage, and replaces it', () => {
    const cacheDir = join(scratch, 'garbage');
    const file = writeBundle('garbage', 7, 'd'.repeat(32));
    loadBundle<Exports>({ runtimeFlags: [], file, cacheDir, importer }).saveCache();
    writeFileSync(join(cacheDir, caches(cacheDir)[0]!), 'not a code cache');
    const refused = loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('garbage', 7, 'd'.repeat(32)), cacheDir, importer });
    expect(refused.fromCache).toBe(false);
    expect(refused.exports.answer()).toBe(7);
    refused.saveCache();
    expect(loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('garbage', 7, 'd'.repeat(32)), cacheDir, importer }).fromCache).toBe(true);
  });

  it('runs without a cache when its directory cannot be made or written', () => {
    const blocker = join(scratch, 'a-file');
    writeFileSync(blocker, '');
    const loaded = loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('blocked', 9, 'e'.repeat(32)), cacheDir: join(blocker, 'cache'), importer });
    expect(loaded.exports.answer()).toBe(9);
    expect(() => loaded.saveCache()).not.toThrow();
    const none = loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('none', 10, 'f'.repeat(32)), cacheDir: undefined, importer });
    expect(none.fromCache).toBe(false);
    expect(() => none.saveCache()).not.toThrow();
  });

  it.runIf(process.platform === 'linux')('gives up on a cache directory where mkdir answers ENOENT under one that exists (/proc), instead of hanging', () => {
    const loaded = loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('proc', 11, '9'.repeat(32)), cacheDir: '/proc/knowing-none/cache', importer });
    expect(loaded.exports.answer()).toBe(11);
    expect(() => loaded.saveCache()).not.toThrow();
  });

  it('removes week-old caches of other bundles when it writes one, and keeps recent ones', () => {
    const cacheDir = join(scratch, 'stale');
    loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('stale-old', 1, '1'.repeat(32)), cacheDir, importer }).saveCache();
    loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('stale-recent', 2, '2'.repeat(32)), cacheDir, importer }).saveCache();
    const [old] = caches(cacheDir).filter((name) => name.startsWith('1'));
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(join(cacheDir, old!), weekAgo, weekAgo);
    loadBundle<Exports>({ runtimeFlags: [], file: writeBundle('stale-new', 3, '3'.repeat(32)), cacheDir, importer }).saveCache();
    expect(caches(cacheDir).map((name) => name[0]).sort()).toEqual(['2', '3']);
  });

  it('refuses a file the build did not write, so that the caller loads its ES modules instead', () => {
    const file = join(scratch, 'plain.cjs');
    writeFileSync(file, 'exports.answer = () => 1;\n');
    expect(() => loadBundle<Exports>({ runtimeFlags: [], file, cacheDir: join(scratch, 'plain'), importer })).toThrow(/no bundle hash/);
    // Hashed but not wrapped (as builds before the wrapper wrote it), or wrapped but not closed.
    const unwrapped = join(scratch, 'unwrapped.cjs');
    writeFileSync(unwrapped, `exports.answer = () => 1;\n${BUNDLE_HASH_PREFIX}${'8'.repeat(32)}\n`);
    expect(() => loadBundle<Exports>({ runtimeFlags: [], file: unwrapped, cacheDir: undefined, importer })).toThrow(/not wrapped/);
    writeFileSync(unwrapped, `${BUNDLE_HEAD}exports.answer = () => 1;\n${BUNDLE_HASH_PREFIX}${'8'.repeat(32)}\n`);
    expect(() => loadBundle<Exports>({ runtimeFlags: [], file: unwrapped, cacheDir: undefined, importer })).toThrow(/not wrapped/);
    expect(() => loadBundle<Exports>({ runtimeFlags: [], file: join(scratch, 'missing.cjs'), cacheDir: undefined, importer })).toThrow();
  });
});
