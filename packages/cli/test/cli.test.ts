import { appendFileSync, cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGcb, decodeGcf } from '@knowing/wire';
import { FIXTURE, emptyDir, fixtureRepo, git, knowing, packagesLoaded, removeScratch } from './helpers.js';

afterAll(removeScratch);

const TASK = 'apply a discount code to the cart total';

let repo: string;
let indexJson: Record<string, unknown>;

beforeAll(async () => {
  repo = fixtureRepo();
  const result = await knowing(['index', '--json'], { cwd: repo });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  indexJson = JSON.parse(result.stdout) as Record<string, unknown>;
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
});

describe('knowing index', () => {
  it('indexes the Python and Go files of the fixture into <repo>/.knowing/graph.db, ignored by git', () => {
    expect(existsSync(join(repo, '.knowing', 'graph.db'))).toBe(true);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    const files = indexJson['files'] as { discovered: number; parsed: number };
    expect(files.discovered).toBe(12);
    expect(files.parsed).toBe(12);
    expect(indexJson['database']).toBe(join(repo, '.knowing', 'graph.db'));
    expect((indexJson['edgesByType'] as Record<string, number>)['calls']).toBeGreaterThan(0);
    expect(indexJson['nodes']).toBeGreaterThan(40);
  });

  it('re-indexes incrementally and prints a readable summary', async () => {
    const result = await knowing(['index'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Indexed ${repo}`);
    expect(result.stdout).toMatch(/files\s+12 indexed: 0 parsed, 12 unchanged/);
    expect(result.stdout).toMatch(/nodes\s+\d+ \(/);
    expect(result.stdout).toMatch(/edges\s+\d+ \(.*calls \d+/);
    expect(result.stdout).toMatch(/database\s+\.knowing\/graph\.db \(snapshot [0-9a-f]{12}\)/);
  });

  it('accepts a path and --quiet prints nothing', async () => {
    const result = await knowing(['index', repo, '--quiet'], { cwd: emptyDir() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
  });
});

describe('knowing stats', () => {
  it('--json counts files, kinds, edge types and languages', async () => {
    const result = await knowing(['stats', '--json'], { cwd: repo });
    expect(result.code).toBe(0);
    const stats = JSON.parse(result.stdout) as Record<string, any>;
    expect(stats['files']).toBe(12);
    expect(stats['filesByLanguage']).toEqual({ python: 10, go: 2 });
    expect(stats['nodesByKind']['class']).toBeGreaterThan(0);
    expect(stats['nodesByLanguage']['go']).toBeGreaterThan(0);
    expect(stats['edgesByType']['calls']).toBeGreaterThan(0);
    expect(stats['database']['bytes']).toBeGreaterThan(0);
    expect(stats['snapshot']['id']).toMatch(/^[0-9a-f]+$/);
    expect(stats['repository']['root']).toBe(repo);
  });

  it('prints a table for people, from a subdirectory of the repository', async () => {
    const result = await knowing(['stats'], { cwd: join(repo, 'bookshop') });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/files\s+12 \(python 10, go 2\)/);
    expect(result.stdout).toContain('by kind');
    expect(result.stdout).toContain('by type');
    expect(result.stdout).toContain('by language');
  });
});

describe('knowing context', () => {
  it('answers a task as XML by default', async () => {
    const result = await knowing(['context', '--task', TASK], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('<context task="apply a discount code to the cart total"')).toBe(true);
    expect(result.stdout.trimEnd().endsWith('</context>')).toBe(true);
    expect(result.stdout).toContain('bookshop/cart.py.Cart.total');
    expect(result.stdout).toContain('bookshop/pricing.py.apply_discount');
    expect(result.stderr).toMatch(/knowing: \d+ of \d+ ranked symbols, [\d,]+ of 50,000 tokens \(xml, cl100k_base\)/);
  });

  it('says when an answer comes from the cache, and --fresh works it out again', async () => {
    const task = ['context', '--task', 'restock a book in the inventory', '--budget', '3000'];
    const first = await knowing(task, { cwd: repo });
    const again = await knowing(task, { cwd: repo });
    const fresh = await knowing([...task, '--fresh'], { cwd: repo });
    expect(first.stderr).not.toContain('from cache');
    expect(again.stderr).toContain('from cache');
    expect(fresh.stderr).not.toContain('from cache');
    expect(fresh.stdout).toBe(again.stdout);
  });

  it('writes gcf that decodes, within the budget', async () => {
    const result = await knowing(['context', '--task', TASK, '--format', 'gcf', '--budget', '400'], { cwd: repo });
    expect(result.code).toBe(0);
    const doc = decodeGcf(result.stdout);
    expect(doc.mode).toBe('pack');
    if (doc.mode !== 'pack') return;
    expect(doc.budget).toBe(400);
    expect(doc.tokens).toBeLessThanOrEqual(400);
    const names = doc.nodes.flatMap((n) => (n.ref ? [] : [n.qualifiedName]));
    expect(names).toContain('bookshop/cart.py.Cart.total');
  });

  it('--json is the json format, and --budget is respected', async () => {
    // A json symbol carries every field (about 200 tokens pretty-printed): 1000 holds a few.
    const result = await knowing(['context', '--task', TASK, '--json', '--budget', '1000'], { cwd: repo });
    expect(result.code).toBe(0);
    const pack = JSON.parse(result.stdout) as { task: string; tokens_used: number; token_budget: number; symbols: { qualified_name: string }[] };
    expect(pack.task).toBe(TASK);
    expect(pack.token_budget).toBe(1000);
    expect(pack.tokens_used).toBeLessThanOrEqual(1000);
    expect(pack.symbols.length).toBeGreaterThan(0);
    const big = JSON.parse((await knowing(['context', '--task', TASK, '--format', 'json', '--budget', '5000'], { cwd: repo })).stdout) as typeof pack;
    expect(big.symbols.length).toBeGreaterThan(pack.symbols.length);
  });

  it('writes gcb as bytes that decode', async () => {
    const result = await knowing(['context', '--task', TASK, '--format', 'gcb'], { cwd: repo });
    expect(result.code).toBe(0);
    const doc = decodeGcb(new Uint8Array(result.bytes));
    expect(doc.symbols.map((s) => s.qualifiedName)).toContain('bookshop/cart.py.Cart.total');
  });

  it('--files gives the files\' symbols and their callers, and warns about unknown files', async () => {
    const result = await knowing(['context', '--files', 'bookshop/pricing.py,README.md', '--format', 'markdown'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('apply_discount');
    expect(result.stdout).toContain('Cart.total');
    expect(result.stderr).toContain('README.md does not exist');
  });

  it('--files accepts paths relative to the current directory', async () => {
    const result = await knowing(['context', '--files', './cart.py', '--format', 'gcf'], { cwd: join(repo, 'bookshop') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('bookshop/cart.py.Cart.add');
  });

  it('--pr uses the files changed in the working tree', async () => {
    const scratch = fixtureRepo();
    try {
      expect((await knowing(['index', '--quiet'], { cwd: scratch })).code).toBe(0);
      appendFileSync(join(scratch, 'bookshop', 'payments.py'), '\n# touched\n');
      const result = await knowing(['context', '--pr', '--format', 'gcf'], { cwd: scratch });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('1 changed file against HEAD');
      expect(result.stdout).toContain('bookshop/payments.py.PaymentGateway.charge');
      const against = await knowing(['context', '--pr', 'main', '--format', 'gcf'], { cwd: scratch });
      expect(against.code).toBe(0);
      git(scratch, 'checkout', '-q', '--', '.');
      const clean = await knowing(['context', '--pr'], { cwd: scratch });
      expect(clean.code).toBe(2);
      expect(clean.stderr).toContain('no files changed against HEAD');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('--reindex picks up an edit before answering', async () => {
    const scratch = fixtureRepo();
    try {
      writeFileSync(join(scratch, 'bookshop', 'wishlist.py'), 'def add_to_wishlist(customer, book):\n    """Remember a book for later."""\n    return (customer, book)\n');
      const result = await knowing(['context', '--task', 'add a book to the wishlist', '--reindex', '--format', 'gcf'], { cwd: scratch });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('bookshop/wishlist.py.add_to_wishlist');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('knowing why', () => {
  it('explains a packed symbol with its stage, channels, walk and components', async () => {
    const result = await knowing(['why', '--task', TASK, '--symbol', 'Cart.total'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('bookshop/cart.py.Cart.total (method, bookshop/cart.py:29-32)');
    expect(result.stdout).toMatch(/stage\s+packed: in the answer/);
    expect(result.stdout).toMatch(/seed\s+yes: weight/);
    expect(result.stdout).toMatch(/channels\s+.*tiered \(exact\)/);
    expect(result.stdout).toContain('score components:');
    // The learned ranker's components by kind of evidence, and each feature's share.
    expect(result.stdout).toMatch(/lexical\s+-?\d/);
    expect(result.stdout).toContain('features (share of the learned score):');
    expect(result.stdout).toMatch(/lexical_rank\s+-?\d/);
    expect(result.stdout).toContain('keywords:');
  });

  it('--json prints the explanation object', async () => {
    const result = await knowing(['why', '-t', TASK, '-s', 'apply_discount', '--json'], { cwd: repo });
    expect(result.code).toBe(0);
    const explanation = JSON.parse(result.stdout) as { stage: string; symbol: { qualifiedName: string }; rank: number; components: Record<string, number> };
    expect(explanation.symbol.qualifiedName).toBe('bookshop/pricing.py.apply_discount');
    expect(['packed', 'ranked']).toContain(explanation.stage);
    expect(explanation.rank).toBeGreaterThan(0);
    expect(Object.keys(explanation.components).length).toBeGreaterThan(0);
  });

  it('says when no symbol has the name, and suggests similar ones (exit 6)', async () => {
    const result = await knowing(['why', '--task', TASK, '--symbol', 'discount'], { cwd: repo });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('no symbol named "discount" in the index');
    expect(result.stderr).toContain('bookshop/pricing.py.apply_discount');
  });
});

describe('knowing test-scope', () => {
  it('lists the tests reaching the changed files', async () => {
    const result = await knowing(['test-scope', '--files', 'bookshop/pricing.py'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tests/test_cart.py');
    expect(result.stdout).toContain('test_total_applies_discount_and_tax');
    expect(result.stdout).not.toContain('test_remove_drops_the_line');
  });

  it('--format run prints runner commands per language', async () => {
    const result = await knowing(['test-scope', '--files', 'bookshop/pricing.py,inventory/stock.go', '--format', 'run'], { cwd: repo });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    // The Go module is inventory/ (its go.mod), so go test runs inside it.
    expect(lines).toContain("go test -C inventory . -run '^(TestReserveFailsWhenEmpty|TestReserveTakesCopies)$'");
    const pytest = lines.find((l) => l.startsWith('pytest '));
    expect(pytest).toContain('tests/test_cart.py::test_total_applies_discount_and_tax');
  });

  it('--json, and by default the files changed in git', async () => {
    const scratch = fixtureRepo();
    try {
      expect((await knowing(['index', '--quiet'], { cwd: scratch })).code).toBe(0);
      const none = await knowing(['test-scope', '--json'], { cwd: scratch });
      expect(none.code).toBe(0);
      expect(JSON.parse(none.stdout)).toMatchObject({ files: [], tests: [] });
      appendFileSync(join(scratch, 'bookshop', 'cart.py'), '\n# touched\n');
      const result = await knowing(['test-scope', '--json'], { cwd: scratch });
      expect(result.code).toBe(0);
      const scope = JSON.parse(result.stdout) as { files: string[]; testFiles: string[]; tests: { id: string }[] };
      expect(scope.files).toEqual(['bookshop/cart.py']);
      expect(scope.testFiles).toEqual(['tests/test_cart.py', 'tests/test_checkout.py']);
      expect(scope.tests.map((t) => t.id)).toContain('tests/test_cart.py::test_remove_drops_the_line');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('knowing viz', () => {
  it('writes a self-contained page with the chosen symbols and prints its path', async () => {
    const result = await knowing(['viz', '--task', TASK], { cwd: repo });
    expect(result.code).toBe(0);
    const file = join(repo, 'knowing-viz.html');
    expect(result.stdout.trim()).toBe(file);
    const html = readFileSync(file, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('bookshop/cart.py.Cart.total');
    expect(html).toContain('"walk"');
    expect(html).toContain('"components"');
    // Self-contained: nothing is loaded from anywhere.
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<link\b/i);
  });

  it('escapes the task and symbol text', async () => {
    const out = join(emptyDir(), 'page.html');
    const task = 'refund </script><img src=x onerror=alert(1)> & "quotes"';
    const result = await knowing(['viz', '--task', task, '--out', out, '--json'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ file: out });
    const html = readFileSync(out, 'utf8');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('refund &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });
});

describe('config file', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = fixtureRepo();
    writeFileSync(
      join(scratch, 'by-walk.mjs'),
      [
        '// A ranker that orders by walk score alone.',
        'export default function createRanker() {',
        '  return {',
        "    name: 'by-walk',",
        '    rank(inputs) {',
        '      return inputs',
        '        .map((i) => ({ node: i.node, score: i.rwr, distance: i.distance, rwr: i.rwr, components: { walk: i.rwr } }))',
        '        .sort((a, b) => b.score - a.score);',
        '    },',
        '  };',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(scratch, 'vocab.mjs'),
      [
        'export default {',
        "  framework: 'bookshop',",
        "  classes: [{ concept: 'BOOKSHOP_MONEY_BACK', phrases: ['money back'], targets: ['PaymentGateway.refund'], weight: 0.9 }],",
        '};',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(scratch, 'knowing.config.json'),
      JSON.stringify({ plugins: ['./vocab.mjs'], ranker: './by-walk.mjs', defaults: { format: 'gcf', budget: 700, languages: ['python'] } }, null, 2),
    );
    const index = await knowing(['index', '--json'], { cwd: scratch });
    expect(index.code).toBe(0);
    expect((JSON.parse(index.stdout) as { files: { discovered: number } }).files.discovered).toBe(10); // python only
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('supplies the default format and budget; flags win over it', async () => {
    const result = await knowing(['context', '--task', TASK], { cwd: scratch });
    expect(result.code).toBe(0);
    const doc = decodeGcf(result.stdout);
    expect(doc.mode === 'pack' && doc.budget).toBe(700);
    const flags = await knowing(['context', '--task', TASK, '--format', 'xml', '--budget', '900'], { cwd: scratch });
    expect(flags.stdout).toMatch(/^<context [^>]*token_budget="900"/);
  });

  it('plugs in the ranker module and the vocabulary plugin', async () => {
    const result = await knowing(['why', '--task', 'give the money back to the customer', '--symbol', 'PaymentGateway.refund', '--json'], { cwd: scratch });
    expect(result.code).toBe(0);
    const explanation = JSON.parse(result.stdout) as { matchedClasses: string[]; components: Record<string, number>; stage: string };
    expect(explanation.matchedClasses).toContain('BOOKSHOP_MONEY_BACK');
    // The module's only component, besides what the engine's diversity step takes from a member listed after its type.
    expect(Object.keys(explanation.components).filter((name) => name !== 'diversity')).toEqual(['walk']);
  });

  it('a plugin that cannot be loaded is a config error naming the entry', async () => {
    writeFileSync(join(scratch, 'broken.json'), JSON.stringify({ plugins: ['knowing-vocab-does-not-exist'] }));
    const result = await knowing(['context', '--task', TASK, '--config', 'broken.json'], { cwd: scratch });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`knowing: ${join(scratch, 'broken.json')}: "plugins[0]" (knowing-vocab-does-not-exist): could not import`);
  });

  it('a TypeScript config on a Node that cannot import it says to use .mjs or .json', async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'knowing.config.ts'), 'export default { defaults: { budget: 100 } } as const;\n');
    const result = await knowing(['stats'], { cwd: dir });
    if ((process.features as { typescript?: unknown }).typescript) {
      expect(result.code).toBe(3); // the config loaded; there is just no index
    } else {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`knowing: ${join(dir, 'knowing.config.ts')}: this Node.js (${process.version}) cannot import TypeScript`);
      expect(result.stderr).toContain('knowing.config.mjs');
    }
  });

  it('a missing --config file: exit 4', async () => {
    const result = await knowing(['stats', '--config', 'nope.json'], { cwd: scratch });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('nope.json does not exist');
  });
});

describe('bad input', () => {
  it('a missing path: exit 4', async () => {
    const result = await knowing(['index', 'no/such/dir'], { cwd: repo });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^knowing: repository .*no\/such\/dir does not exist\nhint: /);
    expect(result.stdout).toBe('');
  });

  it('no index yet: exit 3 with a hint to run knowing index', async () => {
    const dir = emptyDir();
    const commands = [['context', '--task', TASK], ['stats'], ['why', '--task', TASK, '--symbol', 'x'], ['test-scope', '--files', 'a.py'], ['viz', '--task', TASK]];
    const results = await Promise.all(commands.map((args) => knowing(args, { cwd: dir })));
    commands.forEach((args, i) => {
      expect(results[i]!.code, args.join(' ')).toBe(3);
      expect(results[i]!.stderr).toContain('knowing: no index yet at .knowing/graph.db');
      expect(results[i]!.stderr).toContain('hint: run `knowing index` first');
    });
    expect(existsSync(join(dir, '.knowing'))).toBe(false);
  });

  it('an empty task: exit 2', async () => {
    for (const task of ['', '   ']) {
      const result = await knowing(['context', '--task', task], { cwd: repo });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('knowing: the task is empty');
    }
    const why = await knowing(['why', '--task', '', '--symbol', 'Cart'], { cwd: repo });
    expect(why.code).toBe(2);
  });

  it('an unknown format: exit 2, listing the known formats', async () => {
    const result = await knowing(['context', '--task', TASK, '--format', 'yaml'], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('knowing: unknown format "yaml"');
    expect(result.stderr).toContain('hint: known formats: xml, markdown, json, gcf, gcb');
  });

  it('an unknown language: exit 2, listing the known languages', async () => {
    const result = await knowing(['index', '--languages', 'python,cobol'], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('knowing: unknown language "cobol"');
    expect(result.stderr).toMatch(/hint: known languages: .*python/);
  });

  it('an unreadable database: exit 5', async () => {
    const dir = emptyDir();
    const garbage = join(dir, 'graph.db');
    writeFileSync(garbage, 'this is not a database, just some text that is long enough to look like a header '.repeat(20));
    for (const args of [['stats', '--db', garbage], ['context', '--task', TASK, '--db', garbage], ['index', repo, '--db', garbage]]) {
      const result = await knowing(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(5);
      expect(result.stderr).toContain(`knowing: ${garbage} is not a SQLite database`);
      expect(result.stderr).toContain('hint: ');
    }
    const directory = await knowing(['stats', '--db', dir], { cwd: dir });
    expect(directory.code).toBe(5);
    expect(directory.stderr).toContain('is a directory, not a database file');
  });

  it('an unknown command or flag: exit 2 with a suggestion', async () => {
    const command = await knowing(['contxt', '--task', TASK], { cwd: repo });
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('knowing: unknown command "contxt"');
    expect(command.stderr).toContain('did you mean `knowing context`?');
    const flag = await knowing(['context', '--task', TASK, '--bduget', '5'], { cwd: repo });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('knowing: unknown option --bduget for `knowing context`');
    expect(flag.stderr).toContain('did you mean --budget?');
  });

  it('missing or conflicting query flags and bad numbers: exit 2', async () => {
    const cases: [string[], string][] = [
      [['context'], 'say what the context is for'],
      [['context', '--task', TASK, '--files', 'a.py'], '--task and --files cannot be combined'],
      [['context', '--task'], '--task needs a value'],
      [['context', '--task', TASK, '--budget', 'lots'], '--budget must be a positive whole number'],
      [['context', '--task', TASK, '--budget', '0'], '--budget must be a positive whole number'],
      [['why', '--task', TASK], '--symbol is required'],
      [['test-scope', '--files', 'a.py', '--format', 'yaml'], 'unknown format "yaml" for test-scope'],
      [['stats', 'extra'], 'takes no arguments'],
    ];
    const results = await Promise.all(cases.map(([args]) => knowing(args, { cwd: repo })));
    cases.forEach(([args, message], i) => {
      expect(results[i]!.code, args.join(' ')).toBe(2);
      expect(results[i]!.stderr, args.join(' ')).toContain(message);
    });
  });

  it('--pr outside a git repository: exit 2 suggesting --files', async () => {
    const dir = emptyDir();
    cpSync(FIXTURE, join(dir, 'shop'), { recursive: true });
    expect((await knowing(['index', 'shop', '--quiet'], { cwd: dir })).code).toBe(0);
    const result = await knowing(['context', '--pr', '--repo', 'shop'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not inside a git repository');
    expect(result.stderr).toContain('hint: name the files instead');
  });

  it('with --json, errors are also a JSON object on stdout', async () => {
    const result = await knowing(['context', '--task', ' ', '--json'], { cwd: repo });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      error: { code: 'USAGE', exitCode: 2, message: 'the task is empty', hint: expect.stringContaining('describe the change') },
    });
    const noIndex = await knowing(['stats', '--json'], { cwd: emptyDir() });
    expect(noIndex.code).toBe(3);
    expect(JSON.parse(noIndex.stdout).error).toMatchObject({ code: 'NO_INDEX', exitCode: 3 });
  });
});

describe('help and version', () => {
  it('--help lists the commands, exit codes and examples', async () => {
    const result = await knowing(['--help'], { cwd: repo });
    expect(result.code).toBe(0);
    for (const name of ['index', 'stats', 'context', 'why', 'test-scope', 'viz', 'mcp']) expect(result.stdout).toMatch(new RegExp(`\\n  ${name}\\s`));
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('Exit codes:');
    expect(result.stdout).toMatch(/\n {2}3\s+no index yet/);
  });

  it('every command has help with options, defaults and examples', async () => {
    const names = ['index', 'stats', 'context', 'why', 'test-scope', 'viz', 'mcp'];
    const helps = await Promise.all(names.map((name) => knowing([name, '--help'], { cwd: repo })));
    names.forEach((name, i) => {
      const viaFlag = helps[i]!;
      expect(viaFlag.code, name).toBe(0);
      expect(viaFlag.stdout).toContain(`Usage: knowing ${name}`);
      expect(viaFlag.stdout).toMatch(/Examples:\n {2}knowing /);
      expect(viaFlag.stdout).toContain('Exit codes:');
    });
    const viaHelp = await knowing(['help', 'why'], { cwd: repo });
    expect(viaHelp.stdout).toBe(helps[names.indexOf('why')]!.stdout);
    const context = await knowing(['context', '-h'], { cwd: repo });
    expect(context.stdout).toContain('(default: config defaults.format, else xml)');
  });

  it('no command prints the help on stderr with exit 2; --version prints the version', async () => {
    const bare = await knowing([], { cwd: repo });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: knowing <command>');
    const version = await knowing(['--version'], { cwd: repo });
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('the code cache of context', () => {
  it('the first context leaves its compiled code in the user cache directory; the next answers the same from it', async () => {
    const cache = emptyDir('knowing-cli-cache-');
    // A task of its own: an answer from the index's answer cache would write no code cache.
    const args = ['context', '--task', `${TASK} for the first cache`, '--no-refresh'];
    const first = await knowing(args, { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(first.code).toBe(0);
    expect(readdirSync(join(cache, 'knowing', 'compile-cache'))).toEqual([expect.stringMatching(new RegExp(`^[0-9a-f]{32}-context-${process.version}-${process.arch}\\.v8cache$`))]);
    const second = await knowing(args, { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toContain('<symbol');
  });

  it('a context that fails writes no cache: the first that answers does', async () => {
    const cache = emptyDir('knowing-cli-cache-');
    const dir = (): string[] => (existsSync(join(cache, 'knowing', 'compile-cache')) ? readdirSync(join(cache, 'knowing', 'compile-cache')) : []);
    const noIndex = await knowing(['context', '--task', TASK], { cwd: emptyDir(), env: { XDG_CACHE_HOME: cache } });
    expect(noIndex.code).not.toBe(0);
    const badFlag = await knowing(['context', '--task', TASK, '--budget', 'lots'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(badFlag.code).toBe(2);
    expect(dir()).toEqual([]);
    const answered = await knowing(['context', '--task', `${TASK} after a failure`, '--no-refresh'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(answered.code).toBe(0);
    expect(dir()).toHaveLength(1);
  });

  it('a run that did little writes no cache: an answer from the answer cache, an index run with nothing to do', async () => {
    const cache = emptyDir('knowing-cli-cache-');
    const dir = (): string[] => (existsSync(join(cache, 'knowing', 'compile-cache')) ? readdirSync(join(cache, 'knowing', 'compile-cache')).sort() : []);
    const task = `${TASK} for the light run`;
    // Computed once with another cache directory: the answer is in the index's answer cache now.
    const computed = await knowing(['context', '--task', task, '--no-refresh'], { cwd: repo, env: { XDG_CACHE_HOME: emptyDir('knowing-cli-cache-') } });
    expect(computed.code).toBe(0);
    const fromCache = await knowing(['context', '--task', task, '--no-refresh'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(fromCache.code).toBe(0);
    expect(fromCache.stderr).toContain('from cache');
    expect(fromCache.stdout).toBe(computed.stdout);
    const noop = await knowing(['index'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(noop.code, noop.stderr).toBe(0);
    expect(noop.stdout).toContain('0 parsed');
    expect(dir()).toEqual([]);
    // The next runs that do their work write them.
    expect((await knowing(['context', '--task', `${task}, computed`, '--no-refresh'], { cwd: repo, env: { XDG_CACHE_HOME: cache } })).code).toBe(0);
    expect((await knowing(['index', '--full'], { cwd: repo, env: { XDG_CACHE_HOME: cache } })).code).toBe(0);
    expect(dir().map((name) => name.split('-')[1])).toEqual(['context', 'index']);
  });

  it('index runs from the bundle too, with a cache of its own beside the context\'s, and indexes the same from it', async () => {
    const cache = emptyDir('knowing-cli-cache-');
    const dir = (): string[] => readdirSync(join(cache, 'knowing', 'compile-cache')).sort();
    const counts = (stdout: string) => {
      const summary = JSON.parse(stdout) as { nodes: number; edges: number; files: { parsed: number } };
      return [summary.nodes, summary.edges, summary.files.parsed];
    };
    const first = await knowing(['index', '--full', '--json'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(first.code, first.stderr).toBe(0);
    expect(dir()).toEqual([expect.stringMatching(new RegExp(`^[0-9a-f]{32}-index-${process.version}-${process.arch}\\.v8cache$`))]);
    const context = await knowing(['context', '--task', `${TASK} beside the index's cache`, '--no-refresh'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(context.code).toBe(0);
    expect(dir().map((name) => name.split('-')[1])).toEqual(['context', 'index']);
    const cached = await knowing(['index', '--full', '--json'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(cached.code, cached.stderr).toBe(0);
    expect(counts(cached.stdout)).toEqual(counts(first.stdout));
    expect(counts(first.stdout)[0]).toBeGreaterThan(0);
  });

  it('index detects communities with the bundle\'s own graphology: no file of it is read from node_modules', async () => {
    const fresh = emptyDir('knowing-cli-louvain-');
    for (let i = 0; i < 6; i++) writeFileSync(join(fresh, `module_${i}.py`), `def handler_${i}(request):\n    return helper_${(i + 1) % 6}(request)\n\ndef helper_${i}(request):\n    return request\n`);
    const { files, result } = await packagesLoaded(['index', '--full'], { cwd: fresh });
    expect(result.code, result.stderr).toBe(0);
    expect(files.filter((file) => /node_modules[\\/](graphology|mnemonist|pandemonium)/.test(file))).toEqual([]);
  });

  it('index from the bundle parses in worker threads, which start from the worker beside the bundle', async () => {
    const many = emptyDir('knowing-cli-workers-');
    // Enough files for the parse to take workers (the indexer parses fewer in this thread alone).
    for (let i = 0; i < 40; i++) writeFileSync(join(many, `module_${i}.py`), `def handler_${i}(request):\n    return request.get(${i})\n`);
    const result = await knowing(['index', '--full', '--json', '--workers', '2'], { cwd: many });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { parser: { threads: number; inWorkers: boolean }; warnings: string[]; nodes: number };
    expect(summary.parser).toEqual({ threads: 2, inWorkers: true });
    expect(summary.warnings).toEqual([]);
    expect(summary.nodes).toBeGreaterThanOrEqual(80);
  });

  it('a cache directory that cannot be made only costs the compile: the answer is the same', async () => {
    const blocker = join(emptyDir('knowing-cli-cache-'), 'a-file');
    writeFileSync(blocker, '');
    const args = ['context', '--task', TASK, '--no-refresh', '--format', 'json'];
    const blocked = await knowing(args, { cwd: repo, env: { XDG_CACHE_HOME: join(blocker, 'cache') } });
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toBe((await knowing(args, { cwd: repo })).stdout);
  });

  it('context with a stale index still refreshes through the cached bundle (its import() of the indexer works)', async () => {
    const cache = emptyDir('knowing-cli-cache-');
    const args = ['context', '--task', TASK, '--json'];
    for (let run = 0; run < 2; run++) {
      const result = await knowing(args, { cwd: repo, env: { XDG_CACHE_HOME: cache } });
      expect(result.code, result.stderr).toBe(0);
    }
  });
});

describe('start-up loads only what the command needs', () => {
  it('--version, --help, a command\'s help and a usage error load no package but the CLI', async () => {
    for (const args of [['--version'], ['--help'], ['help', 'index'], ['context', '--help'], ['index', '--help'], ['stats', '--bogus']]) {
      const { packages, result } = await packagesLoaded(args, { cwd: repo });
      expect(result.code, args.join(' ')).toBe(args.includes('--bogus') ? 2 : 0);
      expect([...packages], args.join(' ')).toEqual(['knowing']);
    }
    // A context or index command is run by the CLI's one bundle (compile-cache.ts): a usage error loads that file alone.
    for (const command of ['context', 'index']) {
      const { files, result } = await packagesLoaded([command, '--bogus'], { cwd: repo });
      expect(result.code, command).toBe(2);
      expect(files.filter((file) => !/[\\/]packages[\\/]cli[\\/]dist[\\/]/.test(file)), command).toEqual([]);
    }
  });

  it('context loads the store, the engine, the formats and the repository-model reader, but not the indexer\'s parsers', async () => {
    const { packages, wasm, result } = await packagesLoaded(['context', '--task', TASK], { cwd: repo });
    expect(result.code).toBe(0);
    for (const name of ['@knowing/store-sqlite', '@knowing/engine', '@knowing/wire', '@knowing/history']) expect(packages).toContain(name);
    // The indexer and web-tree-sitter are in the bundle, but only the freshness check runs
    // (freshness.test.ts): the parser runtime and the grammars are never read.
    expect(wasm).toEqual([]);
    const noRefresh = await packagesLoaded(['context', '--task', TASK, '--no-refresh'], { cwd: repo });
    expect(noRefresh.result.code).toBe(0);
    expect(noRefresh.wasm).toEqual([]);
    expect(packages).not.toContain('@knowing/mcp');
    expect(packages).not.toContain('@modelcontextprotocol/sdk');
    expect(packages).not.toContain('yaml');
  });

  it('context runs from the CLI\'s own bundle: it loads no file of another knowing package', async () => {
    const { files, packages, result } = await packagesLoaded(['context', '--task', TASK, '--no-refresh'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('<symbol');
    for (const name of ['@knowing/store-sqlite', '@knowing/engine', '@knowing/wire', '@knowing/pack', '@knowing/walk']) expect(packages).toContain(name);
    const elsewhere = files.filter((file) => /[\\/]packages[\\/](?!cli[\\/])[^\\/]+[\\/]dist[\\/]/.test(file));
    expect(elsewhere).toEqual([]);
  });

  it('context starts without Node\'s ES module loader: the command\'s entry and the bundle are CommonJS', async () => {
    // Node's own modules a run loaded, written when it exits (require() of a preload sees no ES loader).
    const scratch = emptyDir();
    const preload = join(scratch, 'builtins.cjs');
    const list = join(scratch, 'builtins.txt');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
    const loaded = async (args: readonly string[]): Promise<string[]> => {
      const result = await knowing(args, { cwd: repo, nodeArgs: ['-r', preload] });
      expect(result.code, result.stderr).toBe(0);
      return readFileSync(list, 'utf8').split('\n');
    };
    const context = await loaded(['context', '--task', TASK, '--no-refresh']);
    // Linking an ES module (an ES entry, or an import of one) loads the module job.
    expect(context).not.toContain('NativeModule internal/modules/esm/module_job');
    // Other commands run from the ES build, which the same check sees.
    expect(await loaded(['stats'])).toContain('NativeModule internal/modules/esm/module_job');
  });

  it('context counts its tokens in its own thread, with the cl100k table shipped beside the bundle', async () => {
    const { workers, packages, result } = await packagesLoaded(['context', '--task', TASK, '--no-refresh'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('cl100k_base');
    expect(workers).toBe(0);
    expect(packages).not.toContain('gpt-tokenizer');
  });

  it('context over an index whose communities are stored (index warms it) does not load graphology or Louvain', async () => {
    // The bundle holds graphology (bundle-entry.ts) and hands it to the walk on request: a preload
    // records whether the walk asked, and the trace whether any file of it was read from node_modules.
    const scratch = emptyDir();
    const asked = join(scratch, 'asked.txt');
    const preload = join(scratch, 'louvain-watch.cjs');
    writeFileSync(
      preload,
      `let handed;\nObject.defineProperty(globalThis, Symbol.for('@knowing/walk:louvain-modules'), {\n` +
        `  get: () => handed && (() => { require('node:fs').writeFileSync(${JSON.stringify(asked)}, 'asked'); return handed(); }),\n` +
        `  set: (load) => { handed = load; },\n});\n`,
    );
    const { files, packages, result } = await packagesLoaded(['context', '--task', TASK, '--no-refresh'], { cwd: repo, nodeArgs: ['-r', preload] });
    expect(result.code, result.stderr).toBe(0);
    // The walk is there; community detection, and the libraries only it needs, are not.
    expect(packages).toContain('@knowing/walk');
    expect(files.filter((file) => /node_modules[\\/](graphology|mnemonist|pandemonium)/.test(file))).toEqual([]);
    expect(existsSync(asked)).toBe(false);
    // The same watch sees an index run ask for them.
    const fresh = emptyDir('knowing-cli-louvain-');
    for (let i = 0; i < 6; i++) writeFileSync(join(fresh, `module_${i}.py`), `def handler_${i}(request):\n    return helper_${(i + 1) % 6}(request)\n\ndef helper_${i}(request):\n    return request\n`);
    const indexed = await knowing(['index'], { cwd: fresh, nodeArgs: ['-r', preload] });
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(existsSync(asked)).toBe(true);
  });

  it('train loads the history miner, the indexer, the store and the engine, but not the formats or the MCP server', async () => {
    const { packages } = await packagesLoaded(['train', '--max-tasks', '1'], { cwd: repo });
    for (const name of ['@knowing/history', '@knowing/indexer', '@knowing/store-sqlite', '@knowing/engine', '@knowing/rank']) expect(packages).toContain(name);
    expect(packages).not.toContain('@knowing/wire');
    expect(packages).not.toContain('@knowing/mcp');
  });

  it('stats loads the store only', async () => {
    const { packages, result } = await packagesLoaded(['stats'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(packages).toContain('@knowing/store-sqlite');
    for (const name of ['@knowing/engine', '@knowing/wire', '@knowing/indexer', '@knowing/mcp']) expect(packages).not.toContain(name);
  });
});
