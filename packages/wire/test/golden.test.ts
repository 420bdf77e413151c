import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ContextPack } from '@knowing/graph';
import { formatPack } from '../src/index.js';
import { LOGIN_TASK, emptyPack, hostilePack, loginPack, rng } from './fixtures.js';

// Regenerate with UPDATE_GOLDEN=1, then review the diff line by line before keeping it.
const update = process.env.UPDATE_GOLDEN === '1';

function golden(name: string, actual: string): void {
  const path = fileURLToPath(new URL(`./golden/${name}`, import.meta.url));
  if (update || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** 16 bytes per line, hex, so a binary golden file can be read and diffed. */
function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    lines.push([...bytes.subarray(i, i + 16)].map((b) => b.toString(16).padStart(2, '0')).join(' '));
  }
  return `${lines.join('\n')}\n`;
}

const packs: Record<string, { pack: ContextPack; task?: string }> = {
  login: { pack: loginPack, task: LOGIN_TASK },
  hostile: { pack: hostilePack, task: '<script>alert("x")</script> & co\nsecond line' },
  empty: { pack: emptyPack },
};

const TEXT = { xml: 'xml', markdown: 'md', json: 'json', gcf: 'gcf' } as const;

describe('golden outputs', () => {
  for (const [name, { pack, task }] of Object.entries(packs)) {
    for (const [format, extension] of Object.entries(TEXT)) {
      it(`${name} in ${format}`, () => {
        golden(`${name}.${extension}`, formatPack(pack, { format, task, tool: 'context_for_task' }) as string);
      });
    }
    it(`${name} in gcb`, () => {
      golden(`${name}.gcb.hex`, hexDump(formatPack(pack, { format: 'gcb', tool: 'context_for_task' })));
    });
  }

  it('login in pretty json', () => {
    golden('login.pretty.json', formatPack(loginPack, { format: 'json', task: LOGIN_TASK, pretty: true }));
  });
});

describe('determinism', () => {
  it('writes the same output whatever the order of symbols and edges in the pack', () => {
    const random = rng(7);
    const shuffle = <T>(items: readonly T[]): T[] => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    };
    for (const format of ['xml', 'markdown', 'json', 'gcf', 'gcb']) {
      const expected = formatPack(loginPack, { format, task: LOGIN_TASK });
      for (let round = 0; round < 5; round++) {
        const shuffled = { ...loginPack, symbols: shuffle(loginPack.symbols), edges: shuffle(loginPack.edges) };
        expect(formatPack(shuffled, { format, task: LOGIN_TASK })).toEqual(expected);
      }
    }
  });
});
