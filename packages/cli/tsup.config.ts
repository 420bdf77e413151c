import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  // Each command's module, imported on first use, becomes its own chunk. Without splitting,
  // esbuild would inline those modules and hoist their package imports (store, engine,
  // indexer…) to the top of bin.js, so that `--version` would load them all again.
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
  noExternal: [/^@knowing\/(graph|pack|wire|store-sqlite|keywords|equivalence|walk|rank|engine|history)(\/|$)/],
  // The bundled @knowing/pack reads its cl100k table beside itself: here, beside the bundle.
  onSuccess: async () => {
    const packEntry = createRequire(import.meta.url).resolve('@knowing/pack');
    copyFileSync(join(dirname(packEntry), 'cl100k.bin'), 'dist/cl100k.bin');
  },
});
