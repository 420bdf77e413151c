import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * The last line of a CommonJS bundle the build writes for this loader: the hash of everything
 * before it (the code, wrapped in {@link BUNDLE_HEAD} and {@link BUNDLE_TAIL}). It names the
 * bundle's code cache, so that a rebuilt or upgraded bundle never meets the cache of another
 * (V8 itself only checks its own version, its flags and the source's length).
 */
export const BUNDLE_HASH_PREFIX = '//# knowing-bundle ';

/**
 * The name a bundle calls instead of `import()`: V8 drops the dynamic-import callback of a
 * script it restores from a code cache (Node 20), so the build rewrites each `import(` to this
 * name of the same length (source maps stay exact) and the loader passes the importer in.
 */
export const BUNDLE_IMPORT = '__kimp';

/**
 * How a bundle's code begins: the function Node's loader would wrap a CommonJS module in (with
 * {@link BUNDLE_IMPORT} besides), written into the file by the build, so that the file is the
 * script V8 compiles as it is. A wrapper added here, around the text read, would make V8 copy
 * the 1.8 MB source into one flat string again before compiling it.
 */
export const BUNDLE_HEAD = `(function (exports, require, module, __filename, __dirname, ${BUNDLE_IMPORT}) {`;

/** What closes {@link BUNDLE_HEAD}; the hash line ({@link BUNDLE_HASH_PREFIX}) follows it. */
export const BUNDLE_TAIL = '\n})\n';

/** Cache files older than this, of other bundles or Node versions, are removed when a cache is written. */
const STALE_CACHE_MS = 7 * 24 * 3600 * 1000;

export interface BundleOptions {
  /** The CommonJS bundle (its last line from the build: {@link BUNDLE_HASH_PREFIX} and its hash). */
  readonly file: string;
  /** Where code caches are kept (created when first written); undefined: compile without one. */
  readonly cacheDir: string | undefined;
  /**
   * What the run is for, a command's name: each keeps a cache of its own. A cache holds the
   * functions the run that wrote it compiled, and is never rewritten once it loads, so a cache
   * shared by `index` and `context` would serve only whichever ran first.
   */
  readonly purpose?: string;
  /** What the bundle's `import(specifier)` does; resolves as the bundle's own directory would. */
  readonly importer: (specifier: string) => Promise<unknown>;
  /**
   * The flags Node runs with. V8 refuses a code cache made under other flags, so each set of
   * flags keeps its own cache: a user who starts with and without `--max-old-space-size`
   * (in NODE_OPTIONS, say) would otherwise rewrite one cache on every start and never use it.
   * @default process.execArgv and NODE_OPTIONS
   */
  readonly runtimeFlags?: readonly string[];
}

export interface LoadedBundle<T> {
  readonly exports: T;
  /** Whether V8 took the compiled code from the cache instead of compiling the source. */
  readonly fromCache: boolean;
  /**
   * Writes the cache when there was none or V8 refused it. Called after the bundle ran, so
   * that the cache holds the functions the run compiled too (a cache taken before running
   * holds little more than the top level). Never throws: a cache that cannot be written only
   * means the next start compiles again.
   */
  saveCache(): void;
}

/**
 * Runs a CommonJS bundle the way Node's loader would, but through a V8 code cache: the first
 * start compiles it and leaves the compiled code in `cacheDir`; later starts skip most of the
 * parsing and compiling. Throws when the bundle is missing or not one the build wrote (the
 * caller then loads its ES modules instead); a missing, unreadable or refused cache only
 * costs the compile it would have saved.
 */
export function loadBundle<T>(options: BundleOptions): LoadedBundle<T> {
  // The build writes the bundle in ASCII alone (bundle-ascii.ts). Read as latin1, ASCII is the
  // same string as read as UTF-8, without decoding 2.6 MB: about 10 ms less of every start.
  const bytes = readFileSync(options.file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const hashAt = source.lastIndexOf(BUNDLE_HASH_PREFIX);
  const hash = hashAt < 0 ? '' : source.slice(hashAt + BUNDLE_HASH_PREFIX.length).trim();
  if (!/^[0-9a-f]{16,}$/.test(hash)) throw new Error(`${options.file} has no bundle hash: it was not written by this package's build`);
  if (!source.startsWith(BUNDLE_HEAD) || !source.endsWith(BUNDLE_TAIL, hashAt)) throw new Error(`${options.file} is not wrapped as this package's build wraps a bundle`);
  const flags = options.runtimeFlags ?? [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/).filter(Boolean)];
  const flagged = flags.length === 0 ? '' : `-flags-${fnv1a(flags.join('\0')).toString(16).padStart(8, '0')}`;
  const purpose = options.purpose === undefined ? '' : `-${options.purpose.replace(/[^a-z0-9]/gi, '_')}`;
  const cacheFile = options.cacheDir === undefined ? undefined : join(options.cacheDir, `${hash}${purpose}-${process.version}-${process.arch}${flagged}.v8cache`);
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new Script(source, {
    filename: options.file,
    ...(cachedData ? { cachedData } : {}),
  });
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true;
  const module = { exports: {} as T };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(options.file), module, options.file, dirname(options.file), options.importer);
  return {
    exports: module.exports,
    fromCache,
    saveCache: () => {
      if (cacheFile === undefined || fromCache) return;
      try {
        writeCache(cacheFile, script.createCachedData());
      } catch {
        // A read-only or full disk: the next start compiles again.
      }
    },
  };
}

/** 32-bit FNV-1a of a string's UTF-16 code units: a short, stable name, not a defence against anyone. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * mkdir -p, one level at a time: Node 20's recursive mkdir never returns where mkdir answers
 * ENOENT under a directory that exists (as /proc does), and a cache must never hang the command.
 */
function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw error;
  }
  makeDirectory(dirname(dir));
  mkdirSync(dir, { mode: 0o700 });
}

/** Written to a temporary file and renamed over: a concurrent start reads the old cache, the new one, or none, never half of one. */
function writeCache(file: string, data: Buffer): void {
  const dir = dirname(file);
  makeDirectory(dir);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Never written.
    }
    throw error;
  }
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.v8cache') || join(dir, name) === file) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > STALE_CACHE_MS) unlinkSync(join(dir, name));
    } catch {
      // Removed by another start meanwhile.
    }
  }
}
