import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm'],
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
    noExternal: ['@knowing/graph'],
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
