import { defineConfig } from 'tsup';

export default defineConfig({
  // `model` is an entry of its own: reading a repository's model must not load the indexer.
  entry: ['src/index.ts', 'src/model.ts', 'src/mining.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
