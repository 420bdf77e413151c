import { defineConfig } from 'tsup';

export default defineConfig({
  // The index worker is started from dist/index-worker.js (src/index-thread.ts); what it shares
  // with the server's entry goes into chunks, so it loads neither the MCP SDK nor the engine.
  entry: ['src/index.ts', 'src/index-worker.ts'],
  format: ['esm'],
  splitting: true,
  dts: { entry: 'src/index.ts' },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
