import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import { indexFileFilter } from '../src/git.js';
import { LruMap } from '../src/lru.js';
import { PathGuard } from '../src/paths.js';

describe('PathGuard', () => {
  let dir: string;
  let root: string;
  let guard: PathGuard;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'knowing-paths-'));
    root = path.join(dir, 'repo');
    mkdirSync(path.join(root, 'src', 'pkg'), { recursive: true });
    writeFileSync(path.join(root, 'src', 'pkg', 'a.py'), 'x = 1\n');
    writeFileSync(path.join(dir, 'outside.py'), 'y = 2\n');
    symlinkSync(path.join(root, 'src', 'pkg'), path.join(root, 'alias'));
    symlinkSync(path.join(dir, 'outside.py'), path.join(root, 'escape.py'));
    // The root itself reached through a link, as /tmp → /private/tmp on macOS.
    symlinkSync(root, path.join(dir, 'root-link'));
    guard = await PathGuard.create(path.join(dir, 'root-link'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const rejected = async (input: string): Promise<string> => {
    const error = await guard.check(input, 'files[0]').catch((e: unknown) => e);
    expect(isKnowingError(error, ErrorCode.InvalidArgument), String(error)).toBe(true);
    return (error as Error).message;
  };

  it('resolves relative paths, ./ and backslashes to repo-relative paths', async () => {
    expect((await guard.check('src/pkg/a.py', 'f')).relative).toBe('src/pkg/a.py');
    expect((await guard.check('./src/./pkg/../pkg/a.py', 'f')).relative).toBe('src/pkg/a.py');
    expect((await guard.check('src\\pkg\\a.py', 'f')).relative).toBe('src/pkg/a.py');
  });

  it('accepts absolute paths inside the root under either spelling of it', async () => {
    expect((await guard.check(path.join(root, 'src/pkg/a.py'), 'f')).relative).toBe('src/pkg/a.py');
    expect((await guard.check(path.join(dir, 'root-link', 'src/pkg/a.py'), 'f')).relative).toBe('src/pkg/a.py');
  });

  it('records a file reached through an in-repo link under its real path', async () => {
    expect((await guard.check('alias/a.py', 'f')).relative).toBe('src/pkg/a.py');
  });

  it('accepts a path that does not exist (a deleted file), checking its existing ancestors', async () => {
    expect((await guard.check('src/pkg/deleted.py', 'f')).relative).toBe('src/pkg/deleted.py');
    expect(await rejected('escape.py/../../outside.py')).toContain('outside the repository root');
  });

  it('accepts names that merely start with two dots: only a segment equal to .. goes up', async () => {
    expect((await guard.check('..dotdot.py', 'f')).relative).toBe('..dotdot.py');
    expect((await guard.check('src/..hidden/..x.py', 'f')).relative).toBe('src/..hidden/..x.py');
    expect((await guard.check('...', 'f')).relative).toBe('...');
    expect((await guard.check(path.join(root, '..dotdot.py'), 'f')).relative).toBe('..dotdot.py');
    expect(await rejected('..')).toContain('outside the repository root');
    expect(await rejected('../..dotdot.py')).toContain('outside the repository root');
    expect(await rejected('src/../../..dotdot.py')).toContain('outside the repository root');
    expect(await rejected('..\\outside.py')).toContain('outside the repository root');
  });

  it('names a database path inside the root relative to it, under either spelling of the root', () => {
    expect(guard.relativeInside(path.join(root, '.knowing', 'graph.db'))).toBe('.knowing/graph.db');
    expect(guard.relativeInside(path.join(dir, 'root-link', '..index.db'))).toBe('..index.db');
    expect(guard.relativeInside(path.join(dir, 'elsewhere.db'))).toBeUndefined();
    expect(guard.relativeInside(root)).toBeUndefined();
  });

  it('rejects .., absolute paths elsewhere, escaping links, the root itself and empty or NUL paths', async () => {
    expect(await rejected('../outside.py')).toMatch(/^\[knowing:mcp\] files\[0\] "\.\.\/outside\.py" resolves to .*outside\.py, outside the repository root/);
    expect(await rejected(path.join(dir, 'outside.py'))).toContain('outside the repository root');
    expect(await rejected('escape.py')).toMatch(/goes through a symbolic link to .*outside\.py, outside the repository root/);
    expect(await rejected('.')).toContain('is the repository root itself');
    expect(await rejected('  ')).toContain('files[0] is empty');
    expect(await rejected('a\0b')).toContain('NUL');
  });
});

describe('indexFileFilter', () => {
  it('matches the index directory and a database with its -wal, -shm and -journal files, nothing else', () => {
    const isIndexFile = indexFileFilter({ directories: ['.knowing'], databases: ['data/knowing.db'] });
    for (const file of ['.knowing/graph.db', '.knowing/graph.db-wal', '.knowing/model.json', 'data/knowing.db', 'data/knowing.db-wal', 'data/knowing.db-shm', 'data/knowing.db-journal']) {
      expect(isIndexFile(file), file).toBe(true);
    }
    for (const file of ['.knowingignore', '.knowing.py', 'data/knowing.db.py', 'data/knowing.db-old', 'src/.knowing/x.py', 'knowing.db']) {
      expect(isIndexFile(file), file).toBe(false);
    }
  });
});

describe('LruMap', () => {
  it('forgets the least recently used entry beyond its capacity', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.has('b')).toBe(false);
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });
});
