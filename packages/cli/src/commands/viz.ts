import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PipelineTrace } from '@knowing/engine';
import type { RankedSymbol } from '@knowing/graph';
import { positiveInteger, readTask, stringValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { CliError, ExitCode } from '../errors.js';
import { displayPath } from '../repo.js';
import { engineFor, modelWarning } from '../engine.js';
import { openFreshIndex } from '../freshen.js';
import { formatInt, formatScore } from '../text.js';
import { renderVizPage } from '../viz-page.js';
import type { VizData, VizNode } from '../viz-page.js';
import { requireTask } from './context.js';

export async function runViz(ctx: CommandContext): Promise<ExitCode> {
  const task = requireTask(await readTask(ctx));
  const budgetFlag = positiveInteger(stringValue(ctx.values, 'budget'), '--budget');
  const outFile = resolve(ctx.cwd, stringValue(ctx.values, 'out') ?? 'knowing-viz.html');
  const index = await openFreshIndex(ctx);
  let data: VizData;
  try {
    const engine = await engineFor(index, modelWarning(ctx));
    const budget = budgetFlag ?? index.loaded.config.defaults?.budget;
    const result = await engine.forTask(task, { trace: true, ...(budget !== undefined ? { budget } : {}) });
    data = vizData(task, index.root, result.pack.symbols, result.pack.edges, result.ranked, result.trace, {
      tokensUsed: result.pack.tokensUsed,
      tokenBudget: result.pack.tokenBudget,
      generatedAt: new Date(ctx.now()).toISOString(),
    });
  } finally {
    await index.close();
  }
  try {
    writeFileSync(outFile, renderVizPage(data));
  } catch (error) {
    throw new CliError(
      ExitCode.PathNotFound,
      'PATH_NOT_FOUND',
      `cannot write ${outFile} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      'choose another --out path in an existing, writable directory',
    );
  }
  if (ctx.out.json) {
    ctx.out.printJson({ file: outFile, symbols: data.nodes.length, edges: data.edges.length, tokensUsed: data.tokensUsed, tokenBudget: data.tokenBudget });
  } else {
    ctx.out.line(outFile);
    ctx.out.note(`${formatInt(data.nodes.length)} symbols and ${formatInt(data.edges.length)} edges drawn; open ${displayPath(outFile, ctx.cwd)} in a browser`);
  }
  return ExitCode.Ok;
}

function vizData(
  task: string,
  repository: string,
  symbols: readonly RankedSymbol[],
  edges: readonly { readonly source: string; readonly target: string; readonly type: string }[],
  ranked: readonly RankedSymbol[],
  trace: PipelineTrace | undefined,
  extra: { readonly tokensUsed: number; readonly tokenBudget: number; readonly generatedAt: string },
): VizData {
  const rankOf = new Map(ranked.map((s, i) => [s.node.id, i + 1]));
  const keywords = trace ? [...new Set([...trace.keywords.priority, ...trace.keywords.exact, ...trace.keywords.compounds, ...trace.keywords.components])] : [];
  const nodes: VizNode[] = symbols.map((s) => {
    const id = s.node.id;
    const seed = trace?.seeds.find((x) => x.node.id === id);
    const channels: Record<string, string> = {};
    if (trace) {
      for (const [name, hits] of Object.entries(trace.channels)) {
        const hit = hits.find((h) => h.node.id === id);
        if (hit) channels[name] = hit.detail;
      }
    }
    const walk = trace?.walk.get(id) ?? null;
    const hits = trace?.hits.get(id) ?? null;
    const forced = trace?.forced.some((n) => n.id === id) ?? false;
    const node: Omit<VizNode, 'why'> = {
      id,
      name: s.node.name,
      qualifiedName: s.node.qualifiedName,
      kind: s.node.kind,
      file: s.node.file,
      startLine: s.node.startLine,
      endLine: s.node.endLine,
      signature: s.node.signature,
      doc: s.node.doc,
      rank: rankOf.get(id) ?? 0,
      score: s.score,
      distance: s.distance,
      rwr: s.rwr,
      components: s.components,
      provenance: s.provenance ?? null,
      seed: seed ? { weight: seed.weight, origin: seed.origin, channels: [...seed.channels] } : null,
      channels,
      walk: walk ? { score: walk.score, hops: walk.hops } : null,
      hits: hits ? { hub: hits.hub, authority: hits.authority } : null,
      forced,
    };
    return { ...node, why: whyText(node) };
  });
  return {
    task,
    repository,
    ranked: ranked.length,
    keywords,
    matchedClasses: trace ? trace.matchedClasses.map((m) => m.concept) : [],
    nodes,
    edges: edges.map((e) => ({ source: e.source, target: e.target, type: e.type })),
    ...extra,
  };
}

/** One or two sentences: how the symbol got into the answer. */
function whyText(n: Omit<VizNode, 'why'>): string {
  const parts: string[] = [];
  if (n.forced) parts.push('Injected by a strong match of a framework vocabulary class.');
  const channelText = Object.entries(n.channels).map(([c, d]) => `${c} (${d})`).join(', ');
  if (n.seed) {
    const via = n.seed.origin === 'interface' ? 'as an implementor of a matched interface' : n.seed.origin === 'path' ? 'from a matching path' : `by ${channelText || n.seed.channels.join(', ')}`;
    parts.push(`A seed of the walk: found ${via}, seed weight ${formatScore(n.seed.weight)}.`);
  } else if (channelText) {
    parts.push(`Found by ${channelText} but not made a seed.`);
  }
  if (!n.seed && n.walk) {
    parts.push(`Reached by the random walk ${n.walk.hops} hop${n.walk.hops === 1 ? '' : 's'} from a seed (walk score ${formatScore(n.walk.score)}).`);
  } else if (!n.seed && !channelText) {
    parts.push(`Related to the seeds at distance ${n.distance} (walk score ${formatScore(n.rwr)}).`);
  }
  const top = Object.entries(n.components)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, 3)
    .map(([k, v]) => `${k} ${formatScore(v)}`);
  if (top.length) parts.push(`Largest score components: ${top.join(', ')}.`);
  return parts.join(' ');
}
