import { createLanguageRegistry, indexRepository } from '@knowing/indexer';
import type { IndexSummary } from '@knowing/indexer';
import { warmGraph } from '@knowing/engine/warm';
import { booleanValue, listValue, stringValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import type { Output } from '../io.js';
import { createProgress } from '../progress.js';
import { existingDirectory, refuseBroadRoot, resolveRepoRoot } from '../repo.js';
import { locate, openWritableIndex } from '../session.js';
import { countList, formatInt, formatMs, plural, table } from '../text.js';
import { markLightRun } from '../run-weight.js';

function workersValue(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw usageError(`--workers must be a whole number ≥ 0, got "${raw}"`, 'for example --workers 2, or 0 to parse in the main thread');
  return Number(raw.trim());
}

export async function runIndex(ctx: CommandContext): Promise<ExitCode> {
  const { out } = ctx;
  const path = ctx.positionals[0];
  const root = path !== undefined ? existingDirectory(path, ctx.cwd, 'repository') : resolveRepoRoot(ctx.repo, ctx.cwd);
  refuseBroadRoot(root, booleanValue(ctx.values, 'force'));
  const location = await locate(ctx, root);
  const defaults = location.loaded.config.defaults ?? {};
  const languages = listValue(ctx.values, 'languages') ?? (defaults.languages ? [...defaults.languages] : undefined);
  if (languages !== undefined && languages.length === 0) throw usageError('--languages is empty', 'name at least one language, e.g. --languages python');
  // Check the names before creating a database for a run that cannot happen.
  if (languages) createLanguageRegistry({ languages });
  const workers = workersValue(stringValue(ctx.values, 'workers')) ?? defaults.workers;

  const progress = createProgress(out.stderr, { enabled: !out.quiet && !out.json, now: ctx.now });
  // The SQLite file (kept out of git), or the repository's schema in PostgreSQL (--store).
  const index = await openWritableIndex(location, ctx.cwd);
  const { store } = index;
  let summary: IndexSummary;
  const signal = ctx.io.signal;
  try {
    summary = await indexRepository({
      root,
      store,
      ...(languages ? { languages } : {}),
      ...(booleanValue(ctx.values, 'full') ? { full: true } : {}),
      ...(workers !== undefined ? { workers } : {}),
      onProgress: progress.onProgress,
      ...(signal ? { signal } : {}),
    });
    // Build the walk's adjacency and communities now (stored as notes for this snapshot), so the
    // first query neither waits for them nor walks without the community restriction. The warm
    // entry loads the walk alone, not the whole engine.
    if (!signal?.aborted) await warmGraph(store);
    // Nothing parsed, nothing written: the run compiled little of the indexer.
    if (summary.files.parsed === 0 && summary.write === null) markLightRun();
  } finally {
    progress.finish();
    await index.close();
  }
  // The write is one synchronous transaction: a Ctrl-C during it is seen only once it committed,
  // and only after the event loop has polled for the signal once.
  if (signal && !signal.aborted) await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
  if (signal?.aborted) {
    throw new CliError(ExitCode.Interrupted, 'INTERRUPTED', 'interrupted after the new index was written; it is complete and in use');
  }

  if (out.json) {
    out.printJson({ database: location.postgres ? location.postgres.shown : location.dbPath, ...(index.repository !== null ? { repository: index.repository } : {}), ...summary });
    return ExitCode.Ok;
  }
  if (!out.quiet) printSummary(out, summary, index.shown, ctx);
  return ExitCode.Ok;
}

function printSummary(out: Output, s: IndexSummary, database: string, ctx: CommandContext): void {
  const skipped = Object.values(s.skippedByReason).reduce((a, b) => a + (b ?? 0), 0);
  const rows: string[][] = [
    ['files', `${formatInt(s.files.discovered)} indexed: ${formatInt(s.files.parsed)} parsed, ${formatInt(s.files.unchanged)} unchanged, ${formatInt(s.files.deleted)} removed`],
    ['nodes', `${formatInt(s.nodes)} (${countList(s.nodesByKind, 6)})`],
    ['edges', `${formatInt(s.edges)} (${countList(s.edgesByType, 6)})`],
  ];
  if (skipped > 0) rows.push(['skipped', `${formatInt(skipped)} (${countList(s.skippedByReason as Record<string, number>)})`]);
  if (s.syntaxErrors.length > 0) {
    const listed = s.syntaxErrors.slice(0, 5).map((f) => `${f.path} (${f.errors})`).join(', ');
    rows.push(['syntax', `errors recovered from in ${plural(s.syntaxErrors.length, 'file')}: ${listed}${s.syntaxErrors.length > 5 ? ', …' : ''}`]);
  }
  rows.push(['time', `${formatMs(s.timings.totalMs)} (parse ${formatMs(s.timings.parseMs)}, resolve ${formatMs(s.timings.resolveMs)}, write ${formatMs(s.timings.writeMs)})`]);
  rows.push(['database', `${database}${s.snapshot ? ` (snapshot ${s.snapshot.id.slice(0, 12)})` : ''}`]);
  out.line(`Indexed ${s.root} (${s.repoId})`);
  for (const line of table(rows, '  ')) out.line(line);
  for (const warning of s.warnings.slice(0, 10)) out.warn(warning);
  if (s.warnings.length > 10) out.warn(`${s.warnings.length - 10} more warnings (see --json)`);
  if (s.files.discovered === 0) {
    out.note('no source files found; check the path, --languages, and your .gitignore');
  } else {
    out.note('next: knowing context --task "what you want to change"');
  }
}
