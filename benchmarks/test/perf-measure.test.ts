import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtCliBin, builtIndexerDist, editComment, listRepos } from '../src/perf-measure.js';

describe('benchmark set-up checks', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perf-measure-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing CLI build names the file and the command that builds it', () => {
    const packages = join(dir, 'packages');
    expect(() => builtCliBin(packages)).toThrow(`${join(packages, 'cli/dist/bin.cjs')} is missing — build the CLI and its dependencies first: \`pnpm --filter knowing... build\` (in ${dir})`);
    mkdirSync(join(packages, 'cli/dist'), { recursive: true });
    writeFileSync(join(packages, 'cli/dist/bin.cjs'), '');
    expect(builtCliBin(packages)).toBe(join(packages, 'cli/dist/bin.cjs'));
  });

  it('the indexer build needs its worker file as well as its index', () => {
    const packages = join(dir, 'packages');
    mkdirSync(join(packages, 'indexer/dist'), { recursive: true });
    writeFileSync(join(packages, 'indexer/dist/index.js'), '');
    expect(() => builtIndexerDist(packages)).toThrow(/indexer\/dist\/worker\.js is missing — build the indexer first: `pnpm --filter @knowing\/indexer build`/);
    writeFileSync(join(packages, 'indexer/dist/worker.js'), '');
    expect(builtIndexerDist(packages)).toBe(join(packages, 'indexer/dist/index.js'));
  });

  it('lists the corpus directories, sorted, without dot-directories or files', () => {
    for (const name of ['spark-java', 'flask', '.knowing-bench']) mkdirSync(join(dir, name));
    writeFileSync(join(dir, 'README.md'), '');
    expect(listRepos(dir, undefined)).toEqual(['flask', 'spark-java']);
  });

  it('keeps the order of named repositories and fails on one that is not there', () => {
    for (const name of ['spark-java', 'flask']) mkdirSync(join(dir, name));
    expect(listRepos(dir, ['spark-java', 'flask'])).toEqual(['spark-java', 'flask']);
    expect(() => listRepos(dir, ['flask', 'cargo'])).toThrow(`${join(dir, 'cargo')} does not exist`);
    expect(() => listRepos(join(dir, 'nope'), undefined)).toThrow(/corpus .*nope does not exist/);
  });
});

describe('editComment', () => {
  it('writes a comment in the language of the file, so the edit changes no symbol', () => {
    expect(editComment('src/flask/app.py', 'x')).toBe('\n# knowing benchmark edit x\n');
    expect(editComment('lib/jekyll/site.rb', 'x')).toMatch(/^\n# /);
    expect(editComment('src/main/java/spark/Spark.java', 'x')).toMatch(/^\n\/\/ /);
    expect(editComment('modules/caddyhttp/server.go', 'x')).toMatch(/^\n\/\/ /);
  });
});
