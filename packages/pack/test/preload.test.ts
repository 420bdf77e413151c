import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { cl100kSource, encodeBpeTable } from '../src/bpe.js';

// The table is read beside the module that reads it: here, the sources.
const TABLE = fileURLToPath(new URL('../src/cl100k.bin', import.meta.url));
const texts = ['', 'hello world', 'naïve café — 東京 🚀', '\n\n\t  \n', readFileSync(fileURLToPath(new URL('../src/tokens.ts', import.meta.url)), 'utf8')];

function placeTable(bytes: Uint8Array | undefined): void {
  if (!bytes) return rmSync(TABLE, { force: true });
  writeFileSync(`${TABLE}.${process.pid}`, bytes);
  renameSync(`${TABLE}.${process.pid}`, TABLE);
}

/** The tokens module afresh: what it has read is per module instance. */
async function freshTokens(): Promise<typeof import('../src/tokens.js')> {
  vi.resetModules();
  return import('../src/tokens.js');
}

describe('preloadExactTokenizer', () => {
  afterEach(() => placeTable(undefined));

  it('reads the shipped table in the background; counts are exact before and after it is ready', { timeout: 60_000 }, async () => {
    placeTable(encodeBpeTable(cl100kSource()));
    const tokens = await freshTokens();
    const ready = tokens.preloadExactTokenizer();
    expect(tokens.preloadExactTokenizer()).toBe(ready); // one read at a time
    const tokenizer = tokens.startExactTokenizer();
    expect(await ready).toBe(true);
    for (const text of texts) expect(tokenizer.count(text)).toBe(countTokens(text));
    expect(await tokens.preloadExactTokenizer()).toBe(true);
    // A count asked for before the read ends reads the table itself.
    const early = await freshTokens();
    const pending = early.preloadExactTokenizer();
    expect(early.startExactTokenizer().count(texts[2]!)).toBe(countTokens(texts[2]!));
    expect(await pending).toBe(true);
  });

  it('says false for a missing or damaged table, and counts go to gpt-tokenizer', { timeout: 60_000 }, async () => {
    placeTable(undefined);
    const missing = await freshTokens();
    expect(await missing.preloadExactTokenizer()).toBe(false);
    const damaged = encodeBpeTable(cl100kSource()).slice(0, 4096);
    placeTable(damaged);
    const tokens = await freshTokens();
    expect(await tokens.preloadExactTokenizer()).toBe(false);
    const tokenizer = tokens.startExactTokenizer();
    for (const text of texts) expect(tokenizer.count(text)).toBe(countTokens(text));
    expect((await tokens.createExactTokenizer()).count(texts[4]!)).toBe(countTokens(texts[4]!));
  });
});
