import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cl100kSource, encodeBpeTable, readBpeTable } from '../src/bpe.js';

const require = createRequire(import.meta.url);
const reference = require('gpt-tokenizer/encoding/cl100k_base') as { countTokens(text: string): number };
const source = cl100kSource();
const counter = readBpeTable(encodeBpeTable(source));
const workspace = fileURLToPath(new URL('../../..', import.meta.url));

/** gpt-tokenizer's count, or 'refused' when it throws (a special token in the text). */
function expected(text: string): number | 'refused' {
  try {
    return reference.countTokens(text);
  } catch {
    return 'refused';
  }
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
/** The table's count, with a text it leaves to gpt-tokenizer marked as gpt-tokenizer marks it. */
function counted(text: string): number | 'refused' {
  return counter.count(text) ?? 'refused';
}

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the shipped cl100k table', () => {
  it('counts every file of this workspace, whole and line by line, as gpt-tokenizer does', () => {
    const texts: string[] = [];
    for (const pkg of readdirSync(join(workspace, 'packages'))) {
      for (const dir of ['src', 'test']) {
        let names: string[] = [];
        try {
          names = readdirSync(join(workspace, 'packages', pkg, dir));
        } catch {
          continue;
        }
        for (const name of names.filter((n) => n.endsWith('.ts'))) {
          const text = readFileSync(join(workspace, 'packages', pkg, dir, name), 'utf8');
          texts.push(text, ...text.split('\n'));
        }
      }
    }
    expect(texts.length).toBeGreaterThan(10_000);
    const mismatches = texts.filter((text) => counted(text) !== expected(text));
    expect(mismatches.slice(0, 3)).toEqual([]);
  });

  it('agrees on the texts where a byte lookup could differ from a string lookup', () => {
    const texts = [
      '',
      '\ufeffpackage main\n',
      '\ufeff\ufeffusing System;',
      'x\ufeffnamespace',
      '\ufeff//',
      'lone \ud800 high and \udc00 low surrogates',
      '\ud83d', // half of an emoji
      '🚀🚀🚀 naïve café — 東京 Ελληνικά العربية',
      '\u00a0\u2003\u3000 non-breaking and wide spaces\r\n\r\n',
      '=================================================================',
      "it's they're we've I'll you'd SHE'S",
      '1234567890123 3.14159 0x7fffffff',
      '\t\t\t  \n\n\n   \n',
      'a'.repeat(5000),
    ];
    for (const text of texts) expect([text, counted(text)]).toEqual([text, expected(text)]);
  });

  it('agrees on random text mixing scripts, marks, emoji, BOMs and broken surrogates', () => {
    const pools = ['abcXYZ_', ' \t\n\r', '0123456789', '.,;:!?<>/\\(){}[]=+-*&^%$#@~`\'"', 'éüñßøå', '東京日本語中文한국어', '🚀😀👍🏽', '\u0301\u0308', '\ufeff', '\ud800\udfff'];
    const next = random(20);
    const texts: string[] = [];
    for (let n = 0; n < 3000; n++) {
      let text = '';
      const length = Math.floor(next() * 40);
      for (let i = 0; i < length; i++) {
        const pool = pools[Math.floor(next() * pools.length)]!;
        text += pool[Math.floor(next() * pool.length)]!;
      }
      texts.push(text);
    }
    const mismatches = texts.filter((text) => counted(text) !== expected(text));
    expect(mismatches.slice(0, 3).map((text) => [text, counted(text), expected(text)])).toEqual([]);
  });

  it('leaves a text holding a special token to gpt-tokenizer, which refuses it', () => {
    expect(counter.count('the end <|endoftext|>')).toBeUndefined();
    expect(expected('the end <|endoftext|>')).toBe('refused');
    expect(counter.count('a <| b |> c')).toBe(expected('a <| b |> c'));
  });

  it('names the gpt-tokenizer it was made from', () => {
    const { version } = require('gpt-tokenizer/package.json') as { version: string };
    expect(counter.origin).toBe(`gpt-tokenizer@${version} cl100k_base`);
  });

  it('reads a table from any byte offset, and refuses what is not a whole table', () => {
    const bytes = encodeBpeTable(source);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(readBpeTable(shifted.subarray(1)).count('hello world')).toBe(2);
    expect(() => readBpeTable(new TextEncoder().encode('not a table at all'))).toThrow(/not a BPE table/);
    expect(() => readBpeTable(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
  });

  it('refuses a vocabulary whose tokens it could not look up as gpt-tokenizer does', () => {
    const base = { pattern: '\\s+|\\S+', flags: 'gu', specials: [], origin: 'test' };
    expect(() => encodeBpeTable({ ...base, ranks: ['a', '\ufeffb'] })).toThrow(/rank 1/);
    expect(() => encodeBpeTable({ ...base, ranks: ['a', 'a'] })).toThrow(/same bytes/);
    // A token given as bytes that decode is never found by gpt-tokenizer: nor here.
    const tiny = readBpeTable(encodeBpeTable({ ...base, ranks: ['a', 'b', [0x61, 0x62]] }));
    expect(tiny.count('ab')).toBe(2);
  });
});
