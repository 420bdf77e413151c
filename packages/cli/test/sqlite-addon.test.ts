import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const bindings = require('../src/sqlite-addon.cjs') as ((name: string) => { Database?: unknown }) & { loadFrom(root: string, name: string): unknown };
const scratch = mkdtempSync(join(tmpdir(), 'knowing-sqlite-addon-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the bindings stand-in of the context bundle', () => {
  it('loads better-sqlite3\'s built addon', () => {
    expect(typeof bindings('better_sqlite3.node').Database).toBe('function');
  });

  it('an unbuilt better-sqlite3 fails as `bindings` itself reports it, which the store turns into its install hint', () => {
    const betterSqlite = dirname(realpathSync(require.resolve('better-sqlite3/package.json')));
    const fromBetterSqlite = createRequire(join(betterSqlite, 'package.json'));
    const bindingsDir = dirname(realpathSync(fromBetterSqlite.resolve('bindings')));
    const fileUri = dirname(realpathSync(createRequire(join(bindingsDir, 'package.json')).resolve('file-uri-to-path')));
    const root = join(scratch, 'node_modules', 'better-sqlite3');
    mkdirSync(root, { recursive: true });
    cpSync(join(betterSqlite, 'package.json'), join(root, 'package.json'));
    cpSync(bindingsDir, join(scratch, 'node_modules', 'bindings'), { recursive: true });
    cpSync(fileUri, join(scratch, 'node_modules', 'file-uri-to-path'), { recursive: true });
    expect(() => bindings.loadFrom(root, 'better_sqlite3.node')).toThrow(/Could not locate the bindings file/);
  });
});
