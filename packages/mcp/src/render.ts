import type { GraphNode } from '@knowing/graph';
import type { SymbolExplanation } from '@knowing/engine';
import type { IndexProgress, IndexSummary } from '@knowing/indexer';
import type { Freshness, FinishedRun, RunKind } from './freshness.js';

const code = (text: string): string => {
  const clean = text.replace(/\s+/g, ' ').trim();
  const fence = clean.includes('`') ? '``' : '`';
  return `${fence}${fence === '``' ? ' ' : ''}${clean}${fence === '``' ? ' ' : ''}${fence}`;
};

const num = (value: number, digits = 3): string => (Number.isInteger(value) ? String(value) : value.toFixed(digits));

function location(node: GraphNode): string {
  if (!node.file) return 'external';
  return node.startLine > 0 ? `${node.file}:${node.startLine}-${node.endLine}` : node.file;
}

const STAGE_TEXT: Record<SymbolExplanation['stage'], string> = {
  packed: 'in the answer',
  ranked: 'ranked, but cut by the token budget',
  below_cutoff: 'reached by the graph walk, but scored below the cutoff',
  not_reached: 'in the index, but neither a seed nor reached by the graph walk',
  not_in_graph: 'not in the index',
};

/** The `explain_symbol` report. */
export function renderExplanation(explanation: SymbolExplanation, suggestions: readonly GraphNode[]): string {
  const { symbol } = explanation;
  const lines: string[] = [];
  lines.push(`# ${code(explanation.query)} for the task ${JSON.stringify(explanation.task)}`, '');
  if (!symbol) {
    lines.push(`**Verdict:** ${STAGE_TEXT.not_in_graph} — no symbol is named ${code(explanation.query)}.`);
    if (suggestions.length > 0) {
      lines.push('', 'Similar names in the index:');
      for (const node of suggestions) lines.push(`- ${code(node.qualifiedName)} (${node.kind}, ${location(node)})`);
    } else {
      lines.push('', 'Check the spelling, use a qualified name (`path/file.py.Class.method`), or run `reindex` if the symbol is new.');
    }
    return `${lines.join('\n')}\n`;
  }
  const rank = explanation.rank === null ? '' : `, rank ${explanation.rank}`;
  const score = explanation.score === null ? '' : `, score ${num(explanation.score)}`;
  lines.push(`**Verdict:** ${explanation.stage} — ${STAGE_TEXT[explanation.stage]}${rank}${score}.`, '');
  lines.push(`- Symbol: ${code(symbol.qualifiedName)} (${symbol.kind}) at ${location(symbol)}`);
  if (symbol.signature) lines.push(`- Signature: ${code(symbol.signature)}`);
  if (symbol.isTest) lines.push('- Test code (ranked lower unless the task is about tests)');
  lines.push('', '## How it was found', '');
  const channels = Object.entries(explanation.channelDetails);
  lines.push(channels.length > 0 ? `- Retrieval channels: ${channels.map(([name, detail]) => `${name} (${detail})`).join(', ')}` : '- Retrieval channels: none matched it');
  lines.push(
    explanation.seed
      ? `- Walk seed: weight ${num(explanation.seed.weight)}, from ${explanation.seed.origin} candidates (${explanation.seed.channels.join(', ') || 'no channel'})`
      : '- Walk seed: no',
  );
  if (explanation.forced) lines.push('- Injected by a strong framework vocabulary match');
  lines.push(explanation.walk ? `- Graph walk: score ${num(explanation.walk.score)}, ${explanation.walk.hops} hop(s) from the nearest seed` : '- Graph walk: not reached');
  if (explanation.hits) lines.push(`- HITS: hub ${num(explanation.hits.hub)}, authority ${num(explanation.hits.authority)}`);
  const components = Object.entries(explanation.components).filter(([, value]) => value !== 0);
  if (components.length > 0) {
    lines.push('', '## Score components', '', '| component | value |', '|---|---|');
    for (const [name, value] of components.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))) lines.push(`| ${name} | ${num(value)} |`);
  }
  lines.push('', '## The task as the engine read it', '');
  const { keywords } = explanation;
  const list = (words: readonly string[]): string => (words.length > 0 ? words.map(code).join(', ') : '—');
  lines.push(`- Exact identifiers: ${list(keywords.exact)}`);
  lines.push(`- Compound identifiers: ${list(keywords.compounds)}`);
  lines.push(`- Words: ${list(keywords.components)}`);
  if (explanation.matchedClasses.length > 0) lines.push(`- Vocabulary concepts: ${explanation.matchedClasses.join(', ')}`);
  const others = explanation.matches.filter((node) => node.id !== symbol.id);
  if (others.length > 0) {
    lines.push('', `## Other symbols named ${code(explanation.query)}`, '');
    for (const node of others.slice(0, 10)) lines.push(`- ${code(node.qualifiedName)} (${node.kind}, ${location(node)})`);
    if (others.length > 10) lines.push(`- … and ${others.length - 10} more`);
  }
  return `${lines.join('\n')}\n`;
}

function byType(record: Readonly<Record<string, number>>): string {
  const entries = Object.entries(record).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return entries.length > 0 ? entries.map(([type, count]) => `${type} ${count}`).join(', ') : 'none';
}

/** The `reindex` answer (and the first-index note). */
export function renderSummary(kind: RunKind, summary: IndexSummary): string {
  const { files, timings } = summary;
  const lines = [
    `Indexed ${summary.root} (${kind} run) in ${(timings.totalMs / 1000).toFixed(2)} s.`,
    `- files: ${files.discovered} discovered, ${files.parsed} parsed, ${files.unchanged} unchanged, ${files.deleted} deleted, ${files.written} written`,
    `- graph: ${summary.nodes} nodes, ${summary.edges} edges (${summary.externalNodes} external placeholders)`,
    `- edges by type: ${byType(summary.edgesByType)}`,
    `- snapshot: ${summary.snapshot ? `${summary.snapshot.id} (generation ${summary.snapshot.generation})` : 'none'}`,
    `- timings: discover ${timings.discoverMs} ms, parse ${timings.parseMs} ms, resolve ${timings.resolveMs} ms, write ${timings.writeMs} ms`,
  ];
  const skipped = Object.entries(summary.skippedByReason);
  if (skipped.length > 0) lines.push(`- skipped: ${skipped.map(([reason, count]) => `${reason} ${count}`).join(', ')}`);
  if (summary.syntaxErrors.length > 0) lines.push(`- files with syntax errors (indexed as far as they parse): ${summary.syntaxErrors.length}`);
  for (const warning of summary.warnings.slice(0, 10)) lines.push(`- warning: ${warning}`);
  if (summary.warnings.length > 10) lines.push(`- … and ${summary.warnings.length - 10} more warnings`);
  return `${lines.join('\n')}\n`;
}

/** A one-line note about an index run that preceded an answer. */
export function runNote(run: FinishedRun): string {
  const ms = run.summary.timings.totalMs;
  const seconds = ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
  if (run.kind === 'initial') {
    return `note: knowing indexed this repository for the first time (${run.summary.files.discovered} files, ${run.summary.nodes} nodes, ${seconds}); later calls re-index only changed files.`;
  }
  return `note: re-indexed ${run.summary.files.parsed} changed file(s) (${run.stale} stale) in ${seconds} before answering.`;
}

function progressText(progress: IndexProgress | null): string {
  if (!progress) return 'starting';
  return progress.total > 0 ? `${progress.phase} ${progress.done}/${progress.total}` : progress.phase;
}

/** The answer while an index run outlasts the wait. */
export function pendingText(freshness: Extract<Freshness, { ready: false }>): string {
  if (!freshness.indexed) {
    return (
      `knowing is indexing this repository for the first time (${progressText(freshness.progress)}). ` +
      'On a large repository this may take a while; call the tool again in a few seconds — or call index_status to follow the progress.\n'
    );
  }
  return `note: a ${freshness.kind} index run is still going (${progressText(freshness.progress)}); this answer comes from the previous index and may miss the latest edits.`;
}
