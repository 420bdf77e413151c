import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // kysely's ESM build is hundreds of small modules: resolving them took ~95 ms of every first
  // index. Bundled (tree-shaken to the migrator and SQLite dialect) it loads in a few ms.
  noExternal: ['kysely'],
});
