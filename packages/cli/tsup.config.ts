import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build, defineConfig } from 'tsup';
import type { Options } from 'tsup';
import { asciiBundle } from './src/bundle-ascii.js';
import { BUNDLE_HASH_PREFIX, BUNDLE_HEAD, BUNDLE_IMPORT, BUNDLE_TAIL } from './src/compile-cache.js';

// The packages a query loads, bundled into the CLI (see below).
const QUERY_PACKAGES = [/^@knowing\/(graph|pack|wire|store-sqlite|keywords|equivalence|walk|rank|engine|history)(\/|$)/];
// The indexer, bundled into dist/cli.cjs only: the ES build keeps importing its package.
const INDEXER = /^@knowing\/indexer(\/|$)/;
// graphology, its Louvain and what they require, bundled into dist/cli.cjs (see bundle-entry.ts).
const GRAPHOLOGY = /^(graphology|graphology-[a-z-]+|mnemonist|pandemonium|obliterator)(\/|$)/;

/** One CommonJS file in dist/, `<name>.cjs`, from one source file and what it imports. */
function buildCommonJs(name: string, source: string, options: Pick<Options, 'shims' | 'noExternal' | 'esbuildOptions'> = {}): Promise<void> {
  return build({
    config: false,
    entry: { [name]: source },
    format: ['cjs'],
    outDir: 'dist',
    outExtension: () => ({ js: '.cjs' }),
    target: 'node20',
    splitting: false,
    sourcemap: true,
    dts: false,
    clean: false,
    silent: true,
    ...options,
  });
}

/**
 * `knowing context` and `knowing index` run from one CommonJS file, dist/cli.cjs, which bin.cjs
 * compiles with a V8 code cache per command (compile-cache.ts): Node 20 keeps no compiled code
 * of ES modules between runs.
 * Its `import(` calls become the loader's importer (V8 drops import() from cached scripts) and
 * its last line names its hash, which keys the cache.
 */
async function buildCachedBundle(): Promise<void> {
  await buildCommonJs('cli', 'src/bundle-entry.ts', {
    shims: true,
    // better-sqlite3's and porter2's JavaScript too: CommonJS files a start would otherwise
    // resolve one by one (better-sqlite3 alone has fourteen) and compile without a cache.
    // The indexer too (`index`, and a `context` that refreshes): its ES modules took 60–90 ms
    // to load. Bundled, it finds its parser worker (copied beside the bundle), web-tree-sitter,
    // the grammars and `ignore` from here, which is why this package depends on them as well.
    // graphology, for the community detection of `index` (src/bundle-entry.ts), and
    // web-tree-sitter's JavaScript (the indexer finds its .wasm through the package).
    noExternal: [...QUERY_PACKAGES, INDEXER, GRAPHOLOGY, 'better-sqlite3', 'porter2', 'web-tree-sitter'],
    esbuildOptions(options) {
      options.alias = { bindings: './src/sqlite-addon.cjs' };
      // Without comments and indentation the bundle is 1.8 MB instead of 2.6: every cold command
      // reads it, checks it is ASCII and copies it into a string (names are kept, so stack
      // traces still say which function; the source map says where).
      options.minifyWhitespace = true;
    },
  });
  const file = 'dist/cli.cjs';
  // import( renamed at the same length, and only comment lines escaped: the source map stays exact.
  const body = asciiBundle(file, readFileSync(file, 'utf8').replace(/(?<![\w$.])import\(/g, `${BUNDLE_IMPORT}(`));
  const left = /(?<![\w$.])import\s*\(/.exec(body);
  if (left) {
    // A comment counts too ("an import (…)"): reword it.
    const line = body.slice(0, left.index).split('\n').length;
    throw new Error(`${file}:${line}: an import() was left that the code cache would break: ${body.split('\n')[line - 1]!.trim()}`);
  }
  // Wrapped as loadBundle runs it: the file is the script (see BUNDLE_HEAD). Only the first
  // line moves, by as much as the wrapper loadBundle used to add at run time.
  const wrapped = `${BUNDLE_HEAD}${body}${BUNDLE_TAIL}`;
  writeFileSync(file, `${wrapped}${BUNDLE_HASH_PREFIX}${createHash('sha256').update(wrapped).digest('hex').slice(0, 32)}\n`);
}

/**
 * The `knowing` command itself, dist/bin.cjs: CommonJS, so that a start pays for no ES module
 * loader before `context` or `index` runs from the bundle, with what it needs
 * before a command (arguments, the watcher's client, the code cache) inlined. Every other
 * command imports the ES build's dist/run.js. No shims: bin.ts uses __dirname, not import.meta.
 */
async function buildBin(): Promise<void> {
  await buildCommonJs('bin', 'src/bin.ts');
  const body = readFileSync('dist/bin.cjs', 'utf8');
  // A dynamic import turned into require() would load the ES entry as CommonJS and fail.
  if (/\brequire\(entry\)|require\(specifier\)/.test(body)) throw new Error('dist/bin.cjs: a dynamic import became a require()');
}

export default defineConfig({
  // run.ts is an entry of its own so that bin.cjs finds it by name: the package's index also
  // loads the config helpers, which pull in more than a command needs before it runs.
  entry: ['src/index.ts', 'src/run.ts'],
  format: ['esm'],
  // Each command's module, imported on first use, becomes its own chunk. Without splitting,
  // esbuild would inline those modules and hoist their package imports (store, engine,
  // indexer…) to the top of index.js, so that `--version` would load them all again.
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The packages a query loads are bundled in: a cold `knowing context` then reads about 27
  // files instead of about 60 (each package's entry, its chunks and its package.json), about
  // 30 ms of CPU of a command that takes 300–400 ms. Their third-party dependencies stay
  // external, so this package depends on them directly. Kept external: the indexer, whose
  // parser workers and grammars are found next to its own dist; the MCP server, which starts
  // its indexing worker from its dist; the PostgreSQL store (pg), which few commands load.
  noExternal: QUERY_PACKAGES,
  // The bundled @knowing/pack reads its cl100k table beside itself: here, beside the bundle.
  onSuccess: async () => {
    const packEntry = createRequire(import.meta.url).resolve('@knowing/pack');
    copyFileSync(join(dirname(packEntry), 'cl100k.bin'), 'dist/cl100k.bin');
    // The bundled indexer starts its parser workers from worker.js beside itself: here.
    const indexerDist = dirname(createRequire(import.meta.url).resolve('@knowing/indexer'));
    for (const file of ['worker.js', 'worker.js.map']) copyFileSync(join(indexerDist, file), join('dist', file));
    await buildCachedBundle();
    await buildBin();
  },
});
