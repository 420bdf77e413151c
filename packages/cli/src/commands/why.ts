import type { GraphNode } from '@knowing/graph';
import type { SymbolExplanation } from '@knowing/engine';
import { positiveInteger, readTask, stringValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { CliError, CliErrorCode, ExitCode, usageError } from '../errors.js';
import { engineFor, modelWarning } from '../engine.js';
import { openFreshIndex } from '../freshen.js';
import { formatScore, plural, table } from '../text.js';
import { requireTask } from './context.js';

const STAGE_TEXT: Readonly<Record<SymbolExplanation['stage'], string>> = {
  packed: 'in the answer',
  ranked: 'ranked, but the budget left it out',
  below_cutoff: 'reached by the walk, but scored below the cutoff',
  not_reached: 'in the graph, but neither found by any channel nor reached by the walk',
  not_in_graph: 'no symbol with that name in the index',
};

export async function runWhy(ctx: CommandContext): Promise<ExitCode> {
  const symbol = stringValue(ctx.values, 'symbol');
  if (symbol === undefined || symbol.trim() === '') {
    throw usageError(symbol === undefined ? '--symbol is required' : '--symbol is empty', 'name the symbol, e.g. --symbol Cart.total');
  }
  const budget = positiveInteger(stringValue(ctx.values, 'budget'), '--budget');
  // Read last among the checks: a bad flag should not wait for (or swallow) stdin.
  const task = requireTask(await readTask(ctx));
  const index = await openFreshIndex(ctx);
  try {
    const engine = await engineFor(index, modelWarning(ctx));
    const defaults = index.loaded.config.defaults ?? {};
    const effectiveBudget = budget ?? defaults.budget;
    const explanation = await engine.explainSymbol(task, symbol.trim(), effectiveBudget !== undefined ? { budget: effectiveBudget } : {});
    if (!explanation.symbol) throw notFound(explanation);
    const candidates = distinctNames(explanation.matches);
    if (candidates.length > 1) throw ambiguous(explanation.query, candidates);
    if (ctx.out.json) {
      ctx.out.printJson(explanation);
      return ExitCode.Ok;
    }
    for (const line of report(explanation)) ctx.out.line(line);
    return ExitCode.Ok;
  } finally {
    await index.close();
  }
}

/** `bookshop/cart.py.Cart.total (method, bookshop/cart.py:29)`. */
function candidateLine(node: GraphNode): string {
  return `  ${node.qualifiedName} (${node.kind}${node.file ? `, ${node.file}:${node.startLine}` : ''})`;
}

/** One node per qualified name: overloads share a name and cannot be told apart by it. */
function distinctNames(nodes: readonly GraphNode[]): GraphNode[] {
  const byName = new Map<string, GraphNode>();
  for (const node of nodes) if (!byName.has(node.qualifiedName)) byName.set(node.qualifiedName, node);
  return [...byName.values()];
}

const NAME_FORMS = 'a bare name (total), Type.member (Cart.total) or a qualified name (bookshop/cart.py.Cart.total)';

function notFound(e: SymbolExplanation): CliError {
  const closest = e.suggestions;
  if (closest.length === 0) {
    return new CliError(
      ExitCode.NotFound,
      CliErrorCode.SymbolNotFound,
      `no symbol named "${e.query}" in the index, nor one with a similar name`,
      `check the spelling (${NAME_FORMS}); \`knowing stats\` shows what is indexed`,
    );
  }
  return new CliError(
    ExitCode.NotFound,
    CliErrorCode.SymbolNotFound,
    [`no symbol named "${e.query}" in the index; the closest names:`, ...closest.map(candidateLine)].join('\n'),
    `pass one of them with --symbol, e.g. --symbol ${closest[0]!.qualifiedName}`,
  );
}

/** Above this many candidates the list is cut (the count says how many there are). */
const MAX_CANDIDATES = 20;

function ambiguous(query: string, candidates: readonly GraphNode[]): CliError {
  const shown = [...candidates].sort((a, b) => a.qualifiedName.localeCompare(b.qualifiedName)).slice(0, MAX_CANDIDATES);
  const more = candidates.length - shown.length;
  return new CliError(
    ExitCode.Usage,
    CliErrorCode.AmbiguousSymbol,
    [
      `"${query}" is ambiguous: ${candidates.length} symbols have that name`,
      ...shown.map(candidateLine),
      ...(more > 0 ? [`  … and ${more} more`] : []),
    ].join('\n'),
    `name one of them with its qualified name, e.g. --symbol ${shown[0]!.qualifiedName}`,
  );
}

/** The explanation as lines for a person. */
export function report(e: SymbolExplanation): string[] {
  const lines: string[] = [`Why ${e.query} for "${oneLine(e.task)}"`, ''];
  if (!e.symbol) {
    lines.push(`  ${STAGE_TEXT.not_in_graph}.`);
    return lines;
  }
  const s = e.symbol;
  const rows: string[][] = [
    ['symbol', `${s.qualifiedName} (${s.kind}${s.file ? `, ${s.file}:${s.startLine}-${s.endLine}` : ''})`],
    ['stage', `${e.stage}: ${STAGE_TEXT[e.stage]}`],
    ['rank', e.rank !== null ? `${e.rank}${e.score !== null ? `, score ${formatScore(e.score)}` : ''}` : 'not ranked'],
    [
      'seed',
      e.seed ? `yes: weight ${formatScore(e.seed.weight)}, ${e.seed.origin}, via ${e.seed.channels.join(', ') || 'no channel'}` : 'no',
    ],
    ['channels', channelText(e.channelDetails)],
    ['walk', e.walk ? `score ${formatScore(e.walk.score)}, ${e.walk.hops < 0 ? 'hops unknown' : e.walk.hops === 0 ? 'a seed itself' : `${plural(e.walk.hops, 'hop')} from a seed`}` : 'not reached'],
    ['HITS', e.hits ? `hub ${formatScore(e.hits.hub)}, authority ${formatScore(e.hits.authority)}` : 'not computed for it'],
    ['forced', e.forced ? 'yes: injected by a strong framework-vocabulary match' : 'no'],
    ['classes', e.matchedClasses.length > 0 ? e.matchedClasses.join(', ') : 'none matched the task'],
  ];
  lines.push(...table(rows, '  '));
  const components = Object.entries(e.components);
  if (components.length > 0) {
    lines.push('', '  score components:');
    lines.push(...table(components.map(([name, value]) => [name, formatScore(value)]), '    '));
  }
  // The learned ranker's per-feature shares of its logit, largest first.
  const factors = Object.entries(e.factors ?? {}).filter(([, value]) => Math.abs(value) >= 0.005);
  if (factors.length > 0) {
    factors.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
    lines.push('', '  features (share of the learned score):');
    lines.push(...table(factors.map(([name, value]) => [name, formatScore(value)]), '    '));
  }
  lines.push('', '  keywords:');
  const k = e.keywords;
  const keywordRows: string[][] = [];
  if (k.priority.length) keywordRows.push(['priority', k.priority.join(', ')]);
  if (k.exact.length) keywordRows.push(['exact', k.exact.join(', ')]);
  if (k.compounds.length) keywordRows.push(['compounds', k.compounds.join(', ')]);
  if (k.components.length) keywordRows.push(['components', k.components.join(', ')]);
  lines.push(...(keywordRows.length ? table(keywordRows, '    ') : ['    none']));
  if (e.matches.length > 1) {
    lines.push('', `  ${e.matches.length} symbols share the name ${s.qualifiedName}; explained the best placed. Others:`);
    for (const m of e.matches.filter((m) => m.id !== s.id).slice(0, 10)) lines.push(`    ${m.qualifiedName} (${m.kind}${m.file ? `, ${m.file}:${m.startLine}` : ''})`);
  }
  return lines;
}

/** A task read from a file may run to pages: the heading shows its start, on one line. */
function oneLine(task: string): string {
  const flat = task.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
}

function channelText(details: SymbolExplanation['channelDetails']): string {
  const entries = Object.entries(details);
  if (entries.length === 0) return 'none found it directly';
  return entries.map(([channel, detail]) => `${channel} (${detail})`).join(', ');
}
