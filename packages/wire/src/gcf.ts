import type { ContextPack, GraphEdge, NodeId, RankedSymbol } from '@knowing/graph';
import { diffPacks } from '@knowing/pack';
import type { PackDelta } from '@knowing/pack';
import { GCF_KIND_ABBREVIATIONS, lookup } from './codes.js';
import { invalidArgument, pluginInvalid } from './errors.js';
import { encodeToken } from './gcf-token.js';
import { DEFAULT_FORMAT_OPTIONS } from './options.js';
import { compareSymbols, compareText, edgeKey, newEdgeKeys, preparePack, runs } from './order.js';
import type { PreparedPack } from './order.js';
import { countTokens, formatScore, location, tokenizerName } from './text.js';
import type { DeltaPlan, FormatOptions, Formatter, GcfSession, SymbolCode } from './types.js';

/** The comment a session reference carries. */
const GCF_REF_COMMENT = '# sent before';

const RESERVED_KINDS: ReadonlySet<string> = new Set(Object.values(GCF_KIND_ABBREVIATIONS));

/** A kind as GCF writes it: our abbreviation, or the escaped kind itself. */
function gcfKind(kind: string): string {
  return lookup(GCF_KIND_ABBREVIATIONS, kind) ?? encodeToken(kind, RESERVED_KINDS);
}

/** `targets`, `related`, `extended`, then `distance_K`. */
function gcfSectionName(distance: number): string {
  return distance === 0 ? 'targets' : distance === 1 ? 'related' : distance === 2 ? 'extended' : `distance_${distance}`;
}

function nodeLine(id: number, symbol: RankedSymbol): string {
  const { node } = symbol;
  const head = `@${id} ${gcfKind(node.kind)} ${encodeToken(node.qualifiedName)} ${formatScore(symbol.score)}`;
  return `${head} ${encodeToken(symbol.provenance ?? '')} ${encodeToken(location(node))}\n`;
}

/** Code lines under a node line: each source line behind `|`, then `|…` when the body was cut. */
function codeLines(code: SymbolCode | undefined): string {
  if (!code) return '';
  let out = '';
  for (const line of code.text.split('\n')) out += `|${line}\n`;
  return code.truncated ? `${out}|…\n` : out;
}

const refLine = (id: number): string => `@${id} ${GCF_REF_COMMENT}\n`;

/** Ids for one document: positions without a session, the session's ids (staged) with one. */
interface Assignment {
  readonly ids: Map<NodeId, number>;
  /** Symbols the session already holds: written as references. */
  readonly refs: Set<NodeId>;
  /** Symbols sharing another's (qualified name, kind) in this document: not written again. */
  readonly skip: Set<NodeId>;
  /** Commits the new ids to the session; call only for the document actually sent. */
  readonly commit: () => void;
}

function assign(symbols: readonly RankedSymbol[], session: GcfSession | undefined, refsAllowed: boolean): Assignment {
  const ids = new Map<NodeId, number>();
  const refs = new Set<NodeId>();
  const skip = new Set<NodeId>();
  if (!session) {
    symbols.forEach((symbol, i) => ids.set(symbol.node.id, i));
    return { ids, refs, skip, commit: () => {} };
  }
  const staged = new Map<string, number>();
  const fresh: RankedSymbol[] = [];
  let next = session.nextId;
  for (const symbol of symbols) {
    const { qualifiedName, kind, id: nodeId } = symbol.node;
    const key = `${kind}\0${qualifiedName}`;
    const inDocument = staged.get(key);
    if (inDocument !== undefined) {
      ids.set(nodeId, inDocument);
      skip.add(nodeId);
      continue;
    }
    const known = session.idOf(qualifiedName, kind);
    const id = known ?? next++;
    staged.set(key, id);
    ids.set(nodeId, id);
    if (known === undefined) fresh.push(symbol);
    else if (refsAllowed) refs.add(nodeId);
  }
  const expected = session.nextId;
  return {
    ids,
    refs,
    skip,
    commit: () => {
      if (session.nextId !== expected) throw invalidArgument('the GCF session changed while a document was being encoded for it');
      for (const symbol of fresh) {
        const id = session.add(symbol.node.qualifiedName, symbol.node.kind);
        if (id !== ids.get(symbol.node.id)) {
          throw pluginInvalid(`the GCF session gave ${symbol.node.qualifiedName} id ${id}, not the next id ${ids.get(symbol.node.id)}`, 'a session must number new symbols nextId, nextId + 1, …');
        }
      }
    },
  };
}

/** A rendered document: its header line, its body, the body's tokens, and the session commit. */
interface Rendered {
  readonly text: string;
  readonly bodyTokens: number;
  readonly commit: () => void;
}

function renderPack(prepared: PreparedPack, options: FormatOptions, fresh: ReadonlySet<string> | undefined): Rendered {
  const session = options.session;
  const assignment = assign(prepared.symbols, session, true);
  let body = '';
  let symbolCount = 0;
  for (const run of runs(prepared.symbols, (symbol) => symbol.distance)) {
    const lines = run.symbols
      .filter((symbol) => !assignment.skip.has(symbol.node.id))
      .map((symbol) => {
        const id = assignment.ids.get(symbol.node.id)!;
        // A symbol sent before is a reference, unless this answer brings its code: an earlier
        // answer may have named it without.
        const code = options.code?.get(symbol.node.id);
        return assignment.refs.has(symbol.node.id) && !code ? refLine(id) : nodeLine(id, symbol) + codeLines(code);
      });
    symbolCount += lines.length;
    body += `## ${gcfSectionName(run.key)}\n${lines.join('')}`;
  }
  const edgeLines = new Map<string, { target: number; source: number; type: string; line: string }>();
  for (const edge of prepared.edges) {
    const target = assignment.ids.get(edge.target)!;
    const source = assignment.ids.get(edge.source)!;
    const status = fresh?.has(edgeKey(edge)) ? ' added' : '';
    const line = `@${target}<@${source} ${encodeToken(edge.type)}${status}\n`;
    const key = `${target} ${source} ${edge.type}`;
    if (!edgeLines.has(key)) edgeLines.set(key, { target, source, type: edge.type, line });
  }
  const edges = [...edgeLines.values()].sort((a, b) => a.target - b.target || a.source - b.source || compareText(a.type, b.type));
  if (edges.length > 0) body += `## edges [${edges.length}]\n${edges.map((edge) => edge.line).join('')}`;

  let header = `GCF profile=graph tool=${encodeToken(options.tool ?? DEFAULT_FORMAT_OPTIONS.tool)}`;
  header += ` budget=${prepared.tokenBudget} tokens=${prepared.tokensUsed} symbols=${symbolCount} edges=${edges.length}`;
  if (session) header += ' session=true';
  const counter = tokenizerName(options.tokenizer);
  if (counter) header += ` tokenizer=${encodeToken(counter)}`;
  if (prepared.packRoot) header += ` pack_root=${encodeToken(prepared.packRoot)}`;
  return { text: `${header}\n${body}`, bodyTokens: countTokens(body, options.tokenizer), commit: assignment.commit };
}

function renderDelta(delta: PackDelta, previous: PreparedPack, next: PreparedPack, options: FormatOptions): { body: string; commit: () => void } {
  const names = new Map<NodeId, string>();
  for (const symbol of [...previous.symbols, ...next.symbols]) names.set(symbol.node.id, symbol.node.qualifiedName);
  const named = (edges: readonly GraphEdge[]): string => {
    const rows = new Map<string, [string, string, string]>();
    for (const edge of edges) {
      const row: [string, string, string] = [names.get(edge.source) ?? edge.source, names.get(edge.target) ?? edge.target, edge.type];
      rows.set(row.join('\0'), row);
    }
    return [...rows.values()]
      .sort((a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]) || compareText(a[2], b[2]))
      .map(([source, target, type]) => `${encodeToken(source)} -> ${encodeToken(target)} ${encodeToken(type)}\n`)
      .join('');
  };

  const added = [...delta.addedSymbols].sort(compareSymbols);
  const assignment = assign(added, options.session, false);
  let body = '';
  if (delta.removedSymbols.length > 0) {
    const removed = [...delta.removedSymbols].sort(compareSymbols);
    body += `## removed\n${removed.map((symbol) => `${gcfKind(symbol.node.kind)} ${encodeToken(symbol.node.qualifiedName)}\n`).join('')}`;
  }
  const addedLines = added.filter((symbol) => !assignment.skip.has(symbol.node.id)).map((symbol) => nodeLine(assignment.ids.get(symbol.node.id)!, symbol));
  if (addedLines.length > 0) body += `## added\n${addedLines.join('')}`;
  if (delta.removedEdges.length > 0) body += `## edges_removed\n${named(delta.removedEdges)}`;
  if (delta.addedEdges.length > 0) body += `## edges_added\n${named(delta.addedEdges)}`;
  return { body, commit: assignment.commit };
}

interface Planned {
  readonly plan: DeltaPlan;
  readonly text: string;
  readonly commit: () => void;
}

function planPrepared(prepared: PreparedPack, options: FormatOptions): Planned {
  const tool = encodeToken(options.tool ?? DEFAULT_FORMAT_OPTIONS.tool);
  const previous = options.previous;
  const full = renderPack(prepared, options, previous ? newEdgeKeys(prepared, previous) : undefined);
  if (!previous) return { plan: { mode: 'full' }, text: full.text, commit: full.commit };
  if (previous.packRoot !== '' && previous.packRoot === prepared.packRoot) {
    const text = `GCF tool=${tool} unchanged=true pack_root=${encodeToken(prepared.packRoot)} symbols=${prepared.symbols.length}\n`;
    return { plan: { mode: 'unchanged' }, text, commit: () => {} };
  }
  const threshold = options.deltaThreshold ?? DEFAULT_FORMAT_OPTIONS.deltaThreshold;
  if (Number.isNaN(threshold) || threshold < 0) throw invalidArgument(`deltaThreshold must be a number ≥ 0, got ${threshold}`);
  const before = preparePack(previous);
  // The diff itself comes from @knowing/pack; the decision compares the real rendered bodies.
  const delta = diffPacks(before, prepared, { threshold: Number.POSITIVE_INFINITY, format: 'gcf', tokenizer: options.tokenizer });
  if (!delta) return { plan: { mode: 'full' }, text: full.text, commit: full.commit };
  const rendered = renderDelta(delta, before, prepared, options);
  const tokens = countTokens(rendered.body, options.tokenizer);
  if (!(full.bodyTokens > 0 && tokens < threshold * full.bodyTokens)) return { plan: { mode: 'full' }, text: full.text, commit: full.commit };
  const savings = 1 - tokens / full.bodyTokens;
  let header = `GCF tool=${tool} delta=true base_root=${encodeToken(delta.baseRoot)} new_root=${encodeToken(delta.newRoot)}`;
  header += ` tokens=${tokens} savings=${Math.round(savings * 100)}%`;
  return {
    plan: { mode: 'delta', delta, tokens, fullTokens: full.bodyTokens, savings },
    text: `${header}\n${rendered.body}`,
    commit: rendered.commit,
  };
}

/**
 * Decide how gcf answers `pack` after `previous` was sent: `unchanged` for the same pack
 * root, `delta` when the delta document's body costs under `deltaThreshold` (60 %) of the full
 * document's body on the given tokenizer, else `full`. The symbol and edge differences come
 * from `@knowing/pack`'s `diffPacks`. Does not touch the session.
 *
 * @example
 * ```ts
 * const plan = planDelta(lastSent, pack);
 * if (plan.mode === 'delta') log(`delta saves ${Math.round(plan.savings * 100)} %`);
 * ```
 */
export function planDelta(previous: ContextPack | undefined, pack: ContextPack, options: FormatOptions = {}): DeltaPlan {
  return planPrepared(preparePack(pack), { ...options, previous }).plan;
}

function encodeGcf(pack: ContextPack, options: FormatOptions = {}): string {
  const planned = planPrepared(preparePack(pack), options);
  planned.commit();
  return planned.text;
}

/** Two-digit placeholder id for costing a line before ids are assigned. */
const COST_ID = 10;

/**
 * GCF, the compact text format (profile `graph`): a header line, node lines
 * `@ID KIND QNAME SCORE PROVENANCE LOCATION` in distance sections (in code mode followed by
 * the symbol's source lines, each behind `|`), and edge lines `@T<@S TYPE`.
 * With `session`, symbols sent before are written as `@ID # sent before`; with `previous`,
 * the answer may be `unchanged` or a delta. See docs/formats.md for the grammar.
 *
 * @example
 * ```ts
 * gcfFormat.encode(pack, { tool: 'context_for_task' });
 * // GCF profile=graph tool=context_for_task budget=8000 tokens=412 symbols=12 edges=9 pack_root=…
 * // ## targets
 * // @0 fn src/auth.ts.login 0.91 - src/auth.ts:12-30
 * ```
 */
export const gcfFormat: Formatter = Object.freeze({
  name: 'gcf',
  mediaType: 'text/x-gcf',
  binary: false,
  encode: encodeGcf,
  symbolCost(symbol: RankedSymbol, options: FormatOptions = {}) {
    const known = options.session?.idOf(symbol.node.qualifiedName, symbol.node.kind);
    return countTokens(known === undefined ? nodeLine(COST_ID, symbol) : refLine(known), options.tokenizer, 1);
  },
});
