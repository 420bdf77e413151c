import type { ContextPack, GraphEdge, NodeId, RankedSymbol } from '@knowing/graph';
import { edgeWeight, isStructuralEdge } from '@knowing/graph';
import { createHeuristicTokenizer, packRoot } from '@knowing/pack';
import type { Tokenizer } from '@knowing/pack';
import { invalidArgument } from './errors.js';
import { preparePack } from './order.js';
import { formatPack } from './registry.js';
import { createGcfSession } from './session.js';
import type { FormatOptions, FormatRegistry, SymbolCode } from './types.js';

/** Options of {@link fitPack}. */
export interface FitOptions extends Omit<FormatOptions, 'code'> {
  /** Name of the format to write. */
  readonly format: string;
  /** Tokens the whole printed answer may take: header, symbols, code, edges and framing. */
  readonly budget: number;
  /** Counts the tokens. @default the ⌊characters / 4⌋ heuristic; pass `await createExactTokenizer()` for cl100k */
  readonly tokenizer?: Tokenizer;
  /** Where to look the format up. @default the built-in formats */
  readonly registry?: FormatRegistry;
  /**
   * Code mode: the text of a repository file (its path as the index names it), or undefined
   * when it cannot be read. Without it, answers carry no code.
   */
  readonly source?: (file: string) => string | undefined;
  /**
   * Code mode: at most this share of the budget goes to source lines; the rest stays for the
   * list of symbols, so an answer never degenerates into one long body.
   * @default 0.6
   */
  readonly codeShare?: number;
  /**
   * Edges printed per symbol, each linking it to a better-ranked symbol of the answer: they say
   * why a symbol is there (who calls it, what it implements). More would crowd out symbols.
   * @default 2
   */
  readonly edgesPerSymbol?: number;
}

/** Defaults of {@link FitOptions}. */
export const DEFAULT_FIT_OPTIONS: Readonly<Required<Pick<FitOptions, 'codeShare' | 'edgesPerSymbol'>>> = Object.freeze({
  codeShare: 0.6,
  edgesPerSymbol: 2,
});

/** What {@link fitPack} printed. */
export interface FittedPack {
  /** The pack as printed: the symbols and edges that fit, `tokensUsed` the true count of `output`. */
  readonly pack: ContextPack;
  /** The answer in the chosen format: text, or bytes for a binary format. */
  readonly output: string | Uint8Array;
  /** Tokens of the printed answer on the tokenizer (for a binary format: of its gcf rendering). */
  readonly tokens: number;
  /** Source lines printed with symbols (code mode), by node id. */
  readonly code: ReadonlyMap<NodeId, SymbolCode>;
  /** Symbols and edges of the input pack left out to hold the budget. */
  readonly omitted: { readonly symbols: number; readonly edges: number };
}

const heuristic = createHeuristicTokenizer();

/** Shortest code worth printing: a cut body shorter than this tells an agent nothing. */
const MIN_CODE_TOKENS = 24;

/**
 * Edges worth printing, each attached to the lower-ranked of its two ends: one edge per pair of
 * symbols (the strongest type), none that the qualified names already say (a member contained
 * in its type), none of organisational types, at most `perSymbol` per symbol, preferring the
 * strongest types (calls before references), then the best-ranked partners.
 */
function informativeEdges(symbols: readonly RankedSymbol[], edges: readonly GraphEdge[], perSymbol: number): { edge: GraphEdge; owner: number }[] {
  const position = new Map<NodeId, number>(symbols.map((symbol, i) => [symbol.node.id, i]));
  const byPair = new Map<string, { edge: GraphEdge; owner: number; partner: number; weight: number }>();
  for (const edge of edges) {
    const source = position.get(edge.source);
    const target = position.get(edge.target);
    if (source === undefined || target === undefined || source === target) continue;
    const weight = edgeWeight(edge.type);
    if (!(weight > 0)) continue;
    if (isStructuralEdge(edge.type) && impliedByNames(symbols[source]!, symbols[target]!)) continue;
    const key = source < target ? `${source} ${target}` : `${target} ${source}`;
    const known = byPair.get(key);
    if (known && known.weight >= weight) continue;
    byPair.set(key, { edge, owner: Math.max(source, target), partner: Math.min(source, target), weight });
  }
  const perOwner = new Map<number, { edge: GraphEdge; owner: number; partner: number; weight: number }[]>();
  for (const entry of byPair.values()) {
    const list = perOwner.get(entry.owner) ?? [];
    list.push(entry);
    perOwner.set(entry.owner, list);
  }
  const out: { edge: GraphEdge; owner: number }[] = [];
  for (const list of perOwner.values()) {
    list.sort((a, b) => b.weight - a.weight || a.partner - b.partner);
    for (const entry of list.slice(0, perSymbol)) out.push({ edge: entry.edge, owner: entry.owner });
  }
  return out.sort((a, b) => a.owner - b.owner);
}

/** A containment edge between a type and its member repeats what `Type.member` already says. */
function impliedByNames(a: RankedSymbol, b: RankedSymbol): boolean {
  const x = a.node.qualifiedName;
  const y = b.node.qualifiedName;
  return y.startsWith(`${x}.`) || x.startsWith(`${y}.`) || y.startsWith(`${x}::`) || x.startsWith(`${y}::`);
}

/** The symbol's lines of `text`, LF-joined, without trailing blank lines; undefined when out of range. */
function linesOf(text: string, startLine: number, endLine: number): string[] | undefined {
  if (startLine <= 0 || endLine < startLine) return undefined;
  const lines = text.split('\n').slice(startLine - 1, endLine).map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  return lines.length > 0 ? lines : undefined;
}

/**
 * Source for the best-ranked symbols, in rank order, while the code share lasts: whole bodies
 * while they fit; the first body that does not fit is cut at a line boundary (when enough of it
 * fits to be worth reading) and code stops there. A symbol inside a body already shown gets none.
 */
function planCode(symbols: readonly RankedSymbol[], source: (file: string) => string | undefined, allowance: number, tokenizer: Tokenizer): Map<NodeId, SymbolCode> {
  const code = new Map<NodeId, SymbolCode>();
  const files = new Map<string, string | undefined>();
  const shown: { file: string; start: number; end: number }[] = [];
  let left = allowance;
  for (const symbol of symbols) {
    if (left < MIN_CODE_TOKENS) break;
    const { node } = symbol;
    if (!node.file || node.external || node.startLine <= 0) continue;
    if (shown.some((span) => span.file === node.file && span.start <= node.startLine && node.endLine <= span.end)) continue;
    if (!files.has(node.file)) files.set(node.file, source(node.file));
    const text = files.get(node.file);
    if (text === undefined) continue;
    const lines = linesOf(text, node.startLine, Math.max(node.startLine, node.endLine));
    if (!lines) continue;
    // +1 per line: the line break, and a format's per-line marker.
    const costs = (tokenizer.countEach ? tokenizer.countEach(lines) : lines.map((line) => tokenizer.count(line))).map((count) => count + 1);
    const total = costs.reduce((sum, cost) => sum + cost, 0);
    if (total <= left) {
      code.set(node.id, { text: lines.join('\n'), startLine: node.startLine, endLine: node.startLine + lines.length - 1, truncated: false });
      shown.push({ file: node.file, start: node.startLine, end: node.endLine });
      left -= total;
      continue;
    }
    let used = 0;
    let keep = 0;
    while (keep < lines.length && used + costs[keep]! <= left) used += costs[keep++]!;
    if (used >= MIN_CODE_TOKENS) {
      code.set(node.id, { text: lines.slice(0, keep).join('\n'), startLine: node.startLine, endLine: node.startLine + keep - 1, truncated: true });
    }
    break;
  }
  return code;
}

/** Edge count of the first `k` symbols: owners are sorted, so the edges of a prefix are a prefix. */
function edgesOfPrefix(edges: readonly { owner: number }[], k: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edges[mid]!.owner < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Print a pack within a token budget that holds for everything printed — header, symbols,
 * their code, edges and the format's framing — counted with the given tokenizer, and with the
 * header's token count equal to the true count of the output.
 *
 * The best-ranked symbols are kept (display order is score order); edges are those worth
 * printing (see `edgesPerSymbol`); in code mode (`source`), the best-ranked symbols carry their
 * source. What does not fit is left out, lowest-ranked first. A budget below the format's
 * smallest answer is an INVALID_ARGUMENT error naming that size. A binary format is fitted as
 * its text sibling gcf would be.
 *
 * @example
 * ```ts
 * const tokenizer = await createExactTokenizer();
 * const { output, tokens } = fitPack(result.pack, { format: 'xml', budget: 4000, tokenizer, task });
 * tokens <= 4000; // true, and output's tokens_used says the same number
 * ```
 */
export function fitPack(pack: ContextPack, options: FitOptions): FittedPack {
  const { budget, source, registry, format } = options;
  if (!Number.isSafeInteger(budget) || budget <= 0) throw invalidArgument(`budget must be a whole number of tokens > 0, got ${budget}`);
  const codeShare = options.codeShare ?? DEFAULT_FIT_OPTIONS.codeShare;
  if (!(codeShare >= 0 && codeShare <= 1)) throw invalidArgument(`codeShare must be between 0 and 1, got ${codeShare}`);
  const perSymbol = options.edgesPerSymbol ?? DEFAULT_FIT_OPTIONS.edgesPerSymbol;
  if (!Number.isSafeInteger(perSymbol) || perSymbol < 0) throw invalidArgument(`edgesPerSymbol must be a whole number ≥ 0, got ${perSymbol}`);
  const tokenizer = options.tokenizer ?? heuristic;
  const formatOptions: FormatOptions = { ...options, tokenizer };
  const binary = (registry ?? undefined)?.has(format) ? registry!.get(format).binary : format === 'gcb';
  const measuredFormat = binary ? 'gcf' : format;

  const prepared = preparePack(pack);
  const symbols = prepared.symbols;
  const edges = informativeEdges(symbols, prepared.edges, perSymbol);
  let code = source ? planCode(symbols, source, Math.floor(budget * codeShare), tokenizer) : new Map<NodeId, SymbolCode>();

  const packOf = (k: number, tokensUsed: number): ContextPack => {
    const chosen = symbols.slice(0, k);
    const root = k === symbols.length ? prepared.packRoot : packRoot(prepared.packRoot, chosen.map((symbol) => symbol.node.id));
    return {
      symbols: chosen,
      edges: edges.slice(0, edgesOfPrefix(edges, k)).map((entry) => entry.edge),
      tokensUsed,
      tokenBudget: budget,
      packRoot: root,
    };
  };
  // The selection does not depend on what this conversation was sent before: trials render as
  // a first answer would (no session references, no delta), so the same task and budget pick
  // the same symbols and an agent's pack_root can be answered "unchanged". The printed answer
  // then uses the session and the previous pack, which only make it shorter.
  const withoutHistory: FormatOptions = { ...formatOptions, session: undefined, previous: undefined };
  const trialOptions = (task: string | undefined, history: boolean): FormatOptions => ({
    ...(history ? formatOptions : withoutHistory),
    ...(task === undefined ? { task: undefined } : { task }),
    // Trial renders must not advance the caller's GCF session.
    ...(history && formatOptions.session ? { session: createGcfSession(formatOptions.session.entries()) } : {}),
    code,
  });
  const render = (k: number, tokensUsed: number, task: string | undefined, history = false): string => {
    const text = formatPack(packOf(k, tokensUsed), { ...trialOptions(task, history), format: measuredFormat, ...(registry ? { registry } : {}) });
    return typeof text === 'string' ? text : '';
  };
  // Trials share most of their lines: every count goes through one cache of pieces. The search
  // counts lines (long ones in chunks), which add up to the whole's count or a little more, so
  // it is conservative; the decisions are made on exact counts, which for a tokenizer whose
  // counts add over lines are sums of cached line groups too.
  const pieces = new Map<string, number>();
  const approximate = piecewiseCounter(tokenizer, pieces);
  const countExactly = exactCounter(tokenizer, pieces);
  const exact = (k: number, tokensUsed: number, task: string | undefined, history = false): number => countExactly(render(k, tokensUsed, task, history));
  const estimate = (k: number, task: string | undefined): number => approximate(render(k, budget, task));

  // The task echoed in a header can alone exceed a small budget: shorten it before giving up.
  let task = options.task;
  const taskChoices = task === undefined ? [undefined] : [task, task.length > 120 ? `${task.slice(0, 117).trimEnd()}…` : undefined, undefined];
  let fitsEmpty = false;
  for (const choice of [...new Set(taskChoices)]) {
    task = choice;
    if (exact(0, budget, task) <= budget) {
      fitsEmpty = true;
      break;
    }
  }
  if (!fitsEmpty) {
    throw invalidArgument(`a budget of ${budget} tokens cannot hold even an empty ${format} answer (${exact(0, budget, undefined)} tokens)`, 'raise --budget, or choose the gcf format');
  }

  // The largest prefix that fits, counting the header as if it said `budget` (its widest value).
  // Counting is most of the cost, and a count is cached per line: the search starts from a
  // guess by characters, so that it counts the lines of about as many symbols as fit rather
  // than those of every candidate.
  const largestPrefix = (): number => {
    const all = render(symbols.length, budget, task);
    const empty = render(0, budget, task);
    const perSymbol = (all.length - empty.length) / CHARS_PER_TOKEN / Math.max(1, symbols.length);
    const emptyCost = countExactly(empty);
    const guess = perSymbol > 0 ? Math.floor((budget - emptyCost) / perSymbol) : symbols.length;
    return largestWithin(symbols.length, (k) => estimate(k, task), budget, guess, emptyCost);
  };
  let k = largestPrefix();
  // Code is planned on the lines' own tokens; a format's escaping (json) or framing can make it
  // dearer. When the planned code pushes out the very symbols it belongs to, plan with less.
  for (let allowance = Math.floor(budget * codeShare); source && k < lastWithCode(symbols, code) && allowance >= MIN_CODE_TOKENS; ) {
    allowance = Math.floor(allowance * 0.6);
    code = planCode(symbols, source, allowance, tokenizer);
    k = largestPrefix();
  }

  // The header's count must equal the true count: iterate to the fixed point (a count has as
  // many or fewer tokens than the budget, so it converges in a step or two). First as printed
  // with the conversation's history; if that does not settle within the budget (a delta whose
  // header outweighs its savings), as a first answer.
  const hasHistory = formatOptions.session !== undefined || formatOptions.previous !== undefined;
  const settle = (k: number, history: boolean): number | undefined => {
    // Only the header's numbers change between these renders: the other lines are cached.
    let claimed = exact(k, budget, task, history);
    for (let step = 0; step < 4 && claimed <= budget; step++) {
      const count = exact(k, claimed, task, history);
      if (count === claimed) return claimed;
      claimed = count;
    }
    return undefined;
  };
  for (;;) {
    let history = hasHistory;
    let claimed = history ? settle(k, true) : undefined;
    if (claimed === undefined) {
      history = false;
      claimed = settle(k, false);
    }
    if (claimed !== undefined && claimed <= budget) {
      const final = packOf(k, claimed);
      const finalOptions: FormatOptions = {
        ...(history ? formatOptions : withoutHistory),
        ...(task === undefined ? { task: undefined } : { task }),
        code: restrict(code, final.symbols),
      };
      const output = formatPack(final, { ...finalOptions, format, ...(registry ? { registry } : {}) });
      return {
        pack: final,
        output,
        tokens: claimed,
        code: finalOptions.code!,
        omitted: { symbols: symbols.length - k, edges: prepared.edges.length - final.edges.length },
      };
    }
    if (k === 0) throw invalidArgument(`could not print a ${format} answer within ${budget} tokens`, 'raise --budget');
    k--;
  }
}

/** Characters per token of a printed answer, for a first guess only (cl100k gives about 3–4). */
const CHARS_PER_TOKEN = 3.5;

/**
 * The largest k in [0, n] whose `cost` is at most `limit`, given that costs never decrease with
 * k and that k = 0 fits (`zeroCost` says about what it costs; it only steers the search). The
 * first probe is `guess`. Each next probe is where the costs seen so far put the last k that
 * fits: between the closest k that fits and the closest that does not, by their costs, or, while
 * nothing has failed yet, at the average cost per item so far (at most twice the k that fits, so
 * no probe goes past twice the answer). An interpolated probe that did not halve the interval is
 * followed by a halving one. A cost that grows about evenly, as a prefix of symbols does, ends
 * the search two or three probes after the guess; any guess gives the same answer.
 *
 * @example
 * ```ts
 * largestWithin(100, (k) => 40 + 25 * k, 1000, 30, 40); // 38: probes 30, 38, 39
 * ```
 */
export function largestWithin(n: number, cost: (k: number) => number, limit: number, guess: number, zeroCost: number): number {
  let lo = 0;
  let loCost = zeroCost;
  let hi = n + 1;
  let hiCost = Number.POSITIVE_INFINITY;
  let k = Math.min(n, Math.max(1, Math.floor(guess)));
  let interpolated = false;
  while (hi - lo > 1) {
    const before = hi - lo;
    const value = cost(k);
    if (value <= limit) {
      lo = k;
      loCost = value;
    } else {
      hi = k;
      hiCost = value;
    }
    if (hi - lo <= 1) break;
    // Interpolation can creep along one side of the interval: after an interpolated probe that
    // left more than half of it, the next one halves it.
    const crept = interpolated && hi - lo > before / 2;
    let next: number;
    if (hi > n) {
      const perItem = lo > 0 ? (loCost - zeroCost) / lo : 0;
      const ahead = perItem > 0 ? Math.floor((limit - loCost) / perItem) : lo;
      next = Math.min(n, 2 * lo + 1, lo + Math.max(1, ahead));
      interpolated = false;
    } else if (crept || !(hiCost > loCost)) {
      next = (lo + hi) >> 1;
      interpolated = false;
    } else {
      next = lo + Math.floor(((limit - loCost) / (hiCost - loCost)) * (hi - lo));
      interpolated = true;
    }
    k = Math.min(hi - 1, Math.max(lo + 1, next));
  }
  return lo;
}

const SPACE = /\s/u;

/** Whether text[start, end) holds nothing but white space (a line break included), as the tokenizer's `\s` sees it. */
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c < 128 || !SPACE.test(text[i]!)) return false;
  }
  return true;
}

/**
 * The text cut into runs of whole lines whose token counts add up to the text's, for a
 * tokenizer whose counts add over lines (`linesAdd`): cl100k never joins text across a line
 * break that stands alone between two lines with something on them, but a blank or white-space
 * line joins the breaks around it into one piece, so runs are cut only between two lines that
 * both hold more than white space.
 */
export function lineGroups(text: string): string[] {
  const groups: string[] = [];
  let start = 0;
  let line = 0;
  let previousBlank = true;
  while (line < text.length) {
    const breakAt = text.indexOf('\n', line);
    const end = breakAt < 0 ? text.length : breakAt + 1;
    const blank = isBlank(text, line, end);
    if (line > start && !previousBlank && !blank) {
      groups.push(text.slice(start, line));
      start = line;
    }
    previousBlank = blank;
    line = end;
  }
  if (start < text.length) groups.push(text.slice(start));
  return groups;
}

/** Counts the not yet counted pieces, together when the tokenizer can (one round trip to a worker), into `cache`. */
function countInto(tokenizer: Tokenizer, cache: Map<string, number>, pieces: readonly string[]): void {
  const unseen = [...new Set(pieces.filter((piece) => !cache.has(piece)))];
  const counts = tokenizer.countEach && unseen.length > 1 ? tokenizer.countEach(unseen) : unseen.map((piece) => tokenizer.count(piece));
  unseen.forEach((piece, i) => cache.set(piece, counts[i]!));
}

/** The exact count of a text: by cached line groups when the tokenizer's counts add over lines, else whole. */
function exactCounter(tokenizer: Tokenizer, cache: Map<string, number>): (text: string) => number {
  if (!tokenizer.linesAdd) return (text) => tokenizer.count(text);
  return (text) => {
    const groups = lineGroups(text);
    countInto(tokenizer, cache, groups);
    let total = 0;
    for (const group of groups) total += cache.get(group)!;
    return total;
  };
}

/** Pieces of at most this many characters are counted (and cached) on their own. */
const PIECE_CHARS = 2000;

/**
 * Counts text as the sum of its lines' counts (long lines in chunks cut after a `,` or `>`),
 * remembering each piece's count.
 */
function piecewiseCounter(tokenizer: Tokenizer, cache: Map<string, number>): (text: string) => number {
  return (text) => {
    const pieces: string[] = [];
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      end = end < 0 ? text.length : end + 1;
      while (end - start > PIECE_CHARS) {
        const cut = Math.max(text.lastIndexOf(',', start + PIECE_CHARS), text.lastIndexOf('>', start + PIECE_CHARS));
        const stop = cut > start ? cut + 1 : start + PIECE_CHARS;
        pieces.push(text.slice(start, stop));
        start = stop;
      }
      pieces.push(text.slice(start, end));
      start = end;
    }
    countInto(tokenizer, cache, pieces);
    let total = 0;
    for (const piece of pieces) total += cache.get(piece)!;
    return total;
  };
}

/** One past the position of the last symbol that has code (0 when none has). */
function lastWithCode(symbols: readonly RankedSymbol[], code: ReadonlyMap<NodeId, SymbolCode>): number {
  for (let i = symbols.length - 1; i >= 0; i--) if (code.has(symbols[i]!.node.id)) return i + 1;
  return 0;
}

function restrict(code: ReadonlyMap<NodeId, SymbolCode>, symbols: readonly RankedSymbol[]): ReadonlyMap<NodeId, SymbolCode> {
  const out = new Map<NodeId, SymbolCode>();
  for (const symbol of symbols) {
    const entry = code.get(symbol.node.id);
    if (entry) out.set(symbol.node.id, entry);
  }
  return out;
}
