/**
 * The budget is the product's promise: whatever `knowing context` prints — header, symbols,
 * code, edges, framing — is at most the budget in the tokenizer the output names, and the
 * header's count is the true count. Checked in-process (the command's own code path) over
 * formats × budgets from 100 to 50,000 × real repositories: this checkout (TypeScript, large
 * enough that no budget holds everything), the indexer's fixtures (eight languages) and the
 * bookshop fixture.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExactTokenizer } from '@knowing/pack';
import type { Tokenizer } from '@knowing/pack';
import { decodeGcf } from '@knowing/wire';
import type { GcfPackDocument } from '@knowing/wire';
import { run } from '../src/run.js';
import { FIXTURE, emptyDir, git, removeScratch } from './helpers.js';

afterAll(removeScratch);

const CHECKOUT = resolve(import.meta.dirname, '..', '..', '..');

function capture(): { stream: { write(chunk: string | Uint8Array): boolean; isTTY: boolean; columns: number }; text(): string } {
  const chunks: Buffer[] = [];
  return {
    stream: {
      isTTY: false,
      columns: 80,
      write(chunk) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
        return true;
      },
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

async function knowingIn(cwd: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = capture();
  const stderr = capture();
  const code = await run(args, { stdout: stdout.stream, stderr: stderr.stream, cwd });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The token count a document's header claims, per format. */
function claimed(format: string, output: string): number {
  switch (format) {
    case 'gcf': {
      const document = decodeGcf(output);
      if (document.mode !== 'pack') throw new Error(`expected a full gcf document, got ${document.mode}`);
      return document.tokens;
    }
    case 'xml':
      return Number(/tokens_used="(\d+)"/.exec(output)![1]);
    case 'json':
      return (JSON.parse(output) as { tokens_used: number }).tokens_used;
    case 'markdown':
      return Number(/^Tokens: (\d+) \//m.exec(output)![1]);
    default:
      throw new Error(format);
  }
}

/** Seeded, so a failure names a case that can be re-run. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Repo {
  readonly name: string;
  readonly root: string;
  readonly db: string;
  readonly tasks: readonly string[];
}

const FORMATS = ['xml', 'markdown', 'json', 'gcf'] as const;

let tokenizer: Tokenizer;
const repos: Repo[] = [];

beforeAll(async () => {
  tokenizer = await createExactTokenizer();
  const scratch = emptyDir('knowing-budget-');
  const bookshop = mkdtempSync(join(scratch, 'bookshop-'));
  cpSync(FIXTURE, bookshop, { recursive: true });
  git(bookshop, 'init', '-q', '-b', 'main');
  const sources: Omit<Repo, 'db'>[] = [
    { name: 'knowing', root: CHECKOUT, tasks: ['the token budget of an answer is exceeded when edges are printed', 'fix the stack trace parser for Rust panics'] },
    { name: 'fixtures', root: resolve(CHECKOUT, 'packages', 'indexer', 'test', 'fixtures'), tasks: ['add a discount to the order total', 'the user service fails to save'] },
    { name: 'bookshop', root: bookshop, tasks: ['refund a payment for a cancelled order'] },
  ];
  for (const source of sources) {
    const db = join(scratch, `${source.name}.db`);
    const indexed = await knowingIn(source.root, ['index', source.root, '--db', db, '--quiet']);
    expect(indexed.code, indexed.stderr).toBe(0);
    repos.push({ ...source, db });
  }
}, 300_000);

describe('knowing context holds its budget', () => {
  it('in every text format, for budgets from 100 to 50,000, with and without code, on real repositories', async () => {
    const random = rng(20261125);
    const failures: string[] = [];
    let cases = 0;
    for (const repo of repos) {
      for (const format of FORMATS) {
        // One small, one middling, one large budget per repository and format, drawn log-uniformly.
        const budgets = [100 + Math.floor(random() * 400), Math.round(Math.exp(Math.log(500) + random() * Math.log(10))), 50_000 - Math.floor(random() * 20_000)];
        for (const [i, budget] of budgets.entries()) {
          const task = repo.tasks[i % repo.tasks.length]!;
          const code = random() < 0.5;
          const args = ['context', '--task', task, '--db', repo.db, '--repo', repo.root, '--format', format, '--budget', String(budget), ...(code ? ['--code'] : [])];
          const result = await knowingIn(repo.root, args);
          cases++;
          const label = `${repo.name} ${format} budget=${budget}${code ? ' --code' : ''}`;
          if (result.code !== 0) {
            failures.push(`${label}: exit ${result.code}: ${result.stderr}`);
            continue;
          }
          const real = tokenizer.count(result.stdout);
          const header = claimed(format, result.stdout);
          if (real > budget) failures.push(`${label}: printed ${real} tokens`);
          if (header !== real) failures.push(`${label}: header says ${header}, printed ${real}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cases).toBe(repos.length * FORMATS.length * 3);
  });

  it('fills a large budget with more than a small one, so the fit does not simply print nothing', async () => {
    const repo = repos[0]!;
    const sizes: number[] = [];
    for (const budget of [1000, 16000]) {
      const result = await knowingIn(repo.root, ['context', '--task', repo.tasks[0]!, '--db', repo.db, '--repo', repo.root, '--format', 'gcf', '--budget', String(budget)]);
      expect(result.code).toBe(0);
      const document = decodeGcf(result.stdout);
      if (document.mode !== 'pack') throw new Error('expected a pack');
      sizes.push(document.nodes.length);
      // Close to the budget, unless every ranked symbol was printed.
      const [, shown, ranked] = /(\d[\d,]*) of (\d[\d,]*) ranked symbols/.exec(result.stderr)!.map((n) => Number(n.replaceAll(',', '')));
      if (shown! < ranked!) expect(tokenizer.count(result.stdout)).toBeGreaterThan(budget * 0.9);
    }
    expect(sizes[1]!).toBeGreaterThan(sizes[0]! * 3);
  });

  it('gives every symbol of every format a file:start-end location', async () => {
    const repo = repos[0]!;
    for (const format of FORMATS) {
      const result = await knowingIn(repo.root, ['context', '--task', repo.tasks[0]!, '--db', repo.db, '--repo', repo.root, '--format', format, '--budget', '3000']);
      expect(result.code).toBe(0);
      const locations = [...result.stdout.matchAll(/[\w./-]+\.[a-z]+:\d+(?:-\d+)?[`"\s]/g)].length;
      const symbols =
        format === 'gcf'
          ? (decodeGcf(result.stdout) as GcfPackDocument).nodes.length
          : format === 'xml'
            ? [...result.stdout.matchAll(/<symbol /g)].length
            : format === 'json'
              ? (JSON.parse(result.stdout) as { symbols: unknown[] }).symbols.length
              : [...result.stdout.split('\n## Edges')[0]!.matchAll(/^- `/gm)].length;
      expect(symbols).toBeGreaterThan(3);
      if (format === 'json') {
        const data = JSON.parse(result.stdout) as { symbols: { file: string; start_line: number; end_line: number }[] };
        for (const symbol of data.symbols) expect(symbol.start_line).toBeGreaterThan(0);
      } else expect(locations).toBeGreaterThanOrEqual(symbols);
    }
  });

  it('with --code, the best-ranked symbols carry their source, cut only at line ends', async () => {
    const repo = repos[0]!;
    const result = await knowingIn(repo.root, ['context', '--task', 'fitPack prints a pack within a token budget', '--db', repo.db, '--repo', repo.root, '--format', 'gcf', '--budget', '8000', '--code']);
    expect(result.code).toBe(0);
    const document = decodeGcf(result.stdout);
    if (document.mode !== 'pack') throw new Error('expected a pack');
    const nodes = document.nodes.filter((node) => !node.ref);
    const withCode = nodes.filter((node) => !node.ref && node.code);
    expect(withCode.length).toBeGreaterThanOrEqual(3);
    // Code goes to the top of the ranking: the first symbol with code is among the first three.
    expect(nodes.findIndex((node) => !node.ref && node.code)).toBeLessThan(3);
    for (const node of withCode) {
      if (node.ref || !node.code || !node.location) continue;
      const [file, range] = node.location.split(':') as [string, string];
      const [start] = range.split('-').map(Number) as [number];
      const { readFileSync } = await import('node:fs');
      const lines = readFileSync(join(repo.root, file), 'utf8').split('\n');
      const shown = node.code.text.split('\n');
      // Every printed line is a whole line of the file, in order from the symbol's first line.
      shown.forEach((line, i) => expect(line).toBe(lines[start - 1 + i]));
    }
    expect(result.stderr).toMatch(/\(\d+ with code\)/);
  });

  it('refuses a budget below the smallest answer with a clear error', async () => {
    const repo = repos[2]!;
    const result = await knowingIn(repo.root, ['context', '--task', repo.tasks[0]!, '--db', repo.db, '--repo', repo.root, '--format', 'json', '--budget', '5']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/cannot hold even an empty json answer/);
  });
});
