// Freshness by default: context, why, viz and test-scope re-index the files changed since the
// index was built before they answer (--no-refresh skips it), with one note on stderr.
import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { NOBODY, RUNNING_AS_ROOT, emptyDir, fixtureRepo, knowing, knowingAs, openUp, removeScratch } from './helpers.js';
import type { CliResult } from './helpers.js';

afterAll(removeScratch);

/** A word no file of the fixture holds. */
const WORD = 'zorblaxian';
const TASK = 'apply a discount code to the cart total';
const REINDEXED = /^knowing: re-indexed 1 changed file in \d+ ms$/m;

async function indexedRepo(prefix: string): Promise<string> {
  const repo = fixtureRepo(prefix);
  const result = await knowing(['index', '--quiet'], { cwd: repo });
  expect(result.code, result.stderr).toBe(0);
  return repo;
}

/** Put `WORD` into the body of `format_cents` (bookshop/receipts.py), leaving its signature and every other symbol as they were. */
function editFormatCents(repo: string, word = WORD): void {
  const file = join(repo, 'bookshop', 'receipts.py');
  const text = readFileSync(file, 'utf8');
  const edited = text.replace('    return f"{amount_cents // 100}', `    ${word} = amount_cents  # the ${word} rounding\n    return f"{amount_cents // 100}`);
  expect(edited).not.toBe(text);
  writeFileSync(file, edited);
}

/** The symbols of a gcf answer, in rank order (`@0 fn bookshop/receipts.py.format_cents …`). */
function gcfSymbols(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => /^@\d+ /.test(line))
    .map((line) => line.split(' ')[2]!);
}

describe('context refreshes the index before answering', () => {
  it('an edited function body is re-indexed: the new word ranks the function first, and stderr says what was done', async () => {
    const repo = await indexedRepo('knowing-fresh-edit-');
    // Asked once before the edit: the answer is cached in the index, and must not come back.
    const before = await knowing(['context', '--task', WORD, '--format', 'gcf'], { cwd: repo });
    expect(before.code, before.stderr).toBe(0);
    expect(gcfSymbols(before.stdout)).not.toContain('bookshop/receipts.py.format_cents');
    expect(before.stderr).not.toContain('re-indexed');

    editFormatCents(repo);
    const stale = await knowing(['context', '--task', WORD, '--format', 'gcf', '--no-refresh'], { cwd: repo });
    expect(stale.code, stale.stderr).toBe(0);
    expect(gcfSymbols(stale.stdout)).not.toContain('bookshop/receipts.py.format_cents');
    expect(stale.stderr).not.toContain('re-indexed');

    const fresh = await knowing(['context', '--task', WORD, '--format', 'gcf'], { cwd: repo });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(gcfSymbols(fresh.stdout)[0]).toBe('bookshop/receipts.py.format_cents');
    expect(fresh.stderr).toMatch(REINDEXED);
    expect(fresh.stderr.match(/re-indexed/g)).toHaveLength(1);

    // Nothing changed since: no note, the same answer.
    const again = await knowing(['context', '--task', WORD, '--format', 'gcf'], { cwd: repo });
    expect(again.stderr).not.toContain('re-indexed');
    expect(gcfSymbols(again.stdout)[0]).toBe('bookshop/receipts.py.format_cents');
  });

  it('--quiet keeps the note to itself but still refreshes', async () => {
    const repo = await indexedRepo('knowing-fresh-quiet-');
    editFormatCents(repo);
    const result = await knowing(['context', '--task', WORD, '--format', 'gcf', '--quiet'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(gcfSymbols(result.stdout)[0]).toBe('bookshop/receipts.py.format_cents');
  });

  it('a deleted file leaves the index and a new one joins it', async () => {
    const repo = await indexedRepo('knowing-fresh-files-');
    rmSync(join(repo, 'bookshop', 'payments.py'));
    writeFileSync(join(repo, 'bookshop', 'vouchers.py'), `def redeem_${WORD}_voucher(code):\n    """Redeem a gift voucher."""\n    return code.strip().upper()\n`);
    const result = await knowing(['context', '--task', `charge the card, redeem a ${WORD} voucher`, '--format', 'gcf'], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^knowing: re-indexed 1 new file, removed 1 deleted file from the index in \d+ ms$/m);
    const symbols = gcfSymbols(result.stdout);
    expect(symbols).toContain(`bookshop/vouchers.py.redeem_${WORD}_voucher`);
    expect(symbols.filter((symbol) => symbol.startsWith('bookshop/payments.py'))).toEqual([]);
    const stats = await knowing(['stats', '--json'], { cwd: repo });
    expect((JSON.parse(stats.stdout) as { files: number }).files).toBe(12);
  });

  it('a file an ignore rule now covers leaves the index, beside an edit of another', async () => {
    const repo = await indexedRepo('knowing-fresh-ignored-');
    editFormatCents(repo);
    writeFileSync(join(repo, '.gitignore'), 'bookshop/payments.py\n');
    const result = await knowing(['context', '--task', WORD, '--format', 'gcf'], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^knowing: re-indexed 1 changed file, removed 1 deleted file from the index in \d+ ms$/m);
    const symbols = gcfSymbols(result.stdout);
    expect(symbols[0]).toBe('bookshop/receipts.py.format_cents');
    expect(symbols.filter((symbol) => symbol.startsWith('bookshop/payments.py'))).toEqual([]);
    const stats = await knowing(['stats', '--json'], { cwd: repo });
    expect((JSON.parse(stats.stdout) as { files: number }).files).toBe(11);
  });

  it('config defaults.refresh: false answers from the index as it is', async () => {
    const repo = await indexedRepo('knowing-fresh-config-');
    writeFileSync(join(repo, 'knowing.config.json'), JSON.stringify({ defaults: { refresh: false } }));
    editFormatCents(repo);
    const result = await knowing(['context', '--task', WORD, '--format', 'gcf'], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('re-indexed');
    expect(gcfSymbols(result.stdout)).not.toContain('bookshop/receipts.py.format_cents');
    writeFileSync(join(repo, 'knowing.config.json'), JSON.stringify({ defaults: { refresh: 'no' } }));
    const invalid = await knowing(['context', '--task', WORD], { cwd: repo });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('"defaults.refresh" must be true or false');
  });
});

describe('why, viz and test-scope refresh too', () => {
  it('each re-indexes the file edited before it', async () => {
    const repo = await indexedRepo('knowing-fresh-others-');
    editFormatCents(repo, 'zorblaxwhy');
    const why = await knowing(['why', '--task', 'zorblaxwhy', '--symbol', 'format_cents'], { cwd: repo });
    expect(why.code, why.stderr).toBe(0);
    expect(why.stderr).toMatch(REINDEXED);
    expect(why.stdout).toContain('in the answer');

    editFormatCents(repo, 'zorblaxviz');
    const viz = await knowing(['viz', '--task', 'zorblaxviz', '--out', join(repo, 'viz.html')], { cwd: repo });
    expect(viz.code, viz.stderr).toBe(0);
    expect(viz.stderr).toMatch(REINDEXED);
    expect(readFileSync(join(repo, 'viz.html'), 'utf8')).toContain('format_cents');

    editFormatCents(repo, 'zorblaxscope');
    const scope = await knowing(['test-scope', '--files', 'bookshop/receipts.py'], { cwd: repo });
    expect(scope.code, scope.stderr).toBe(0);
    expect(scope.stderr).toMatch(REINDEXED);

    editFormatCents(repo, 'zorblaxnot');
    for (const args of [
      ['why', '--task', 'zorblaxnot', '--symbol', 'format_cents', '--no-refresh'],
      ['viz', '--task', 'zorblaxnot', '--out', join(repo, 'viz.html'), '--no-refresh'],
      ['test-scope', '--files', 'bookshop/receipts.py', '--no-refresh'],
    ]) {
      const result = await knowing(args, { cwd: repo });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stderr, args.join(' ')).not.toContain('re-indexed');
    }
  });

  it('--no-refresh is in the help of all four', async () => {
    for (const command of ['context', 'why', 'viz', 'test-scope']) {
      const help = await knowing([command, '--help'], { cwd: emptyDir() });
      expect(help.stdout, command).toContain('--no-refresh');
    }
  });
});

describe('what the check loads', () => {
  const LOAD_TRACE = fileURLToPath(new URL('load-trace.mjs', import.meta.url));

  /** The indexer's dist files and the node_modules packages a run loads, and the WebAssembly files it reads. */
  async function loaded(args: readonly string[], cwd: string): Promise<{ indexerFiles: string[]; packages: Set<string>; wasm: string[]; result: CliResult }> {
    const trace = join(emptyDir('knowing-fresh-trace-'), 'trace.txt');
    writeFileSync(trace, '');
    const result = await knowing(args, { cwd, env: { KNOWING_LOAD_TRACE: trace }, nodeArgs: ['--import', pathToFileURL(LOAD_TRACE).href] });
    const indexerFiles: string[] = [];
    const packages = new Set<string>();
    const wasm: string[] = [];
    for (const url of readFileSync(trace, 'utf8').split('\n')) {
      if (url.startsWith('read:')) wasm.push(url.slice('read:'.length).split('/').pop()!);
      if (!url.startsWith('file:')) continue;
      const path = fileURLToPath(url);
      const inIndexer = /[\\/]packages[\\/]indexer[\\/]dist[\\/](.+)$/.exec(path);
      if (inIndexer) indexerFiles.push(inIndexer[1]!);
      const inNodeModules = /.*node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path);
      if (inNodeModules) packages.add(inNodeModules[1]!.replace(/\\/g, '/'));
    }
    return { indexerFiles: [...new Set(indexerFiles)].sort(), packages, wasm: [...new Set(wasm)].sort(), result };
  }

  // `context` runs the indexer, and web-tree-sitter's JavaScript, bundled into the CLI's cli.cjs
  // (tsup.config.ts), so the trace sees what the run read to parse: the runtime's and the
  // grammars' WebAssembly.
  it('with nothing changed: the freshness check only, not the indexer\'s parsers, their runtime or the grammars', async () => {
    const repo = await indexedRepo('knowing-fresh-load-');
    const { indexerFiles, packages, wasm, result } = await loaded(['context', '--task', TASK], repo);
    expect(result.code, result.stderr).toBe(0);
    expect(indexerFiles).toEqual([]);
    expect(packages).not.toContain('web-tree-sitter');
    expect(packages).not.toContain('@repomix/tree-sitter-wasms');
    expect(wasm).toEqual([]);
    expect((await loaded(['context', '--task', TASK, '--no-refresh'], repo)).wasm).toEqual([]);
  });

  it('with a changed file: the indexer, to re-index it', async () => {
    const repo = await indexedRepo('knowing-fresh-load-changed-');
    editFormatCents(repo);
    const { wasm, result } = await loaded(['context', '--task', TASK], repo);
    expect(result.code, result.stderr).toBe(0);
    // The parser runtime and the changed file's grammar, and nothing else.
    expect(wasm).toEqual(['tree-sitter-python.wasm', 'tree-sitter.wasm']);
  });
});


describe('a read-only index', () => {
  it('is not refreshed: the command answers from it as it is, with a note', async ({ skip }) => {
    const source = await indexedRepo('knowing-fresh-ro-');
    // Outside the scratch root (private to this user): the other user must reach the files.
    const parent = mkdtempSync(join(tmpdir(), 'knowing-fresh-ro-'));
    try {
      chmodSync(parent, 0o755);
      const repo = join(parent, 'repo');
      cpSync(source, repo, { recursive: true });
      editFormatCents(repo);
      openUp(repo);
      chmodSync(join(repo, '.knowing', 'graph.db'), 0o444);
      chmodSync(join(repo, '.knowing'), 0o555);
      const run = RUNNING_AS_ROOT ? (args: readonly string[]) => knowingAs(NOBODY, args, repo) : (args: readonly string[]) => knowing(args, { cwd: repo });
      if (RUNNING_AS_ROOT) {
        const probe = await run(['--version']);
        if (probe.code !== 0) skip(`the CLI cannot run as uid ${NOBODY.uid} from this checkout (is it readable by every user?): ${probe.stderr.split('\n')[0]}`);
      }
      const listing = readdirSync(join(repo, '.knowing')).sort();
      const result = await run(['context', '--task', WORD, '--format', 'gcf']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('knowing: 1 file changed since the index was built, but it is read-only: answering from it as it is');
      expect(gcfSymbols(result.stdout)).not.toContain('bookshop/receipts.py.format_cents');
      expect(readdirSync(join(repo, '.knowing')).sort()).toEqual(listing);
    } finally {
      chmodSync(join(parent, 'repo', '.knowing'), 0o755);
      rmSync(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
