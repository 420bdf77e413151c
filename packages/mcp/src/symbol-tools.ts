import type { GraphNode, GraphStore } from '@knowing/graph';
import { freshen, registerTool, textResult } from './connection.js';
import type { Connection } from './connection.js';
import { queryOptions } from './context-tools.js';
import { invalidArgument } from './errors.js';
import { renderExplanation } from './render.js';
import { explainSymbolInput, feedbackInput } from './schemas.js';

/** Nodes a feedback reference names: an id, a qualified name, `Type.member`, or a plain name. */
async function nodesNamed(store: GraphStore, reference: string): Promise<GraphNode[]> {
  const query = reference.trim();
  if (/^[0-9a-f]{32}$/.test(query)) {
    const node = await store.getNode(query);
    if (node) return [node];
  }
  const exact = (await store.findNodesByQualifiedName(query)).filter((n) => !n.external);
  if (exact.length > 0) return exact;
  const dotted = query.replace(/::|#/g, '.');
  const terminal = dotted.slice(dotted.lastIndexOf('.') + 1);
  if (terminal === '') return [];
  let nodes = (await store.findNodesByName(terminal, { match: 'exact', limit: 500 })).filter((n) => !n.external);
  if (nodes.length === 0) nodes = (await store.findNodesByName(terminal, { match: 'exact_ci', limit: 500 })).filter((n) => !n.external);
  if (dotted !== terminal) {
    const suffix = `.${dotted}`.toLowerCase();
    nodes = nodes.filter((n) => n.qualifiedName.replace(/::|#/g, '.').toLowerCase().endsWith(suffix));
  }
  return nodes;
}

/**
 * The one node each feedback reference names, each once. A name several nodes share is settled
 * by the one this connection was sent; a reference that names none, or still several, fails the
 * whole call so no feedback is half recorded.
 */
async function feedbackNodes(connection: Connection, references: readonly string[]): Promise<GraphNode[]> {
  const resolved: GraphNode[] = [];
  const missing: string[] = [];
  const ambiguous: string[] = [];
  for (const reference of references) {
    let nodes = await nodesNamed(connection.host.store, reference);
    if (nodes.length > 1) {
      const seen = nodes.filter((n) => connection.sent.has(n.id));
      if (seen.length === 1) nodes = seen;
    }
    if (nodes.length === 0) missing.push(reference);
    else if (nodes.length > 1) {
      const options = nodes.slice(0, 5).map((n) => n.qualifiedName);
      ambiguous.push(`${JSON.stringify(reference)} (could be ${options.join(', ')}${nodes.length > 5 ? ', …' : ''})`);
    } else resolved.push(nodes[0]!);
  }
  if (missing.length > 0 || ambiguous.length > 0) {
    const parts = [];
    if (missing.length > 0) parts.push(`not found: ${missing.map((m) => JSON.stringify(m)).join(', ')}`);
    if (ambiguous.length > 0) parts.push(`ambiguous: ${ambiguous.join('; ')}`);
    throw invalidArgument(`no feedback recorded; ${parts.join('; ')}`, 'name symbols by id or qualified name as the context answers show them');
  }
  return [...new Map(resolved.map((n) => [n.id, n])).values()];
}

/** The tools about single symbols: why one is or is not in an answer, and which ones helped. */
export function registerSymbolTools(connection: Connection): void {
  const { engine, defaultFormat, maxTaskChars } = connection.host;
  const { sessionId } = connection;

  registerTool(
    connection,
    'explain_symbol',
    {
      title: 'Explain a symbol',
      description:
        'Why a symbol is (or is not) in the answer for a task: how retrieval found it, its walk and ranking scores, and where it was lost. Returns a markdown report.',
      inputSchema: explainSymbolInput(maxTaskChars),
    },
    async (args, extra) => {
      engine.observe(sessionId, `${args.task_description}\n${args.symbol}`);
      const { notes, pending } = await freshen(connection.host, extra);
      if (pending) return pending;
      const explanation = await engine.explainSymbol(args.task_description, args.symbol, queryOptions(connection, defaultFormat, args.token_budget));
      // Closest names by edit distance, then by substring (the engine's suggestions).
      const text = renderExplanation(explanation, explanation.symbol ? [] : explanation.suggestions);
      return { content: [{ type: 'text', text }, ...(notes.length > 0 ? [{ type: 'text' as const, text: `${notes.join('\n')}\n` }] : [])] };
    },
  );

  registerTool(
    connection,
    'feedback',
    {
      title: 'Feedback on symbols',
      description:
        'Tell knowing which symbols helped (useful: true) or did not (useful: false); later answers rank them accordingly. Name symbols by id, qualified name (as in gcf lines) or plain name.',
      inputSchema: feedbackInput,
    },
    async (args, extra) => {
      const { pending } = await freshen(connection.host, extra, false);
      if (pending) return pending;
      const unique = await feedbackNodes(connection, args.symbols);
      await engine.recordFeedback(unique.map((node) => ({ symbol: node.id, useful: args.useful, session: sessionId })));
      const names = unique.map((n) => n.qualifiedName);
      return textResult(`Recorded ${args.useful ? 'useful' : 'not useful'} for ${unique.length} symbol${unique.length === 1 ? '' : 's'}: ${names.join(', ')}\n`);
    },
  );
}
