import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeTask, packRoot } from '../src/index.js';

/** The documented layout, built independently: length-prefixed fields, ids byte-sorted. */
function referenceRoot(task: string, ids: string[]): string {
  const field = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const sorted = [...new Set(ids)].map((id) => Buffer.from(id, 'utf8')).sort(Buffer.compare);
  const body = Buffer.concat([field('knowing-pack-v1'), field(task), ...sorted.map((id) => field(id.toString('utf8')))]);
  return createHash('sha256').update(body).digest('hex');
}

const a = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const b = 'a0b1c2d3e4f5061728394a5b6c7d8e9f';
const c = '00000000000000000000000000000001';

describe('packRoot', () => {
  it('is the documented hash of the normalised task and byte-sorted ids', () => {
    expect(packRoot('Fix login', [b, a, c])).toBe(referenceRoot('fix login', [c, a, b]));
    expect(packRoot('x', [])).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores the order of ids and repeated ids', () => {
    const root = packRoot('task', [a, b, c]);
    expect(packRoot('task', [c, b, a])).toBe(root);
    expect(packRoot('task', new Set([b, a, c, a]))).toBe(root);
  });

  it('normalises the task case and whitespace', () => {
    const root = packRoot('fix the login bug', [a]);
    expect(packRoot('  Fix THE\tlogin \n bug ', [a])).toBe(root);
  });

  it('changes with the task or the set', () => {
    const root = packRoot('task', [a, b]);
    expect(packRoot('other task', [a, b])).not.toBe(root);
    expect(packRoot('task', [a])).not.toBe(root);
    expect(packRoot('task', [a, c])).not.toBe(root);
    expect(packRoot('', [a, b])).not.toBe(root);
  });

  it('cannot be fooled by moving characters between the task and the ids', () => {
    expect(packRoot('ab', ['c'])).not.toBe(packRoot('a', ['bc']));
    expect(packRoot('t', ['ab', 'c'])).not.toBe(packRoot('t', ['a', 'bc']));
  });

  it('hashes ASCII ids (hex or not, any case) and mixed sets by the same layout', () => {
    const ascii = ['b/x.py.F', 'B/x.py.f', 'a~', 'a', '_z', '0', ' ', a];
    expect(packRoot('t', ascii)).toBe(referenceRoot('t', ascii));
    expect(packRoot('t', [...ascii, 'é'])).toBe(referenceRoot('t', [...ascii, 'é']));
    expect(packRoot('t', ['a', 'ab'])).toBe(referenceRoot('t', ['ab', 'a']));
  });

  it('sorts ids by UTF-8 bytes, not UTF-16 code units', () => {
    // UTF-16 puts U+1F600 (surrogates D83D DE00) before U+FF21; UTF-8 bytes (F0… vs EF…) the
    // other way round. A code-unit sort would hash the ids in the wrong order.
    const high = '\u{FF21}';
    const astral = '\u{1F600}';
    expect(packRoot('t', [astral, high])).toBe(referenceRoot('t', [high, astral]));
  });
});

describe('normalizeTask', () => {
  it('trims, lower-cases and collapses whitespace', () => {
    expect(normalizeTask('  Add A\t\tBefore-Request   HOOK\n')).toBe('add a before-request hook');
  });
});
