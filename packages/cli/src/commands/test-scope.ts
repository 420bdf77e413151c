import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { testCommands } from '@knowing/engine';
import type { TestScopeResult } from '@knowing/engine';
import { listValue, positiveInteger, stringValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { ExitCode, usageError } from '../errors.js';
import { changedFiles } from '../repo.js';
import { engineFor, modelWarning } from '../engine.js';
import { openFreshIndex } from '../freshen.js';
import { plural } from '../text.js';
import { indexedFiles } from './context.js';

const FORMATS = ['list', 'json', 'run'] as const;
type ScopeFormat = (typeof FORMATS)[number];

function scopeFormat(ctx: CommandContext): ScopeFormat {
  const flag = stringValue(ctx.values, 'format');
  if (ctx.out.json) {
    if (flag !== undefined && flag !== 'json') throw usageError(`--json and --format ${flag} disagree`, 'use one of them; --json is the same as --format json');
    return 'json';
  }
  if (flag === undefined) return 'list';
  const normalized = flag.trim().toLowerCase();
  if (!(FORMATS as readonly string[]).includes(normalized)) throw usageError(`unknown format "${flag}" for test-scope`, `known formats: ${FORMATS.join(', ')}`);
  return normalized as ScopeFormat;
}

export async function runTestScope(ctx: CommandContext): Promise<ExitCode> {
  const format = scopeFormat(ctx);
  const depth = positiveInteger(stringValue(ctx.values, 'depth'), '--depth');
  const fileFlag = listValue(ctx.values, 'files');
  const base = stringValue(ctx.values, 'base');
  if (fileFlag !== undefined && base !== undefined) throw usageError('--files and --base cannot be combined', '--base picks changed files from git; --files names them');
  if (fileFlag !== undefined && fileFlag.length === 0) throw usageError('--files is empty', 'name at least one file, e.g. --files src/cart.py');

  const index = await openFreshIndex(ctx);
  try {
    let files: string[];
    if (fileFlag !== undefined) {
      files = await indexedFiles(ctx, index, fileFlag);
    } else {
      files = await changedFiles(index.root, base ?? 'HEAD');
      ctx.out.note(files.length === 0 ? `no files changed against ${base ?? 'HEAD'}` : `${plural(files.length, 'changed file')} against ${base ?? 'HEAD'}`);
    }
    const result: TestScopeResult =
      files.length === 0
        ? { files: [], changedSymbols: 0, tests: [], testFiles: [] }
        : await (await engineFor(index, modelWarning(ctx))).testScope(files, depth !== undefined ? { depth } : {});
    print(ctx, format, result, testCommands(result.tests, { projectRoot: projectRootIn(index.root) }));
    return ExitCode.Ok;
  } finally {
    await index.close();
  }
}

function print(ctx: CommandContext, format: ScopeFormat, result: TestScopeResult, commands: readonly string[]): void {
  const { out } = ctx;
  if (format === 'json') {
    out.printJson({
      files: result.files,
      changedSymbols: result.changedSymbols,
      testFiles: result.testFiles,
      tests: result.tests.map((hit) => ({
        name: hit.test.name,
        qualifiedName: hit.test.qualifiedName,
        file: hit.test.file,
        line: hit.test.startLine,
        language: hit.test.language,
        runner: hit.runner,
        id: hit.id,
        reaches: hit.reaches.map((r) => ({ qualifiedName: r.symbol.qualifiedName, depth: r.depth })),
      })),
      commands,
    });
    return;
  }
  if (format === 'run') {
    for (const command of commands) out.line(command);
    if (result.tests.length === 0) out.note('no tests reach the changed symbols');
    return;
  }
  if (result.tests.length === 0) {
    out.line(
      result.files.length === 0
        ? 'No changed files.'
        : `No tests reach the ${plural(result.changedSymbols, 'symbol')} of ${plural(result.files.length, 'file')}.`,
    );
    return;
  }
  out.line(`${plural(result.tests.length, 'test')} in ${plural(result.testFiles.length, 'file')} reach the ${plural(result.changedSymbols, 'symbol')} of ${plural(result.files.length, 'changed file')}:`);
  for (const file of result.testFiles) {
    out.line('');
    out.line(file);
    for (const hit of result.tests.filter((t) => t.test.file === file)) {
      const reaches = hit.reaches
        .slice(0, 3)
        .map((r) => `${shortName(r.symbol.qualifiedName, r.symbol.file)} (${r.depth === 0 ? 'changed' : `depth ${r.depth}`})`)
        .join(', ');
      // Runners that take whole files (Jest, RSpec…) have the file itself as the test.
      const test = hit.test.kind === 'file' ? 'the whole file' : `${shortName(hit.test.qualifiedName, file)}:${hit.test.startLine}`;
      out.line(`  ${test}  → ${reaches}${hit.reaches.length > 3 ? ', …' : ''}`);
    }
  }
}

/** The qualified name without its file prefix: `Cart.total` for `bookshop/cart.py.Cart.total`. */
function shortName(qualifiedName: string, file: string): string {
  return file && qualifiedName.startsWith(`${file}.`) ? qualifiedName.slice(file.length + 1) : qualifiedName;
}

/** The repo-relative directory of a path, `''` at the root. */
function parentDir(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}

/**
 * The nearest directory, from the file's own up to the repository root, holding one of the
 * markers: the project whose configuration the test runner reads.
 */
function projectRootIn(root: string): (file: string, markers: readonly string[]) => string {
  const found = new Map<string, string>();
  const lookup = (dir: string, markers: readonly string[]): string => {
    const key = `${markers.join(',')}\0${dir}`;
    let project = found.get(key);
    if (project === undefined) {
      project = dir === '' || markers.some((marker) => existsSync(join(root, dir, marker))) ? dir : lookup(parentDir(dir), markers);
      found.set(key, project);
    }
    return project;
  };
  return (file, markers) => lookup(parentDir(file), markers);
}
