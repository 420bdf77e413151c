/**
 * Parse and extract one file. Runs in a worker thread or, when workers are off, in the
 * calling thread; either way grammars and parsers are created once per thread.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Node as SyntaxNode, Parser } from 'web-tree-sitter';
import type { LanguageId } from '@knowing/graph';
import { encodeExtraction } from './codec.js';
import { BUILTIN_LANGUAGES } from './languages/registry.js';
import type { FileExtraction, LanguageModule } from './languages/types.js';
import { countSyntaxErrors } from './languages/common.js';
import { createParser, ParseTimeoutError, withTree } from './parser.js';
import type { GrammarName } from './parser.js';

/** One file to extract. */
export interface ExtractTask {
  /** Repo-relative path. */
  readonly path: string;
  readonly absolutePath: string;
  /** Id of the language module to use (a built-in one, so workers can find it). */
  readonly language: LanguageId;
  /** Abandon a parse that takes longer than this. */
  readonly timeoutMs: number;
}

/** What extraction produced. */
export interface ExtractResult {
  readonly path: string;
  /** The encoded extraction (see codec.ts); empty-but-valid on failure. */
  readonly encoded: Uint8Array;
  /** The decoded extraction, when produced in this thread. */
  readonly extraction?: FileExtraction;
  /** Hash of the bytes actually parsed (the file may have changed since discovery). */
  readonly contentHash: string;
  readonly sizeBytes: number;
  /** Set when the file could not be extracted normally. */
  readonly warning?: string;
  /** False for fallbacks (timeouts, crashes) that a later run should retry. */
  readonly cacheable: boolean;
}

const parsers = new Map<GrammarName, Promise<Parser>>();

function parserFor(grammar: GrammarName): Promise<Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = createParser(grammar);
    parsers.set(grammar, parser);
  }
  return parser;
}

/** An extraction with nothing in it, for files that could not be processed. */
export function emptyExtraction(path: string, language: LanguageId): FileExtraction {
  return { path, language, symbols: [], references: [], imports: [], namespace: '', syntaxErrors: 0 };
}

/** Version stamp stored with cached extractions of this module. */
export function moduleVersion(module: LanguageModule): string {
  return module.version ?? '0';
}

/**
 * Tree depths at which a file is cut when its extractor runs out of stack (extractors recurse
 * over the syntax tree, and 5,000 nested brackets nest it 5,000 levels deep): the text of every
 * node deeper than the cut is blanked and the file extracted again, so the definitions above
 * the cut keep their symbols. Real code stays far above the first; the next ones are for
 * extractors that spend more stack per level, or a thread with a smaller stack.
 */
const DEPTH_CUTS: readonly number[] = [400, 100, 25];

/** Top-level ERROR regions re-parsed per file, at most. */
const MAX_RECOVERIES = 8;

/**
 * Extract, then win back definitions tree-sitter swallowed into a top-level ERROR node
 * (a broken `def` can absorb the rest of a file): the text from the next line starting at
 * column 0 to the end of the error is parsed again on its own, with everything else blanked
 * so line numbers stay true, and what it defines is merged in.
 */
function extractRecovering(parser: Parser, module: LanguageModule, source: string, path: string, timeoutMs: number): FileExtraction {
  let regions: [number, number][] = [];
  const parseText = (text: string): string => module.parseText?.(text) ?? text;
  const base = withTree(
    parser,
    parseText(source),
    (tree) => {
      regions = errorRegions(tree.rootNode, source);
      return module.extract(tree.rootNode, source, path);
    },
    timeoutMs,
  );
  if (regions.length === 0) return base;
  const lines = source.split('\n');
  let merged = base;
  let budget = MAX_RECOVERIES;
  while (regions.length > 0 && budget-- > 0) {
    const [from, to] = regions.shift()!;
    const masked = lines.map((line, row) => (row >= from && row <= to ? line : '')).join('\n');
    const extra = withTree(
      parser,
      parseText(masked),
      (tree) => {
        for (const region of errorRegions(tree.rootNode, masked)) if (region[0] > from) regions.push(region);
        return module.extract(tree.rootNode, masked, path);
      },
      timeoutMs,
    );
    merged = mergeExtractions(merged, extra);
  }
  return merged;
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/**
 * Extract a file nested too deeply for its extractor's recursion: cut its tree at each of
 * {@link DEPTH_CUTS} in turn until extraction fits on the stack. The syntax errors counted
 * are those of the file as written, not of the blanked text.
 */
function extractCut(parser: Parser, module: LanguageModule, source: string, path: string, timeoutMs: number, overflow: unknown): { extraction: FileExtraction; warning: string } {
  const text = module.parseText?.(source) ?? source;
  let syntaxErrors = 0;
  const cuts = new Map<number, { masked: string; fromRow: number; toRow: number } | undefined>();
  withTree(
    parser,
    text,
    (tree) => {
      syntaxErrors = countSyntaxErrors(tree.rootNode);
      for (const depth of DEPTH_CUTS) cuts.set(depth, blankBelow(tree.rootNode, source, depth));
    },
    timeoutMs,
  );
  let failure = overflow;
  for (const depth of DEPTH_CUTS) {
    const cut = cuts.get(depth);
    if (!cut) continue;
    try {
      const extraction = extractRecovering(parser, module, cut.masked, path, timeoutMs);
      return {
        extraction: { ...extraction, syntaxErrors },
        warning: `${path}: nested more than ${depth} levels deep (lines ${cut.fromRow + 1}-${cut.toRow + 1}); the code below that depth was not indexed`,
      };
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
      failure = error;
    }
  }
  throw failure;
}

/**
 * `source` with every node `depth` levels below the root that has children replaced by `0`
 * and blanks (line breaks kept, so positions and lines stay true), and the rows replaced;
 * undefined when the tree is not that deep. A number is an expression in every language here,
 * so `x = ((((…))))` stays a valid assignment (`((0 … ))`) and the code around it parses as
 * before. Walked with a cursor: the tree is too deep to recurse over.
 */
function blankBelow(root: SyntaxNode, source: string, depth: number): { masked: string; fromRow: number; toRow: number } | undefined {
  const ranges: [number, number][] = [];
  let fromRow = Infinity;
  let toRow = -1;
  const cursor = root.walk();
  try {
    let level = 0;
    outer: for (;;) {
      if (level >= depth) {
        const node = cursor.currentNode;
        if (node.childCount > 0) {
          ranges.push([node.startIndex, node.endIndex]);
          fromRow = Math.min(fromRow, node.startPosition.row);
          toRow = Math.max(toRow, node.endPosition.row);
        }
      } else if (cursor.gotoFirstChild()) {
        level++;
        continue;
      }
      for (;;) {
        if (cursor.gotoNextSibling()) continue outer;
        if (!cursor.gotoParent()) break outer;
        level--;
      }
    }
  } finally {
    cursor.delete();
  }
  if (ranges.length === 0) return undefined;
  let masked = '';
  let at = 0;
  for (const [start, end] of ranges) {
    const blank = source.slice(start, end).replace(/[^\r\n]/g, ' ');
    masked += source.slice(at, start) + blank.replace(' ', '0');
    at = end;
  }
  return { masked: masked + source.slice(at), fromRow, toRow };
}

/** Row ranges worth re-parsing: from the first column-0 line inside a multi-line top-level ERROR to its end. */
function errorRegions(root: SyntaxNode, source: string): [number, number][] {
  if (!root.hasError) return [];
  const regions: [number, number][] = [];
  let lines: string[] | undefined;
  for (const child of root.children) {
    if (child?.type !== 'ERROR') continue;
    const start = child.startPosition.row;
    const end = child.endPosition.row;
    if (end <= start) continue;
    lines ??= source.split('\n');
    for (let row = start + 1; row <= end; row++) {
      if (/^[A-Za-z_@#[]/.test(lines[row] ?? '')) {
        regions.push([row, end]);
        break;
      }
    }
  }
  return regions;
}

/** Append `extra`'s definitions and uses to `base`, renumbering symbol indexes. */
function mergeExtractions(base: FileExtraction, extra: FileExtraction): FileExtraction {
  const offset = base.symbols.length;
  const shift = (index: number): number => (index >= 0 ? index + offset : index);
  return {
    ...base,
    symbols: [...base.symbols, ...extra.symbols.map((symbol) => ({ ...symbol, parent: shift(symbol.parent) }))],
    references: [...base.references, ...extra.references.map((reference) => ({ ...reference, from: shift(reference.from) }))],
    imports: [...base.imports, ...extra.imports],
  };
}

/**
 * How {@link extractFile} reads a file: asynchronously by default. A worker thread, which has
 * nothing else to do meanwhile, passes `readFileSync`: a fraction of the CPU of the four
 * thread-pool round trips (open, stat, read, close) of `fs.promises.readFile`.
 */
export type ReadFile = (absolutePath: string) => Buffer | Promise<Buffer>;

/** Read, parse and extract one file. Never throws for a bad file: it returns a warning instead. */
export async function extractFile(task: ExtractTask, modules: readonly LanguageModule[] = BUILTIN_LANGUAGES, read: ReadFile = readFile): Promise<ExtractResult> {
  const module = modules.find((candidate) => candidate.id === task.language);
  if (!module) throw new Error(`no language module "${task.language}"`);
  const version = moduleVersion(module);
  let bytes: Buffer;
  try {
    bytes = await read(task.absolutePath);
  } catch (error) {
    const empty = emptyExtraction(task.path, task.language);
    return {
      path: task.path,
      encoded: encodeExtraction(empty, '', version),
      extraction: empty,
      contentHash: '',
      sizeBytes: 0,
      warning: `${task.path}: unreadable (${(error as Error).message})`,
      cacheable: false,
    };
  }
  const contentHash = createHash('sha256').update(bytes).digest('hex');
  const source = bytes.toString('utf8');
  let extraction: FileExtraction;
  let warning: string | undefined;
  let cacheable = true;
  try {
    const parser = await parserFor(module.grammarFor(task.path));
    try {
      extraction = extractRecovering(parser, module, source, task.path, task.timeoutMs);
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
      ({ extraction, warning } = extractCut(parser, module, source, task.path, task.timeoutMs, error));
    }
  } catch (error) {
    extraction = emptyExtraction(task.path, task.language);
    cacheable = false;
    warning =
      error instanceof ParseTimeoutError
        ? `${task.path}: parse took longer than ${task.timeoutMs} ms; indexed without symbols`
        : `${task.path}: extraction failed (${(error as Error).message}); indexed without symbols`;
  }
  return {
    path: task.path,
    encoded: encodeExtraction(extraction, contentHash, version),
    extraction,
    contentHash,
    sizeBytes: bytes.length,
    ...(warning ? { warning } : {}),
    cacheable,
  };
}
