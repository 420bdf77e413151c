import type { GraphNode, GraphStore, NodeKind } from '@knowing/graph';
import { extractStackFrames } from '@knowing/keywords/frames';
import type { StackFrame } from '@knowing/keywords/frames';
import type { Channel, ChannelHit } from '../channel.js';

const CALLABLE: ReadonlySet<NodeKind> = new Set<NodeKind>(['function', 'method', 'constructor']);

const slashes = (path: string): string => path.replace(/\\/g, '/');

/** Where installed dependencies and runtimes live: frames there are not the repository's code. */
const DEPENDENCY_PATH = /(?:site-packages|dist-packages|node_modules|\/usr\/lib\/|\.cargo\/registry|\/go\/pkg\/mod\/|\/gems\/|\/rustc\/|<frozen |^node:|^internal\/)/;

/** JVM, .NET and Go runtime namespaces: a frame there names no symbol of the repository. */
const RUNTIME_SYMBOL = /^(?:java|javax|jdk|sun|kotlin|scala|System|Microsoft|runtime|testing|reflect)\./;

/** Parts of a frame's symbol: `com.acme.Cart.total` → com, acme, Cart, total; `shop.(*Cart).Total` → shop, Cart, Total. */
function symbolParts(symbol: string): string[] {
  return symbol.split(/::|[.#/()*\s]+/).filter((part) => /\w/.test(part));
}

/**
 * The repository file a frame names: the stored path the frame's path ends with (a trace spells
 * it absolute, or from another root, or — Java — by its base name only); among several, the one
 * sharing most directory names with the frame's symbol (`com.acme.shop.Cart` → com/acme/shop).
 */
function resolveFile(frame: StackFrame, files: readonly string[]): string | undefined {
  if (!frame.file) return undefined;
  const path = slashes(frame.file).replace(/^\.\//, '');
  const matches = files.filter((file) => path === file || path.endsWith(`/${file}`) || file.endsWith(`/${path}`));
  if (matches.length <= 1) return matches[0];
  const parts = new Set((frame.symbol ? symbolParts(frame.symbol) : []).map((p) => p.toLowerCase()));
  const overlap = (file: string): number => file.toLowerCase().split('/').filter((segment) => parts.has(segment)).length;
  return [...matches].sort((a, b) => overlap(b) - overlap(a) || b.length - a.length)[0];
}

/** The innermost symbol of `nodes` whose lines hold `line`, functions before other kinds. */
function innermostAt(nodes: readonly GraphNode[], line: number): GraphNode | undefined {
  let best: GraphNode | undefined;
  for (const node of nodes) {
    if (node.kind === 'file' || node.external || node.startLine > line || node.endLine < line) continue;
    if (!best) {
      best = node;
      continue;
    }
    const callable = CALLABLE.has(node.kind) ? 0 : 1;
    const bestCallable = CALLABLE.has(best.kind) ? 0 : 1;
    if (callable < bestCallable || (callable === bestCallable && node.endLine - node.startLine < best.endLine - best.startLine)) best = node;
  }
  return best;
}

/** A symbol named by a frame without a usable file: same terminal name, qualifiers in its qualified name. */
async function bySymbol(store: GraphStore, symbol: string, file: string | undefined): Promise<GraphNode | undefined> {
  const parts = symbolParts(symbol);
  const terminal = parts[parts.length - 1];
  if (!terminal || terminal.length < 2) return undefined;
  const candidates = (await store.findNodesByName(terminal, { match: 'exact', limit: 50 })).filter((n) => !n.external && n.kind !== 'file');
  const qualifiers = parts.slice(0, -1).map((p) => p.toLowerCase());
  const score = (node: GraphNode): number => {
    const qualified = node.qualifiedName.toLowerCase();
    return (file && node.file === file ? 10 : 0) + qualifiers.filter((q) => qualified.includes(q)).length;
  };
  const best = [...candidates].sort((a, b) => score(b) - score(a))[0];
  // A qualified frame (`com.acme.Cart.total`) must share a qualifier with the symbol it names.
  return best && (qualifiers.length === 0 || score(best) > 0) ? best : undefined;
}

/**
 * Stack traces pasted into a task, resolved to the repository's symbols: each frame inside the
 * repository (library frames resolve to nothing) by its file and line, else by its function's
 * name; innermost frames first. A task without a trace costs a regular-expression scan.
 *
 * @example
 * ```ts
 * const hits = await createTraceChannel().run({ store, task: report, keywords, aboutTests: false });
 * hits[0].node.qualifiedName; // the function where it failed
 * ```
 */
export function createTraceChannel(): Channel {
  return {
    name: 'traces',
    fingerprint: () => 'traces@1',
    async run({ store, task }): Promise<ChannelHit[]> {
      const frames = extractStackFrames(task).sort((a, b) => a.depth - b.depth);
      if (frames.length === 0) return [];
      const files = (await store.listFiles()).map((f) => f.path);
      const hits: ChannelHit[] = [];
      const seen = new Set<string>();
      for (const frame of frames) {
        const file = resolveFile(frame, files);
        let node: GraphNode | undefined;
        if (file && frame.line !== undefined) node = innermostAt(await store.nodesInFile(file), frame.line);
        const outside = (frame.file !== undefined && !file && DEPENDENCY_PATH.test(slashes(frame.file))) || (frame.symbol !== undefined && RUNTIME_SYMBOL.test(frame.symbol));
        if (!node && frame.symbol && !outside) node = await bySymbol(store, frame.symbol, file);
        if (!node || seen.has(node.id)) continue;
        seen.add(node.id);
        hits.push({ node, detail: `frame ${frame.depth}`, score: 1 / (1 + frame.depth) });
      }
      return hits;
    },
  };
}
