import type { ContextPack, NodeId, RankedSymbol } from '@knowing/graph';
import type { PackDelta, Tokenizer } from '@knowing/pack';

/**
 * Options every formatter receives. Each format reads the ones that apply to it and ignores
 * the rest (the table in the README says which).
 */
export interface FormatOptions {
  /** The task the pack answers; shown by xml, markdown and json. */
  readonly task?: string;
  /** Name of the producing tool, written in gcf, gcb and json headers. @default 'knowing' */
  readonly tool?: string;
  /** gcf: symbols this session already sent are written as short references. */
  readonly session?: GcfSession;
  /**
   * The pack sent last time. gcf answers `unchanged` for the same pack root and a delta when
   * it costs under `deltaThreshold` of the full pack; gcf (full), gcb and json mark edges that
   * are new since `previous` as `added`.
   */
  readonly previous?: ContextPack;
  /** Token counter for `symbolCost` and the gcf delta decision. @default ⌊characters / 4⌋ */
  readonly tokenizer?: Tokenizer;
  /** json: indent with two spaces. @default false */
  readonly pretty?: boolean;
  /** xml: characters of a symbol's doc comment to show (0 hides docs). @default 200 */
  readonly docChars?: number;
  /** gcf: send a delta only below this fraction of the full pack's tokens. @default 0.6 */
  readonly deltaThreshold?: number;
  /**
   * Source lines to print with symbols (code mode), by node id. `fitPack` chooses them; the
   * text formats print them under their symbol, gcb ignores them.
   */
  readonly code?: ReadonlyMap<NodeId, SymbolCode>;
}

/** Lines of a symbol's source printed with it in code mode. */
export interface SymbolCode {
  /** The lines as in the file, joined with LF, without a final LF. */
  readonly text: string;
  /** First line shown (1-based), the symbol's first line. */
  readonly startLine: number;
  /** Last line shown: the symbol's last line, or an earlier one when the body was cut. */
  readonly endLine: number;
  /** True when the body was cut at a line boundary before the symbol's end. */
  readonly truncated: boolean;
}

/**
 * An output format. `encode` is required; `symbolCost` lets packing spend the budget in this
 * format's real tokens (without it, `@knowing/pack`'s scaled estimate is used).
 *
 * @example
 * ```ts
 * const csv: Formatter = {
 *   name: 'csv',
 *   mediaType: 'text/csv',
 *   binary: false,
 *   encode: (pack) => pack.symbols.map((s) => `${s.node.qualifiedName},${s.score}`).join('\n'),
 * };
 * ```
 */
export interface Formatter {
  /** Registry key: lowercase letters, digits, `-` and `_`, starting with a letter. */
  readonly name: string;
  /** IANA media type of the output, e.g. `application/xml`. */
  readonly mediaType: string;
  /** True when `encode` returns bytes, false when it returns text. */
  readonly binary: boolean;
  /** Render a pack. Must be deterministic: the same pack and options give the same output. */
  encode(pack: ContextPack, options?: FormatOptions): string | Uint8Array;
  /** Tokens the symbol's own rendered lines cost in this format (at least 1). */
  symbolCost?(symbol: RankedSymbol, options?: FormatOptions): number;
}

/** Options of {@link FormatRegistry.register}. */
export interface RegisterOptions {
  /** Replace a formatter of the same name instead of rejecting it. @default false */
  readonly replace?: boolean;
}

/**
 * A set of formatters by name; see `createFormatRegistry`.
 *
 * @example
 * ```ts
 * const registry = createFormatRegistry();
 * registry.register(csv);
 * registry.get('csv').encode(pack);
 * ```
 */
export interface FormatRegistry {
  /** Add a formatter; a name already taken is rejected unless `replace` is set. */
  register(formatter: Formatter, options?: RegisterOptions): void;
  /** The formatter called `name` (case-insensitive); INVALID_ARGUMENT naming the known ones otherwise. */
  get(name: string): Formatter;
  has(name: string): boolean;
  /** Formatters in registration order. */
  list(): readonly Formatter[];
}

/** Options of `formatPack`. */
export interface FormatPackOptions extends FormatOptions {
  /** Name of the format to write. */
  readonly format: string;
  /** Where to look the format up. @default the built-in formats */
  readonly registry?: FormatRegistry;
}

/** Options of `costFunctionFor` and `costOptionsFor`, beyond the tokenizer. */
export interface CostFunctionOptions extends FormatOptions {
  /** Where to look the format up. @default the built-in formats */
  readonly registry?: FormatRegistry;
}

/** A symbol as identified in a GCF session: the pair its node line shows. */
export interface GcfSessionEntry {
  readonly qualifiedName: string;
  readonly kind: string;
  readonly id: number;
}

/**
 * The state of one GCF conversation (one MCP connection, say): which symbols were already
 * sent and under which global id. Ids are assigned 0, 1, 2, … and never reused. Encoders
 * record a document's new symbols only once it is produced.
 *
 * @example
 * ```ts
 * const session = createGcfSession();
 * formatPack(pack, { format: 'gcf', session });
 * session.idOf('src/auth/login.ts.handleLogin', 'function'); // 0
 * ```
 */
export interface GcfSession {
  /** Symbols recorded so far. */
  readonly size: number;
  /** The id the next new symbol gets. */
  readonly nextId: number;
  /** The id of a symbol sent earlier, or undefined. */
  idOf(qualifiedName: string, kind: string): number | undefined;
  /** Record a symbol (no-op when known) and return its id. */
  add(qualifiedName: string, kind: string): number;
  /** Everything recorded, by id; feed it to `createGcfSession` to restore a session. */
  entries(): GcfSessionEntry[];
  /** Forget everything; ids restart at 0. */
  clear(): void;
}

/** What to send for a pack given the one sent before. */
export type DeltaPlan =
  | { readonly mode: 'full' }
  | { readonly mode: 'unchanged' }
  | {
      readonly mode: 'delta';
      readonly delta: PackDelta;
      /** Tokens of the delta document's body (everything after its header line). */
      readonly tokens: number;
      /** Tokens of the full document's body, on the same counter. */
      readonly fullTokens: number;
      /** 1 − tokens / fullTokens. */
      readonly savings: number;
    };

/** Status of an edge relative to the previously sent pack. */
export type EdgeStatus = 'added' | 'removed';

/** A symbol as a GCB document carries it. */
export interface GcbSymbol {
  readonly qualifiedName: string;
  readonly kind: string;
  /** Stored as a 32-bit float. */
  readonly score: number;
  readonly provenance?: string;
  readonly distance: number;
  readonly file: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly signature: string;
  /** Values stored as 32-bit floats. */
  readonly components: Readonly<Record<string, number>>;
}

/** An edge of a GCB document; endpoints are positions in `symbols`. */
export interface GcbEdge {
  readonly source: number;
  readonly target: number;
  readonly type: string;
  readonly status?: EdgeStatus;
}

/** A decoded GCB document. */
export interface GcbDocument {
  readonly version: number;
  readonly tool: string;
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  /** Empty when the pack had none. */
  readonly packRoot: string;
  /** In the encoder's order: score descending, distance ascending, qualified name. */
  readonly symbols: readonly GcbSymbol[];
  readonly edges: readonly GcbEdge[];
}

/** A node line of a GCF document: a full line, or a reference to a symbol sent earlier. */
export type GcfNodeLine =
  | {
      readonly ref: false;
      readonly id: number;
      readonly distance: number;
      readonly kind: string;
      readonly qualifiedName: string;
      readonly score: number;
      readonly provenance?: string;
      /** `file:start-end` (absent in documents written before node lines carried it, and for placeholders). */
      readonly location?: string;
      /** The source lines printed under the node line in code mode. */
      readonly code?: GcfCode;
    }
  | { readonly ref: true; readonly id: number; readonly distance: number };

/** Source lines of a GCF node (the `|` lines under it). */
export interface GcfCode {
  /** The lines without their `|`, joined with LF. */
  readonly text: string;
  /** The writer cut the body (a final `|…` line). */
  readonly truncated: boolean;
}

/** A symbol line of a GCF delta's `## added` section (no distance: deltas have no distance sections). */
export interface GcfAddedLine {
  readonly id: number;
  readonly kind: string;
  readonly qualifiedName: string;
  readonly score: number;
  readonly provenance?: string;
  /** `file:start-end`, when the writer gave one. */
  readonly location?: string;
}

/** An edge line of a GCF pack document (`@T<@S TYPE [STATUS]`). */
export interface GcfEdgeLine {
  readonly target: number;
  readonly source: number;
  readonly type: string;
  readonly status?: EdgeStatus;
}

/** An edge line of a GCF delta document (`SOURCE_QN -> TARGET_QN TYPE`). */
export interface GcfNamedEdge {
  readonly source: string;
  readonly target: string;
  readonly type: string;
}

/** A full GCF pack document. */
export interface GcfPackDocument {
  readonly mode: 'pack';
  readonly tool: string;
  readonly budget: number;
  readonly tokens: number;
  readonly symbols: number;
  readonly session: boolean;
  readonly packRoot?: string;
  readonly nodes: readonly GcfNodeLine[];
  readonly edges: readonly GcfEdgeLine[];
}

/** A GCF delta document. */
export interface GcfDeltaDocument {
  readonly mode: 'delta';
  readonly tool: string;
  readonly baseRoot: string;
  readonly newRoot: string;
  readonly tokens: number;
  /** Whole percent. */
  readonly savings: number;
  readonly removed: readonly { readonly kind: string; readonly qualifiedName: string }[];
  readonly added: readonly GcfAddedLine[];
  readonly edgesRemoved: readonly GcfNamedEdge[];
  readonly edgesAdded: readonly GcfNamedEdge[];
}

/** A GCF "same pack as before" answer. */
export interface GcfUnchangedDocument {
  readonly mode: 'unchanged';
  readonly tool: string;
  readonly packRoot: string;
  readonly symbols: number;
}

/** Any decoded GCF document. */
export type GcfDocument = GcfPackDocument | GcfDeltaDocument | GcfUnchangedDocument;
