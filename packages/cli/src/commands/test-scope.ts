import { posix } from 'node:path';
import type { TestHit, TestScopeResult } from '@knowing/engine';
import { listValue, positiveInteger, stringValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { ExitCode, usageError } from '../errors.js';
import { changedFiles } from '../repo.js';
import { engineFor, modelWarning } from '../engine.js';
import { openIndex } from '../session.js';
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

  const index = await openIndex(ctx);
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
    print(ctx, format, result);
    return ExitCode.Ok;
  } finally {
    await index.close();
  }
}

function print(ctx: CommandContext, format: ScopeFormat, result: TestScopeResult): void {
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
        id: runnerId(hit),
        reaches: hit.reaches.map((r) => ({ qualifiedName: r.symbol.qualifiedName, depth: r.depth })),
      })),
      commands: runCommands(result.tests),
    });
    return;
  }
  if (format === 'run') {
    for (const command of runCommands(result.tests)) out.line(command);
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
        .map((r) => `${shortName(r.symbol.qualifiedName, r.symbol.file)} (depth ${r.depth})`)
        .join(', ');
      out.line(`  ${shortName(hit.test.qualifiedName, file)}:${hit.test.startLine}  → ${reaches}${hit.reaches.length > 3 ? ', …' : ''}`);
    }
  }
}

/** The qualified name without its file prefix: `Cart.total` for `bookshop/cart.py.Cart.total`. */
function shortName(qualifiedName: string, file: string): string {
  return file && qualifiedName.startsWith(`${file}.`) ? qualifiedName.slice(file.length + 1) : qualifiedName;
}

/** How the language's usual runner names one test, when it has such a name. */
function runnerId(hit: TestHit): string {
  const { test } = hit;
  if (test.language === 'python') return `${test.file}::${shortName(test.qualifiedName, test.file).split('.').join('::')}`;
  return test.name;
}

function shellQuote(text: string): string {
  return /^[\w./:@=+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Commands that run exactly these tests: pytest node ids, `go test -run` per package, `cargo
 * test` with the names; for languages without a rule, the test files one per line.
 */
export function runCommands(tests: readonly TestHit[]): string[] {
  const byLanguage = new Map<string, TestHit[]>();
  for (const hit of tests) byLanguage.set(hit.test.language, [...(byLanguage.get(hit.test.language) ?? []), hit]);
  const commands: string[] = [];
  for (const [language, hits] of [...byLanguage.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (language === 'python') {
      commands.push(`pytest ${[...new Set(hits.map(runnerId))].map(shellQuote).join(' ')}`);
    } else if (language === 'go') {
      const byPackage = new Map<string, Set<string>>();
      for (const hit of hits) {
        const dir = posix.dirname(hit.test.file);
        byPackage.set(dir, (byPackage.get(dir) ?? new Set()).add(hit.test.name));
      }
      for (const [dir, names] of [...byPackage.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
        const pattern = `^(${[...names].sort().map(escapeRegExp).join('|')})$`;
        commands.push(`go test ./${dir === '.' ? '' : dir} -run ${shellQuote(pattern)}`.replace('./ ', '. '));
      }
    } else if (language === 'rust') {
      commands.push(`cargo test -- ${[...new Set(hits.map((h) => h.test.name))].sort().map(shellQuote).join(' ')}`);
    } else {
      commands.push(...new Set(hits.map((h) => h.test.file)));
    }
  }
  return commands;
}
