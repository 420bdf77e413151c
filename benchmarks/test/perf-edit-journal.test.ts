import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFile, journalFor, restorePendingEdit } from '../src/edit-journal.js';

describe('edit journal (benchmark edits of corpus files)', () => {
  let dir: string;
  let file: string;
  let journal: string;
  const original = 'def f():\n    return 1\n';
  const mtime = new Date('2020-01-02T03:04:05Z');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perf-edit-test-'));
    file = join(dir, 'app.py');
    journal = join(dir, 'edit.json');
    writeFileSync(file, original);
    utimesSync(file, mtime, mtime);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends the edit and restores bytes and modification time', () => {
    const edit = editFile(file, '\n# edited\n', journal);
    expect(readFileSync(file, 'utf8')).toBe(`${original}\n# edited\n`);
    expect(existsSync(journal)).toBe(true);
    edit.restore();
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(statSync(file).mtimeMs).toBe(mtime.getTime());
    expect(existsSync(journal)).toBe(false);
    edit.restore(); // idempotent
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('restores from the journal alone, as the parent does after a killed child', () => {
    editFile(file, '\n# edited\n', journal);
    // the editing process dies here: only the journal is left
    expect(restorePendingEdit(journal)).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(restorePendingEdit(journal)).toBeNull();
  });

  /** Runs `body` in a fresh Node process after it edited the file; returns how that process ended. */
  function editInChild(body: string): { status: number | null; signal: string | null; stderr: string } {
    const module = JSON.stringify(new URL('../src/edit-journal.ts', import.meta.url).href);
    const script = [
      `const { editFile, restoreOnExit } = await import(${module});`,
      `const file = ${JSON.stringify(file)}, journal = ${JSON.stringify(journal)};`,
      body.replace('EDIT', `editFile(file, ${JSON.stringify('\n# edited\n')}, journal);`),
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    return { status: run.status, signal: run.signal, stderr: run.stderr };
  }

  it('restores a file edited by a process killed with SIGKILL, from the journal alone', () => {
    const run = editInChild(`EDIT\nprocess.kill(process.pid, 'SIGKILL');`);
    expect(run.signal).toBe('SIGKILL');
    expect(readFileSync(file, 'utf8')).toBe(`${original}\n# edited\n`);
    expect(restorePendingEdit(journal)).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it.each(['SIGINT', 'SIGTERM'])('a process that calls restoreOnExit puts the file back on %s and exits 130', (signal) => {
    const run = editInChild(`restoreOnExit(journal);\nEDIT\nprocess.kill(process.pid, '${signal}');\nsetTimeout(() => {}, 10_000);`);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(130);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(existsSync(journal)).toBe(false);
  });

  it('a process that calls restoreOnExit puts the file back when it exits normally mid-edit', () => {
    const run = editInChild(`restoreOnExit(journal);\nEDIT\nprocess.exitCode = 3;`);
    expect(run.status).toBe(3);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('a second edit first puts back a pending one, so the original is never lost', () => {
    editFile(file, '\n# one\n', journal);
    const second = editFile(file, '\n# two\n', journal);
    expect(readFileSync(file, 'utf8')).toBe(`${original}\n# two\n`);
    second.restore();
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('names one journal per checkout, stable across runs', () => {
    expect(journalFor('/work/corpus/flask')).toBe(journalFor('/work/corpus/flask'));
    expect(journalFor('/work/corpus/flask')).not.toBe(journalFor('/work/corpus/cargo'));
  });
});
