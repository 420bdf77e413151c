import type { FreshnessReport } from '@knowing/indexer/fresh';
import { booleanValue } from './args.js';
import type { CommandContext } from './command.js';
import { toFailure } from './errors.js';
import { createProgress } from './progress.js';
import { openIndex } from './session.js';
import type { OpenIndex } from './session.js';
import { formatMs, plural } from './text.js';

// Freshness by default: the commands that answer from the index (context, why, viz,
// test-scope) first check whether files changed since it was built and re-index just those.
// The check comes from @knowing/indexer/fresh, which loads neither the parsers nor the
// language modules: a few milliseconds when nothing changed. Only a change loads the indexer.

/** What {@link freshen} did. */
export type FreshenOutcome =
  /** --no-refresh, --reindex (just done), `defaults.refresh: false`, or a shared (PostgreSQL) store. */
  | { readonly kind: 'skipped' }
  /** Checked; nothing to re-index. */
  | { readonly kind: 'fresh'; readonly report: FreshnessReport }
  /** Files changed, but the index cannot be written: answered from it as it is. */
  | { readonly kind: 'read-only'; readonly report: FreshnessReport }
  /** Re-indexed (`ms` covers the check and the run). */
  | { readonly kind: 'refreshed'; readonly report: FreshnessReport; readonly ms: number }
  /** The index run failed: answered from the index as it is. */
  | { readonly kind: 'failed'; readonly report: FreshnessReport; readonly message: string };

/**
 * {@link openIndex}, brought up to date first: files changed, added or deleted since the index
 * was built are re-indexed before the command answers (see {@link freshen}).
 */
export async function openFreshIndex(ctx: CommandContext): Promise<OpenIndex> {
  const index = await openIndex(ctx);
  try {
    await freshen(ctx, index);
    return index;
  } catch (error) {
    await index.close().catch(() => {});
    throw error;
  }
}

/**
 * Whether this run checks the index: not with --no-refresh, after --reindex, with
 * `defaults.refresh: false`, or for a PostgreSQL store, which a team shares (built by CI): one
 * checkout's uncommitted edits are not for everyone's answers.
 */
function refreshWanted(ctx: CommandContext, index: OpenIndex): boolean {
  if (booleanValue(ctx.values, 'no-refresh') || booleanValue(ctx.values, 'reindex')) return false;
  if (index.postgres) return false;
  return index.loaded.config.defaults?.refresh !== false;
}

/**
 * Re-index what changed since the index was built, in the open index, with the languages and
 * workers of the config (as `knowing index`, `watch` and the hooks do). One note on stderr says
 * what was re-indexed and how long it took. A read-only index is left as it is, with a note; a
 * failed run is a warning, and the command answers from the index as it was.
 */
export async function freshen(ctx: CommandContext, index: OpenIndex): Promise<FreshenOutcome> {
  if (!refreshWanted(ctx, index)) return { kind: 'skipped' };
  // process.uptime, not performance.now: the global `performance` loads Node's perf_hooks on
  // first use, a cost every default query would pay for this one timing.
  const started = process.uptime();
  const defaults = index.loaded.config.defaults ?? {};
  const languages = defaults.languages && defaults.languages.length > 0 ? defaults.languages : undefined;
  // Loaded here, so that --no-refresh loads none of the indexer.
  const { checkFreshness, staleFileCount } = await import('@knowing/indexer/fresh');
  const report = await checkFreshness({ root: index.root, store: index.store, ...(languages ? { languages } : {}), ...(ctx.io.signal ? { signal: ctx.io.signal } : {}) });
  const stale = staleFileCount(report);
  // Besides stale files, a run is worth it when it saves later checks work: files whose times
  // moved are read by every check until a run records the times, and without the indexer's
  // state every file is.
  if (stale === 0 && report.touched.length === 0 && report.stateUsable) return { kind: 'fresh', report };
  if (index.store.readonly) {
    if (stale > 0) ctx.out.note(`${plural(stale, 'file')} changed since the index was built, but it is read-only: answering from it as it is`);
    return { kind: 'read-only', report };
  }
  // Loaded only now: the indexer brings the parser runtime and the grammars (~100 ms).
  const { indexRepository } = await import('@knowing/indexer');
  const progress = createProgress(ctx.out.stderr, { enabled: !ctx.out.quiet && !ctx.out.json, now: ctx.now });
  try {
    await indexRepository({
      root: index.root,
      store: index.store,
      ...(languages ? { languages } : {}),
      ...(defaults.workers !== undefined ? { workers: defaults.workers } : {}),
      // Edits in place are all the check found: the run looks at those files alone instead of
      // walking the tree again. A file gone from the walk may be newly ignored, which only a
      // walk tells (and a new file walks anyway).
      ...(report.added.length === 0 && report.deleted.length === 0 ? { changedPaths: [...report.changed, ...report.touched] } : {}),
      onProgress: progress.onProgress,
      ...(ctx.io.signal ? { signal: ctx.io.signal } : {}),
    });
  } catch (error) {
    progress.finish();
    if (ctx.io.signal?.aborted) throw error;
    const { message } = toFailure(error);
    // A run only to record times or rebuild the bookkeeping changes no answer: no need to say.
    if (stale > 0) ctx.out.warn(`could not re-index ${plural(stale, 'changed file')} (${message}); answering from the index as it was`);
    return { kind: 'failed', report, message };
  }
  progress.finish();
  const ms = (process.uptime() - started) * 1000;
  if (stale > 0) ctx.out.note(`${refreshedText(report)} in ${formatMs(ms)}`);
  else if (!report.stateUsable) ctx.out.note(`brought the index's file records up to date in ${formatMs(ms)}`);
  return { kind: 'refreshed', report, ms };
}

/** `re-indexed 1 changed file`, `re-indexed 2 changed files and 1 new file, removed 1 deleted file from the index`. */
function refreshedText(report: FreshnessReport): string {
  const indexed: string[] = [];
  if (report.changed.length > 0) indexed.push(plural(report.changed.length, 'changed file'));
  if (report.added.length > 0) indexed.push(plural(report.added.length, 'new file'));
  const parts: string[] = [];
  if (indexed.length > 0) parts.push(`re-indexed ${indexed.join(' and ')}`);
  if (report.deleted.length > 0) parts.push(`removed ${plural(report.deleted.length, 'deleted file')} from the index`);
  return parts.join(', ');
}
