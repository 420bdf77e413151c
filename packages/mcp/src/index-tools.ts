import { progressSender, registerTool, textResult } from './connection.js';
import type { Connection } from './connection.js';
import { invalidArgument } from './errors.js';
import { staleCount } from './freshness.js';
import type { StaleReport } from './freshness.js';
import { renderSummary } from './render.js';
import { indexStatusInput, indexStatusOutput, reindexInput } from './schemas.js';
import type { IndexStatus } from './schemas.js';

const MAX_STALE_LISTED = 50;
/** The stale report of a server that does not index (it has no working tree to compare). */
const NO_STALE = Object.freeze({ discovered: 0, changed: [] as string[], added: [] as string[], deleted: [] as string[], touched: 0, checkMs: 0 });

async function indexStatus(connection: Connection): Promise<IndexStatus> {
  const { keeper, store, indexing, root, dbPath } = connection.host;
  const indexed = await keeper.indexed();
  const [repo, snapshot, counts] = await Promise.all([store.repo(), store.currentSnapshot(), store.counts()]);
  const stale: StaleReport = indexing ? await keeper.stale() : NO_STALE;
  const running = keeper.running;
  return {
    repo_root: root,
    db_path: dbPath,
    indexed,
    repo_id: repo?.id ?? null,
    commit: repo?.commit ?? null,
    last_indexed: repo?.indexedAt ? new Date(repo.indexedAt).toISOString() : null,
    snapshot: snapshot?.id ?? null,
    files: counts.files,
    nodes: counts.nodes,
    edges: counts.edges,
    edges_by_type: { ...counts.edgesByType },
    nodes_by_kind: { ...counts.nodesByKind },
    stale_files: staleCount(stale),
    stale: {
      changed: stale.changed.slice(0, MAX_STALE_LISTED),
      added: stale.added.slice(0, MAX_STALE_LISTED),
      deleted: stale.deleted.slice(0, MAX_STALE_LISTED),
    },
    check_ms: stale.checkMs,
    indexing: running
      ? { kind: running.kind, phase: running.progress?.phase ?? null, done: running.progress?.done ?? 0, total: running.progress?.total ?? 0 }
      : null,
    session: connection.sessionId,
  };
}

function statusText(s: IndexStatus): string {
  const lines = [
    `repository: ${s.repo_root}${s.repo_id ? ` (id ${s.repo_id}${s.commit ? `, commit ${s.commit.slice(0, 12)}` : ''})` : ''}`,
    `database: ${s.db_path ?? '(custom store)'}`,
    `indexed: ${s.indexed ? `yes, last at ${s.last_indexed ?? 'unknown'}` : 'no — the first context call (or reindex) builds the index'}`,
    `snapshot: ${s.snapshot ?? 'none'}`,
    `files: ${s.files}, nodes: ${s.nodes}, edges: ${s.edges}`,
    `edges by type: ${Object.entries(s.edges_by_type).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}`,
    `stale files: ${s.stale_files} (${s.stale.changed.length} changed, ${s.stale.added.length} new, ${s.stale.deleted.length} deleted${s.stale_files > 0 ? '; the next context call re-indexes them' : ''}; checked in ${s.check_ms} ms)`,
  ];
  for (const [label, files] of [['changed', s.stale.changed], ['new', s.stale.added], ['deleted', s.stale.deleted]] as const) {
    if (files.length > 0) lines.push(`  ${label}: ${files.slice(0, 10).join(', ')}${files.length > 10 ? ', …' : ''}`);
  }
  if (s.indexing) lines.push(`indexing now: ${s.indexing.kind} run, ${s.indexing.phase ?? 'starting'} ${s.indexing.done}/${s.indexing.total}`);
  lines.push(`session: ${s.session}`);
  return `${lines.join('\n')}\n`;
}

/** The tools about the index itself: what it holds, and a run of the indexer on demand. */
export function registerIndexTools(connection: Connection): void {
  const { keeper, indexing, indexWaitMs } = connection.host;

  registerTool(
    connection,
    'index_status',
    {
      title: 'Index status',
      description:
        'What the index holds: files, nodes, edges by type, when it was last indexed, its snapshot, and how many files changed on disk since (stale files are re-indexed by the next context call).',
      inputSchema: indexStatusInput,
      outputSchema: indexStatusOutput,
    },
    async () => {
      const s = await indexStatus(connection);
      return { content: [{ type: 'text', text: statusText(s) }], structuredContent: s };
    },
  );

  registerTool(
    connection,
    'reindex',
    {
      title: 'Re-index the repository',
      description: 'Run the indexer now: only changed files by default, every file with full: true. Returns what it did.',
      inputSchema: reindexInput,
    },
    async (args, extra) => {
      if (!indexing) throw invalidArgument('this server does not index the repository: it answers from a store another process keeps current', 'run `knowing index --store …` where the repository is checked out (a CI job on push)');
      const onProgress = progressSender(extra);
      const freshness = await keeper.reindex(args.full ?? false, { waitMs: indexWaitMs, ...(onProgress ? { onProgress } : {}) });
      if (!freshness.ready) {
        const progress = freshness.progress;
        const where = progress ? `${progress.phase} ${progress.done}/${progress.total}` : 'starting';
        return textResult(`The ${freshness.kind} index run is still going (${where}); it continues in the background. Call index_status to follow it.\n`);
      }
      const run = freshness.run!;
      return textResult(renderSummary(run.kind, run.summary));
    },
  );
}
