import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '@knowing/mcp';
import { run } from '../src/run.js';
import { emptyDir, fixtureRepo, knowing, removeScratch } from './helpers.js';

afterAll(removeScratch);

const HERE = dirname(fileURLToPath(import.meta.url));
const WORKSPACE = resolve(HERE, '..', '..', '..');
const TASK = 'apply a discount code to the cart total';
/** The SQLite driver the store uses (the CLI does not depend on it directly). */
const fromStore = createRequire(join(WORKSPACE, 'packages', 'store-sqlite', 'package.json'));
const Database = fromStore('better-sqlite3') as new (path: string) => { exec(sql: string): void; close(): void };

let repo: string;

beforeAll(async () => {
  repo = fixtureRepo('knowing-ux-');
  const result = await knowing(['index', '--quiet'], { cwd: repo });
  expect(result.code, result.stderr).toBe(0);
});

describe('knowing why, for a name that is not one symbol', () => {
  it('an unknown name exits 6 and lists the closest names by edit distance, not only by substring', async () => {
    // "totl" is in no name: a substring search finds nothing, one deletion away is Cart.total.
    const result = await knowing(['why', '--task', TASK, '--symbol', 'Cart.totl'], { cwd: repo });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('knowing: no symbol named "Cart.totl" in the index; the closest names:');
    const listed = result.stderr.split('\n').filter((line) => line.startsWith('  '));
    expect(listed[0]).toBe('  bookshop/cart.py.Cart.total (method, bookshop/cart.py:29)');
    expect(result.stderr).toContain('hint: pass one of them with --symbol, e.g. --symbol bookshop/cart.py.Cart.total');
  });

  it('a misspelled bare name finds the symbol through a swap of two letters', async () => {
    const result = await knowing(['why', '--task', TASK, '--symbol', 'apply_dsicount'], { cwd: repo });
    expect(result.code).toBe(6);
    expect(result.stderr.split('\n')[1]).toBe('  bookshop/pricing.py.apply_discount (function, bookshop/pricing.py:12)');
  });

  it('an unknown name with --json is an error object with the same exit code', async () => {
    const result = await knowing(['why', '--task', TASK, '--symbol', 'zqxjvkwp', '--json'], { cwd: repo });
    expect(result.code).toBe(6);
    const { error } = JSON.parse(result.stdout) as { error: { code: string; exitCode: number; message: string; hint: string } };
    expect(error.code).toBe('SYMBOL_NOT_FOUND');
    expect(error.exitCode).toBe(6);
    expect(error.message).toContain('nor one with a similar name');
  });

  it('a bare name several symbols share is ambiguous: lists each with file:line and exits 2', async () => {
    const result = await knowing(['why', '--task', TASK, '--symbol', '__init__'], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('knowing: "__init__" is ambiguous: 3 symbols have that name');
    expect(result.stderr).toContain('  bookshop/cart.py.Cart.__init__ (constructor, bookshop/cart.py:9)');
    expect(result.stderr).toContain('  bookshop/catalog.py.Catalog.__init__ (constructor, bookshop/catalog.py:19)');
    expect(result.stderr).toContain('  bookshop/payments.py.PaymentGateway.__init__ (constructor, bookshop/payments.py:22)');
    expect(result.stderr).toContain('hint: name one of them with its qualified name');
  });

  it('one of the listed qualified names is then explained', async () => {
    const result = await knowing(['why', '--task', TASK, '--symbol', 'Cart.__init__'], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('bookshop/cart.py.Cart.__init__ (constructor, bookshop/cart.py:9-');
  });
});

describe('a long task from a file or stdin', () => {
  /** Longer than one argument may be on Linux (MAX_ARG_STRLEN, 128 KiB). */
  const longTask = `${TASK}\n${'Traceback line: File "bookshop/cart.py", line 31, in total\n'.repeat(3000)}`;

  it('--task-file reads a task beyond the OS argument limit', async () => {
    expect(Buffer.byteLength(longTask)).toBeGreaterThan(128 * 1024);
    const file = join(emptyDir(), 'task.txt');
    writeFileSync(file, longTask);
    const result = await knowing(['why', '--task-file', file, '--symbol', 'Cart.total', '--json'], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    const explanation = JSON.parse(result.stdout) as { task: string; symbol: { qualifiedName: string } };
    expect(explanation.task).toBe(longTask.trim());
    expect(explanation.symbol.qualifiedName).toBe('bookshop/cart.py.Cart.total');
  });

  it('--task - reads the task from stdin', async () => {
    const result = await knowing(['why', '--task', '-', '--symbol', 'Cart.total', '--json'], { cwd: repo, input: longTask });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { task: string }).task).toBe(longTask.trim());
  });

  it('a relative --task-file starts at the current directory', async () => {
    writeFileSync(join(repo, 'bookshop', 'task.txt'), TASK);
    const result = await knowing(['why', '--task-file', 'task.txt', '--symbol', 'Cart.total', '--json'], { cwd: join(repo, 'bookshop') });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { task: string }).task).toBe(TASK);
  });

  it('a missing file, an empty file, empty stdin and both flags are usage errors (exit 2)', async () => {
    const dir = emptyDir();
    const missing = await knowing(['why', '--task-file', join(dir, 'nope.txt'), '--symbol', 'Cart.total'], { cwd: repo });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`knowing: --task-file ${join(dir, 'nope.txt')}: no such file`);

    writeFileSync(join(dir, 'empty.txt'), '  \n\n');
    const empty = await knowing(['why', '--task-file', join(dir, 'empty.txt'), '--symbol', 'Cart.total'], { cwd: repo });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('is empty');

    const noStdin = await knowing(['why', '--task', '-', '--symbol', 'Cart.total'], { cwd: repo, input: '' });
    expect(noStdin.code).toBe(2);
    expect(noStdin.stderr).toContain('knowing: the task in stdin is empty');

    const both = await knowing(['why', '--task', TASK, '--task-file', join(dir, 'empty.txt'), '--symbol', 'Cart.total'], { cwd: repo });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--task and --task-file cannot be combined');

    const directory = await knowing(['why', '--task-file', dir, '--symbol', 'Cart.total'], { cwd: repo });
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain('is not a file');
  });

  it('run() reads `--task -` from the injected stdin (and says how to end it on a terminal)', async () => {
    const sink = (): { write(chunk: string | Uint8Array): boolean; text(): string } => {
      const chunks: string[] = [];
      return { write: (chunk) => chunks.push(String(chunk)) > 0, text: () => chunks.join('') };
    };
    const typed = (text: string, isTTY: boolean) => ({
      isTTY,
      async *[Symbol.asyncIterator]() {
        yield text.slice(0, 5);
        yield Buffer.from(text.slice(5));
      },
    });
    const cwd = emptyDir();
    // A task on stdin gets past the task check to the next one: there is no index here.
    const stderr = sink();
    const code = await run(['why', '--task', '-', '--symbol', 'Cart.total'], { stdout: sink(), stderr, cwd, stdin: typed('refund a card payment', true) });
    expect(code).toBe(3);
    expect(stderr.text()).toContain('knowing: reading the task from stdin; end it with Ctrl-D');
    const blank = sink();
    expect(await run(['why', '--task', '-', '--symbol', 'Cart.total'], { stdout: sink(), stderr: blank, cwd, stdin: typed('   \n\n', false) })).toBe(2);
    expect(blank.text()).toContain('the task in stdin is empty');
  });

  it('the help of why documents --task-file and --task -', async () => {
    const result = await knowing(['help', 'why'], { cwd: repo });
    expect(result.stdout).toMatch(/--task-file FILE\s+read the task from FILE \(- for stdin\)/);
    expect(result.stdout).toContain('(- reads it from stdin)');
    expect(result.stdout).toMatch(/^\s+6\s+no symbol has that name/m);
  });
});

describe('the MCP tools, as documented', () => {
  it('`knowing help mcp` names every tool the server registers', async () => {
    const result = await knowing(['help', 'mcp'], { cwd: repo });
    expect(result.code).toBe(0);
    const text = result.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`${TOOL_NAMES.length === 7 ? 'seven' : TOOL_NAMES.length} tools`);
    for (const tool of TOOL_NAMES) expect(text, tool).toContain(tool);
  });

  it('the READMEs and the MCP guide name every tool', () => {
    for (const doc of ['README.md', 'packages/cli/README.md', 'packages/mcp/README.md', 'docs/mcp.md']) {
      const text = readFileSync(join(WORKSPACE, doc), 'utf8');
      for (const tool of TOOL_NAMES) expect(text.includes(`\`${tool}\``), `${doc} names ${tool}`).toBe(true);
    }
  });
});

describe('stats --db on a file that is not a knowing index', () => {
  it('a file that is not SQLite: exit 5, says so, names --db, advises no deletion and leaves it alone', async () => {
    const file = join(emptyDir(), 'notes.db');
    const content = 'shopping list: milk, eggs, books\n'.repeat(100);
    writeFileSync(file, content);
    const result = await knowing(['stats', '--db', file], { cwd: repo });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`knowing: ${file} is not a SQLite database, so not a knowing index`);
    expect(result.stderr).toMatch(/^hint: .*--db/m);
    expect(result.stderr).not.toMatch(/delete|rm -|remove/i);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it("another application's SQLite database: exit 5, names --db, advises no deletion", async () => {
    const file = join(emptyDir(), 'app.db');
    const db = new Database(file);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
    db.close();
    const result = await knowing(['stats', '--db', file], { cwd: repo });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('is a SQLite database but not a knowing index');
    expect(result.stderr).toMatch(/^hint: .*--db/m);
    expect(result.stderr).not.toMatch(/delete|rm -|remove/i);
  });
});

describe('installing as a library user', () => {
  it('an unbuilt better-sqlite3 (pnpm 10 skipped its build script) names the fix, not a bug', async () => {
    // A copy of better-sqlite3 without its compiled binding, as pnpm 10 leaves it unless its
    // build script is approved; a resolve hook makes the real CLI load it.
    const dir = emptyDir('knowing-unbuilt-');
    const modules = join(dir, 'node_modules');
    const betterSqlite = dirname(realpathSync(fromStore.resolve('better-sqlite3/package.json')));
    const bindings = dirname(realpathSync(createRequire(join(betterSqlite, 'package.json')).resolve('bindings')));
    const fileUri = dirname(realpathSync(createRequire(join(bindings, 'package.json')).resolve('file-uri-to-path')));
    mkdirSync(join(modules, 'better-sqlite3'), { recursive: true });
    cpSync(join(betterSqlite, 'package.json'), join(modules, 'better-sqlite3', 'package.json'));
    cpSync(join(betterSqlite, 'lib'), join(modules, 'better-sqlite3', 'lib'), { recursive: true });
    cpSync(bindings, join(modules, 'bindings'), { recursive: true });
    cpSync(fileUri, join(modules, 'file-uri-to-path'), { recursive: true });
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      `export async function resolve(specifier, context, next) {\n` +
        `  if (specifier === 'better-sqlite3') return { url: ${JSON.stringify(pathToFileURL(join(modules, 'better-sqlite3', 'lib', 'index.js')).href)}, format: 'commonjs', shortCircuit: true };\n` +
        `  return next(specifier, context);\n}\n`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

    const result = await knowing(['stats'], { cwd: repo, nodeArgs: ['--import', pathToFileURL(register).href] });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("better-sqlite3's native SQLite binding (better_sqlite3.node) cannot be loaded: it was not built");
    expect(result.stderr).toMatch(/^hint: .*pnpm approve-builds.*npm rebuild better-sqlite3/m);
    expect(result.stderr).not.toContain('bug in knowing');
  });

  it('every package exports a default condition after types, so require() works (Node >= 20.19)', () => {
    const packages = readdirSync(join(WORKSPACE, 'packages')).filter((name) => !name.startsWith('.'));
    expect(packages.length).toBeGreaterThan(10);
    for (const name of packages) {
      const dir = join(WORKSPACE, 'packages', name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string;
        exports: Record<string, Record<string, string>>;
        publishConfig: { exports: Record<string, Record<string, string>> };
      };
      for (const [label, map] of [['exports', manifest.exports], ['publishConfig.exports', manifest.publishConfig.exports]] as const) {
        for (const [subpath, conditions] of Object.entries(map)) {
          const keys = Object.keys(conditions).filter((k) => k !== '@knowing/source');
          expect(keys[0], `${manifest.name} ${label}["${subpath}"]`).toBe('types');
          expect(keys.at(-1), `${manifest.name} ${label}["${subpath}"]`).toBe('default');
          expect(conditions['default']).toBe(conditions['import']);
        }
      }
    }
    // The global setup built these; a CommonJS caller requires them by name.
    const script = `const { createRequire } = require('node:module');
      for (const [dir, name] of ${JSON.stringify(['graph', 'engine', 'store-sqlite'].map((d) => [join(WORKSPACE, 'packages', d, 'package.json'), `@knowing/${d}`]))}) {
        const loaded = createRequire(dir)(name);
        if (Object.keys(loaded).length === 0) throw new Error(name + ' exported nothing');
      }
      console.log('ok');`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(result.stderr.replace(/^.*ExperimentalWarning.*\n?|^.*--trace-warnings.*\n?/gm, '')).toBe('');
    expect(result.stdout.trim()).toBe('ok');
  });
});
