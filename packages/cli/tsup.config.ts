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
});
