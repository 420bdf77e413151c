import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/data.ts', 'src/lexical.ts', 'src/frames.ts', 'src/pasted.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
