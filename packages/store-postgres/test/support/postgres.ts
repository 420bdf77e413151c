// A throw-away PostgreSQL server for tests and benchmarks: Debian's `postgresql` binaries,
// a cluster initialised in a temporary directory, listening on a free loopback port.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running throw-away server. */
export interface TestPostgres {
  /** Connection string of the test database (user `knowing`, no password). */
  readonly url: string;
  readonly port: number;
  /** Stops the server and removes its directory. */
  stop(): void;
}

/** Why no server could be started (the tests skip with this message). */
export class PostgresUnavailable extends Error {}

const PACKAGE = 'postgresql';

/** The bin directory of the newest PostgreSQL under /usr/lib/postgresql with initdb and pg_ctl. */
function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Install Debian's postgresql package (root only); failures leave the caller to skip. */
function install(log: (line: string) => void): string | undefined {
  if (!isRoot()) throw new PostgresUnavailable(`PostgreSQL is not installed and this user cannot install it: run \`apt-get install -y ${PACKAGE}\` as root`);
  if (spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0) {
    throw new PostgresUnavailable(`PostgreSQL is not installed and apt-get is missing: install the ${PACKAGE} package (initdb, pg_ctl) another way`);
  }
  log(`[store-postgres tests] initdb/pg_ctl not found under /usr/lib/postgresql: installing the Debian package ${PACKAGE}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', PACKAGE]]) {
    const result = spawnSync('apt-get', args, { env, stdio: 'ignore', timeout: 600_000 });
    if (result.status !== 0) {
      throw new PostgresUnavailable(
        `apt-get ${args.join(' ')} failed (exit ${String(result.status)}; no network to the Debian mirror?): install the ${PACKAGE} package to run these tests`,
      );
    }
  }
  return findBinDir();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Start a server: install Debian's `postgresql` when missing (as root), `initdb` a cluster in
 * a temporary directory (as the `postgres` user when running as root: the server refuses root),
 * start it on a free port with durability off (a test cluster is thrown away) and create a
 * database. Throws {@link PostgresUnavailable} when that cannot be done.
 */
export async function startPostgres(options: { readonly log?: (line: string) => void; readonly database?: string } = {}): Promise<TestPostgres> {
  const log = options.log ?? (() => {});
  const bin = findBinDir() ?? install(log);
  if (bin === undefined) throw new PostgresUnavailable(`the ${PACKAGE} package installed no initdb/pg_ctl under /usr/lib/postgresql`);

  const dir = mkdtempSync(join(tmpdir(), 'knowing-pg-'));
  let asUser: string[] = [];
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    asUser = ['runuser', '-u', 'postgres', '--'];
  }
  const run = (tool: string, args: string[]): void => {
    const command = [...asUser, join(bin, tool), ...args];
    const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', timeout: 120_000 });
    if (result.status !== 0) throw new Error(`${tool} failed (exit ${String(result.status)}): ${result.stderr || result.stdout}`);
  };
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-U', 'knowing', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses='127.0.0.1'",
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=50',
      '-c shared_buffers=128MB',
    ].join(' ');
    run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const stop = (): void => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const database = options.database ?? 'knowing_test';
  try {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'knowing', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://knowing@127.0.0.1:${port}/${database}`, port, stop };
}

/**
 * {@link startPostgres} for a test file of another package: the server, or why there is none
 * (said once on stderr, for the file's `describe.skipIf` title). Stop the server in `afterAll`.
 */
export async function startPostgresOrSkip(database: string, label: string): Promise<{ readonly server: TestPostgres | undefined; readonly skipReason: string }> {
  try {
    return { server: await startPostgres({ database }), skipReason: '' };
  } catch (error) {
    if (!(error instanceof PostgresUnavailable)) throw error;
    process.stderr.write(`[${label}] skipped: ${error.message}\n`);
    return { server: undefined, skipReason: error.message };
  }
}
