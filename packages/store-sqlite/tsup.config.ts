import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // kysely's ESM build is hundreds of small modules, resolved on every first index (it creates
  // the schema); bundled into the one file that migrates, it loads at once.
  noExternal: ['kysely'],
});
