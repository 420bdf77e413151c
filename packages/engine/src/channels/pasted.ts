import type { GraphNode, GraphStore, NodeKind } from '@knowing/graph';
import { lexicalQueryTerms } from '@knowing/keywords/lexical';
import { extractPastedEvidence } from '@knowing/keywords/pasted';
import type { CodeReference, CodeRole, PastedMessage } from '@knowing/keywords/pasted';
import type { Channel, ChannelHit } from '../channel.js';

/** Settings of the pasted-evidence channel. */
export interface PastedChannelOptions {
  /** Hits returned. @default 15 */
  readonly limit: number;
  /** A name with more symbols than this (after its qualifiers' filter) says too little to resolve. @default 8 */
  readonly maxSymbolsPerName: number;
  /** A symbol matches a message when its body holds at least this share of the message's term weight (rarer terms weigh more). @default 0.6 */
  readonly messageCoverage: number;
}

export const DEFAULT_PASTED_CHANNEL_OPTIONS: PastedChannelOptions = Object.freeze({ limit: 15, maxSymbolsPerName: 8, messageCoverage: 0.6 });

/**
 * What a reference's use says: a definition or a call names the code to change. A mere mention
 * resolves to nothing: the name channels already match a name the task spells, and on the
 * tuning history tasks that carry code, resolving mentions too lowered MRR (0.659 against 0.669
 * without them; benchmarks/RESULTS.md, session 10).
 */
const ROLE_WEIGHT: Readonly<Record<CodeRole, number>> = { definition: 3, call: 2, construct: 2, mention: 0 };
/** A symbol whose body holds the message the user saw is where it was raised or logged. */
const MESSAGE_WEIGHT = 3;
/** Messages and terms read, so that a pasted log costs a bounded number of searches. */
const MAX_MESSAGES = 6;
const MAX_MESSAGE_TERMS = 10;
const TYPE_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(['class', 'struct', 'interface', 'trait', 'enum', 'type_alias']);

/** The segments of a qualified name, lower-cased: `src/app.py.Flask.run` → src, app, py, flask, run. */
const segments = (qualifiedName: string): string[] => qualifiedName.toLowerCase().split(/[./:#\\]+/).filter(Boolean);

/**
 * Whether a qualifier names something on the symbol's path: a segment equal to it, or — a
 * variable named after its type (`client` for `HttpClient`) — a segment containing it.
 */
function qualifies(qualifier: string, path: readonly string[]): boolean {
  const q = qualifier.toLowerCase();
  return path.some((segment) => segment === q || (q.length >= 4 && segment.includes(q)));
}

/** The symbols one code reference names, each with its score. */
async function resolveReference(store: GraphStore, ref: CodeReference, aboutTests: boolean, settings: PastedChannelOptions): Promise<{ node: GraphNode; score: number }[]> {
  if (ROLE_WEIGHT[ref.role] === 0) return [];
  let nodes = (await store.findNodesByName(ref.name, { match: 'exact', limit: 50 })).filter((n) => !n.external && n.kind !== 'file' && (aboutTests || !n.isTest));
  // A construction names a type, not a function of the same name.
  if (ref.role === 'construct') {
    const types = nodes.filter((n) => TYPE_KINDS.has(n.kind));
    if (types.length > 0) nodes = types;
  }
  if (nodes.length === 0) return [];
  let weight = ROLE_WEIGHT[ref.role];
  if (ref.qualifiers.length > 0) {
    const matched = nodes.filter((n) => {
      const path = segments(n.qualifiedName).slice(0, -1);
      return ref.qualifiers.some((q) => qualifies(q, path));
    });
    if (matched.length > 0) {
      nodes = matched;
      weight *= 1.5;
    } else if (nodes.length > 2) return [];
    else weight *= 0.5;
  }
  if (nodes.length > settings.maxSymbolsPerName) return [];
  return nodes.map((node) => ({ node, score: weight / Math.sqrt(nodes.length) }));
}

/**
 * The symbols whose own lines hold a message: the body search over the message's terms, then
 * each term once over those hits, keeping the symbols that hold most of the term weight (a
 * term's weight is its best single-term score among the hits, so rare terms count more).
 */
async function resolveMessage(store: GraphStore, message: PastedMessage, aboutTests: boolean, settings: PastedChannelOptions): Promise<{ node: GraphNode; score: number }[]> {
  const terms = [...new Set(lexicalQueryTerms(message.text))].slice(0, MAX_MESSAGE_TERMS);
  if (terms.length < 2) return [];
  const body = { name: 0, path: 0, signature: 0, doc: 0, body: 1, members: 0 } as const;
  const hits = await store.lexicalSearch(terms, { limit: 20, fieldWeights: body, includeTests: aboutTests });
  if (hits.length === 0) return [];
  const ids = hits.map((h) => h.node.id);
  const held = new Map<string, Map<string, number>>();
  const termWeight = new Map<string, number>();
  for (const term of terms) {
    const perTerm = await store.lexicalSearch([term], { ids, limit: ids.length, fieldWeights: body, includeTests: true });
    termWeight.set(term, Math.max(0, ...perTerm.map((h) => h.score)));
    for (const hit of perTerm) {
      let entry = held.get(hit.node.id);
      if (!entry) held.set(hit.node.id, (entry = new Map()));
      entry.set(term, hit.score);
    }
  }
  // A term no hit holds still counts against coverage: the message says something no body does.
  const rarest = Math.max(...termWeight.values());
  const total = terms.reduce((sum, term) => sum + (termWeight.get(term) || rarest), 0);
  const out: { node: GraphNode; score: number }[] = [];
  for (const hit of hits) {
    const mine = held.get(hit.node.id);
    if (!mine) continue;
    let covered = 0;
    for (const term of mine.keys()) covered += termWeight.get(term) ?? 0;
    const coverage = total > 0 ? covered / total : 0;
    if (coverage >= settings.messageCoverage) out.push({ node: hit.node, score: MESSAGE_WEIGHT * coverage });
  }
  // The symbols holding the most of it; several holding all of it are all where it may come from.
  const best = Math.max(0, ...out.map((o) => o.score));
  return out.filter((o) => o.score >= best - 1e-9 || out.length <= 3);
}

/**
 * Code and messages pasted into a task, resolved to the repository's symbols: the identifiers,
 * qualified names and call chains of its code blocks and inline spans by exact name (their
 * qualifiers, and the receiver's type when the code assigned it, checked against the
 * qualified name), and its error messages and log lines by the symbols whose bodies hold most
 * of their rare words. A definition ranks above a call, and a symbol named several
 * ways adds them up. A task without either costs a few regular-expression scans.
 *
 * @example
 * ```ts
 * const hits = await createPastedChannel().run({ store, task: report, keywords, aboutTests: false });
 * hits[0].detail; // 'call session.send' or 'message "pool is closed"'
 * ```
 */
export function createPastedChannel(options: Partial<PastedChannelOptions> = {}): Channel {
  const settings: PastedChannelOptions = { ...DEFAULT_PASTED_CHANNEL_OPTIONS, ...options };
  const fingerprint = `pasted@1${JSON.stringify(settings)}`;
  return {
    name: 'pasted',
    fingerprint: () => fingerprint,
    async run({ store, task, aboutTests }): Promise<ChannelHit[]> {
      const { code, messages } = extractPastedEvidence(task);
      if (code.length === 0 && messages.length === 0) return [];
      const found = new Map<string, { node: GraphNode; score: number; best: number; detail: string }>();
      const add = (node: GraphNode, score: number, detail: string): void => {
        const entry = found.get(node.id);
        if (!entry) found.set(node.id, { node, score, best: score, detail });
        else {
          entry.score += score;
          if (score > entry.best) {
            entry.best = score;
            entry.detail = detail;
          }
        }
      };
      for (const ref of code) {
        const detail = `${ref.role} ${[...ref.qualifiers, ref.name].join('.')}`;
        for (const { node, score } of await resolveReference(store, ref, aboutTests, settings)) add(node, score, detail);
      }
      for (const message of messages.slice(0, MAX_MESSAGES)) {
        const detail = `message "${message.text.slice(0, 60)}"`;
        for (const { node, score } of await resolveMessage(store, message, aboutTests, settings)) add(node, score, detail);
      }
      return [...found.values()]
        .sort((a, b) => b.score - a.score || a.node.qualifiedName.localeCompare(b.node.qualifiedName) || a.node.id.localeCompare(b.node.id))
        .slice(0, settings.limit)
        .map(({ node, score, detail }) => ({ node, detail, score }));
    },
  };
}
