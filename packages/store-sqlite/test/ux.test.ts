import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, KnowingError } from '@knowing/graph';
import { createSqliteStore } from '../src/index.js';
import { nativeBindingError } from '../src/errors.js';
import { openDatabase } from '../src/open.js';
import type { OpenSettings } from '../src/open.js';

const scratch = mkdtempSync(join(tmpdir(), 'knowing-store-ux-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => {
  const dir = join(scratch, `case-${n++}`);
  mkdirSync(dir);
  return dir;
};

async function failure(promise: Promise<unknown>): Promise<KnowingError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(KnowingError);
    return error as KnowingError;
  }
  throw new Error('expected a KnowingError, but the call succeeded');
}

const settings = (path: string, nativeBinding: string): OpenSettings => ({
  path,
  readonly: false,
  busyTimeoutMs: 1000,
  cacheSizeKib: 1024,
  mmapSizeBytes: 0,
  walLimitBytes: 1 << 20,
  nativeBinding,
});

/** An existing, non-empty SQLite file, so that opening it goes straight to the driver. */
function sqliteFile(dir: string): string {
  const path = join(dir, 'graph.db');
  const db = new Database(path);
  db.exec('CREATE TABLE t (x)');
  db.close();
  return path;
}

/** better-sqlite3 as pnpm 10 leaves it when its build script was not approved: no .node file. */
function unbuiltBetterSqlite(): string {
  const root = join(fresh(), 'node_modules');
  const requireHere = createRequire(import.meta.url);
  const packageDir = dirname(realpathSync(requireHere.resolve('better-sqlite3/package.json')));
  const bindings = dirname(realpathSync(createRequire(join(packageDir, 'package.json')).resolve('bindings')));
  const fileUri = dirname(realpathSync(createRequire(join(bindings, 'package.json')).resolve('file-uri-to-path')));
  mkdirSync(join(root, 'better-sqlite3'), { recursive: true });
  cpSync(join(packageDir, 'package.json'), join(root, 'better-sqlite3', 'package.json'));
  cpSync(join(packageDir, 'lib'), join(root, 'better-sqlite3', 'lib'), { recursive: true });
  cpSync(bindings, join(root, 'bindings'), { recursive: true });
  cpSync(fileUri, join(root, 'file-uri-to-path'), { recursive: true });
  return join(root, 'better-sqlite3');
}

function expectBindingAdvice(error: KnowingError): void {
  expect(error.code).toBe(ErrorCode.Internal);
  expect(error.message).toContain('better_sqlite3.node');
  expect(error.message).toContain('cannot be loaded');
  expect(error.hint).toContain('rebuild better-sqlite3');
  expect(error.message).not.toMatch(/bug in knowing/);
}

describe('a native binding that does not load names the fix, not a bug', () => {
  it('an unbuilt better-sqlite3 (pnpm 10 without approve-builds), in a real second process', async () => {
    const copy = unbuiltBetterSqlite();
    const dir = fresh();
    const db = sqliteFile(dir);
    const hooks = join(dir, 'redirect-hooks.mjs');
    writeFileSync(
      hooks,
      `export async function resolve(specifier, context, next) {\n` +
        `  if (specifier === 'better-sqlite3') return { url: ${JSON.stringify(pathToFileURL(join(copy, 'lib', 'index.js')).href)}, format: 'commonjs', shortCircuit: true };\n` +
        `  return next(specifier, context);\n}\n`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const index = pathToFileURL(fileURLToPath(new URL('../src/index.ts', import.meta.url))).href;
    const script =
      `import { createSqliteStore } from ${JSON.stringify(index)};\n` +
      `try { await createSqliteStore({ path: ${JSON.stringify(db)} }); console.log('{"opened":true}'); }\n` +
      `catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, hint: e.hint, cause: String(e.cause?.message ?? '') })); }\n`;
    const tsHooks = fileURLToPath(new URL('./support/register-ts.mjs', import.meta.url));
    const child = spawn(process.execPath, ['--conditions=@knowing/source', '--import', tsHooks, '--import', pathToFileURL(register).href, '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { code: string; message: string; hint: string; cause: string };
    expect(result, stderr).toHaveProperty('code');
    // The driver's own error, not an imitation of it.
    expect(result.cause).toContain('Could not locate the bindings file');
    expect(result.code).toBe(ErrorCode.Internal);
    expect(result.message).toContain('was not built');
    expect(result.hint).toContain('pnpm approve-builds');
    expect(result.hint).toContain('npm rebuild better-sqlite3');
    expect(result.message).not.toMatch(/bug in knowing/);
  }, 60_000);

  it('a file that is not a loadable library (ERR_DLOPEN_FAILED from the dynamic loader)', async () => {
    const dir = fresh();
    const binding = join(dir, 'better_sqlite3.node');
    writeFileSync(binding, 'not a shared object\n');
    const error = await failure(openDatabase(settings(sqliteFile(dir), binding)));
    expectBindingAdvice(error);
    expect((error.cause as { code?: string }).code).toBe('ERR_DLOPEN_FAILED');
    expect(error.hint).toContain('another platform');
  });

  it('a binding file that is missing', async () => {
    const dir = fresh();
    const error = await failure(openDatabase(settings(sqliteFile(dir), join(dir, 'gone', 'better_sqlite3.node'))));
    expectBindingAdvice(error);
  });

  it('a binding built for another Node.js (NODE_MODULE_VERSION)', () => {
    // Node's own wording (src/node_binding.cc); producing it for real needs a second Node.js.
    const abi = Object.assign(
      new Error(
        "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
          'was compiled against a different Node.js version using\n' +
          'NODE_MODULE_VERSION 108. This version of Node.js requires\n' +
          'NODE_MODULE_VERSION 115. Please try re-compiling or re-installing\n' +
          'the module (for instance, using `npm rebuild` or `npm install`).',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const error = nativeBindingError(abi)!;
    expectBindingAdvice(error);
    expect(error.message).toContain('NODE_MODULE_VERSION 108');
    expect(error.message).toContain('needs 115');
  });

  it('leaves other errors alone', () => {
    expect(nativeBindingError(new Error('disk I/O error'))).toBeUndefined();
    expect(nativeBindingError('a string')).toBeUndefined();
  });
});

describe('a file that is not a knowing index', () => {
  it('not SQLite at all: says so, points at --db, advises no deletion and leaves the file as it was', async () => {
    const path = join(fresh(), 'notes.txt');
    writeFileSync(path, 'my notes, not a database\n'.repeat(200));
    const error = await failure(createSqliteStore({ path }));
    expect(error.code).toBe(ErrorCode.NotADatabase);
    expect(error.message).toContain('is not a SQLite database, so not a knowing index');
    expect(error.hint).toContain('--db');
    expect(`${error.message} ${error.hint}`).not.toMatch(/delete|rm -|remove/i);
    expect(readFileSync(path, 'utf8')).toBe('my notes, not a database\n'.repeat(200));
  });

  it("knowing's own .knowing/graph.db overwritten with junk is a damaged index, with the way to rebuild it", async () => {
    const dir = join(fresh(), '.knowing');
    mkdirSync(dir);
    const path = join(dir, 'graph.db');
    writeFileSync(path, 'x'.repeat(4096));
    const error = await failure(createSqliteStore({ path }));
    expect(error.code).toBe(ErrorCode.NotADatabase);
    expect(error.message).toContain('damaged');
    expect(error.hint).toContain('knowing index');
  });

  it("another application's SQLite database: points at --db and advises no deletion", async () => {
    const path = join(fresh(), 'app.db');
    const db = new Database(path);
    db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    const error = await failure(createSqliteStore({ path }));
    expect(error.code).toBe(ErrorCode.NotADatabase);
    expect(error.message).toContain('not a knowing index');
    expect(error.hint).toContain('--db');
    expect(`${error.message} ${error.hint}`).not.toMatch(/delete|rm -|remove/i);
  });
});
