import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // `fresh` is the light entry point (@knowing/indexer/fresh): what the two entries share goes
    // into chunks, so importing it loads neither web-tree-sitter nor the language modules.
    entry: ['src/index.ts', 'src/fresh.ts', 'src/language.ts'],
    format: ['esm'],
    splitting: true,
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
  },
  {
    // The parser worker is started from dist/worker.js in worker threads. It is a self-contained
    // bundle (only web-tree-sitter and the grammars stay external) so it loads no matter which
    // export conditions the host process runs with; it never hands @knowing/graph objects back.
    entry: { worker: 'src/worker.ts' },
    format: ['esm'],
    noExternal: ['@knowing/graph', '@knowing/keywords', 'porter2'],
    // Bundle @knowing/graph from its sources: its dist may not be built yet.
    esbuildOptions(options) {
      options.conditions = ['@knowing/source'];
    },
    splitting: false,
    dts: false,
    clean: false,
    sourcemap: true,
    target: 'node20',
  },
]);
