import { writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { cl100kSource, encodeBpeTable } from './src/bpe.js';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // gpt-tokenizer's cl100k ranks as a table that loads in a millisecond, beside the entry: the
  // exact tokenizers read it there (and fall back to gpt-tokenizer's tables without it).
  onSuccess: async () => {
    writeFileSync('dist/cl100k.bin', encodeBpeTable(cl100kSource()));
  },
});
