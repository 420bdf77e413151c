/**
 * The index in PostgreSQL (`--store postgres://…`): a throw-away server from Debian's
 * postgresql package (store-postgres's test support), the bookshop fixture indexed into it and
 * into SQLite, the same answers from both, incremental runs, and `knowing serve` over it.
 * Skipped, saying why, when no PostgreSQL can be started (as the store-postgres tests are).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresOrSkip } from '../../store-postgres/test/support/postgres.js';
import { fixtureRepo, knowing, removeScratch } from './helpers.js';
import { McpHttpSession, serve } from './serve-client.js';

const STORE_POSTGRES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'store-postgres');

const { server, skipReason } = await startPostgresOrSkip('knowing_cli_test', 'cli postgres tests');

afterAll(() => {
  server?.stop();
  removeScratch();
});

const TASK = 'apply a discount code to the cart total';

interface ContextJson {
  readonly symbols: readonly { readonly qualified_name: string }[];
}

interface IndexJson {
  readonly database: string;
  readonly repository?: string;
  readonly files: { readonly parsed: number; readonly unchanged: number };
}

function parse<T>(result: { code: number; stdout: string; stderr: string }): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

describe.skipIf(server === undefined)(`knowing with --store postgres://…${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let repo: string;
  let url: string;

  beforeAll(async () => {
    repo = fixtureRepo('knowing-pg-');
    url = `${server!.url}?repository=bookshop`;
  });

  it('indexes into PostgreSQL and into SQLite, and `context --format json` ranks the same symbols in the same order from both', async () => {
    const intoPostgres = parse<IndexJson>(await knowing(['index', '--store', url, '--json'], { cwd: repo }));
    expect(intoPostgres.database).toBe(server!.url);
    expect(intoPostgres.repository).toBe('bookshop');
    const intoSqlite = parse<IndexJson>(await knowing(['index', '--json'], { cwd: repo }));
    expect(intoPostgres.files.parsed).toBe(intoSqlite.files.parsed);

    const fromPostgres = parse<ContextJson>(await knowing(['context', '--task', TASK, '--format', 'json', '--store', url], { cwd: repo }));
    const fromSqlite = parse<ContextJson>(await knowing(['context', '--task', TASK, '--format', 'json'], { cwd: repo }));
    const names = (pack: ContextJson): string[] => pack.symbols.map((symbol) => symbol.qualified_name);
    expect(names(fromPostgres).length).toBeGreaterThan(5);
    expect(names(fromPostgres)).toEqual(names(fromSqlite));
    expect(names(fromPostgres).slice(0, 3)).toContain('bookshop/cart.py.Cart.total');
  });

  it('re-indexes one edited file incrementally, as with SQLite, and answers with it', async () => {
    appendFileSync(join(repo, 'bookshop', 'cart.py'), '\n\ndef gift_wrap_the_order(cart):\n    """Wrap every book of the cart as a gift."""\n    return cart\n');
    const again = parse<IndexJson>(await knowing(['index', '--store', url, '--json'], { cwd: repo }));
    expect(again.files.parsed).toBe(1);
    expect(again.files.unchanged).toBeGreaterThan(5);
    const sqlite = parse<IndexJson>(await knowing(['index', '--json'], { cwd: repo }));
    expect(sqlite.files.parsed).toBe(1);

    const task = 'gift wrap the order';
    const fromPostgres = parse<ContextJson>(await knowing(['context', '--task', task, '--format', 'json', '--store', url], { cwd: repo }));
    const fromSqlite = parse<ContextJson>(await knowing(['context', '--task', task, '--format', 'json'], { cwd: repo }));
    expect(fromPostgres.symbols[0]?.qualified_name).toBe('bookshop/cart.py.gift_wrap_the_order');
    expect(fromPostgres.symbols.map((s) => s.qualified_name)).toEqual(fromSqlite.symbols.map((s) => s.qualified_name));
  });

  it('answers why, stats and test-scope from PostgreSQL', async () => {
    const why = await knowing(['why', '--task', TASK, '--symbol', 'Cart.total', '--store', url], { cwd: repo });
    expect(why.code, why.stderr).toBe(0);
    expect(why.stdout).toContain('bookshop/cart.py.Cart.total');
    const stats = parse<{ database: { url: string; schema: string }; files: number }>(await knowing(['stats', '--json', '--store', url], { cwd: repo }));
    expect(stats.database.url).toBe(server!.url);
    expect(stats.database.schema).toMatch(/^knowing_bookshop_[0-9a-f]{8}$/);
    expect(stats.files).toBeGreaterThan(5);
    const scope = await knowing(['test-scope', '--files', 'bookshop/cart.py', '--format', 'json', '--store', url], { cwd: repo });
    expect(scope.code, scope.stderr).toBe(0);
    expect(scope.stdout).toContain('tests/test_cart.py');
  });

  it('takes the store from knowing.config.json, and --db overrides it', async () => {
    const other = fixtureRepo('knowing-pg-config-');
    writeFileSync(join(other, 'knowing.config.json'), JSON.stringify({ store: `${server!.url}?repository=configured` }));
    const indexed = parse<IndexJson>(await knowing(['index', '--json'], { cwd: other }));
    expect(indexed.repository).toBe('configured');
    expect((await knowing(['context', '--task', TASK, '--format', 'json'], { cwd: other })).code).toBe(0);
    // --db names the SQLite file, which nobody has indexed yet.
    expect((await knowing(['context', '--task', TASK, '--db', join(other, 'none.db')], { cwd: other })).code).toBe(3);
  });

  it('says there is no index yet (exit 3) for a repository the database does not hold, and creates nothing for it', async () => {
    const missing = await knowing(['context', '--task', TASK, '--store', `${server!.url}?repository=never-indexed`], { cwd: repo });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('holds no index of repository never-indexed');
    expect(missing.stderr).toContain(`knowing index --store '${server!.url}?repository=never-indexed'`);
    // pg is store-postgres's dependency, not the CLI's: resolved from there.
    const pg = createRequire(join(STORE_POSTGRES, 'package.json'))('pg') as {
      Client: new (options: { connectionString: string }) => { connect(): Promise<void>; query<T>(text: string): Promise<{ rows: T[] }>; end(): Promise<void> };
    };
    const client = new pg.Client({ connectionString: server!.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name LIKE 'knowing_never_indexed%'");
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('refuses --store with --db, and a URL that is not PostgreSQL (exit 2)', async () => {
    const both = await knowing(['stats', '--store', url, '--db', 'x.db'], { cwd: repo });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--store and --db cannot be combined');
    const sqlite = await knowing(['stats', '--store', 'sqlite:///tmp/x.db'], { cwd: repo });
    expect(sqlite.code).toBe(2);
    expect(sqlite.stderr).toContain('is not a PostgreSQL URL');
  });

  it('serves a checkout and a store-only repository over HTTP from PostgreSQL', async () => {
    const token = 'pg-serve-token-0123456789';
    const serving = await serve(['--store', server!.url, '--checkout', `bookshop=${repo}`, '--repository', 'configured'], { cwd: repo, env: { KNOWING_TOKENS: `${token} write` } });
    try {
      const [checkout, storeOnly] = serving.listening.repositories;
      expect(checkout!.store).toBe(`${server!.url} (repository bookshop)`);
      expect(storeOnly!.checkout).toBeNull();
      const fromCheckout = await McpHttpSession.open(checkout!.endpoint, token);
      const answer = await fromCheckout.callTool('context_for_task', { task_description: 'gift wrap the order', format: 'json' });
      expect(answer.text).toContain('bookshop/cart.py.gift_wrap_the_order');
      const fromStore = await McpHttpSession.open(storeOnly!.endpoint, token);
      const stored = await fromStore.callTool('context_for_task', { task_description: TASK, format: 'json' });
      expect(stored.isError).toBe(false);
      expect(stored.text).toContain('bookshop/cart.py.Cart.total');
      const refused = await fromStore.callTool('reindex');
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('does not index the repository');
    } finally {
      serving.child.kill('SIGTERM');
      expect(await serving.exited).toBe(0);
    }
  });
});
