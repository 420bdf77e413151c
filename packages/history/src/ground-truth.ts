/**
 * Which functions a diff changed: the innermost function, method or constructor of the OLD
 * file around each removed line, and the already-existing function of the NEW file around each
 * added line, named as the graph names them on the parent commit.
 */
import { qualifiedNameOf } from '@knowing/indexer/language';
import type { FileExtraction, SymbolDef } from '@knowing/indexer/language';
import type { FileDiff } from './diff.js';

/** Symbol kinds a task's ground truth is made of. */
export const FUNCTION_KINDS: ReadonlySet<string> = new Set(['function', 'method', 'constructor']);

/** A function whose body the diff changed, as it was on the parent commit. */
export interface ChangedFunction {
  /** The graph's qualified name on the parent: `src/flask/app.py.Flask.run`. */
  readonly qualifiedName: string;
  /** Old-side repo path. */
  readonly path: string;
  readonly name: string;
  readonly kind: string;
  readonly startLine: number;
  readonly endLine: number;
  /** The extractor's `isTest` flag. */
  readonly isTest: boolean;
}

/** The two sides of one changed file. */
export interface FileSides {
  readonly diff: FileDiff;
  /** Extraction of the old (parent) file; undefined when the file is new or not a source file. */
  readonly old: FileExtraction | undefined;
  /** Extraction of the new file; needed only when the diff adds lines. */
  readonly new: FileExtraction | undefined;
  /** Text of the new file, to tell structural lines in a new-side function. */
  readonly newText?: string;
}

/** Blank lines and lines of closing punctuation or `end` say nothing about which function changed: a diff may slide them across a boundary. */
export function isStructuralLine(text: string): boolean {
  return /^\s*(?:[)\]}]+[;,)\]}]*|end|\}?\s*else\s*\{?|)\s*$/.test(text);
}

/** The symbol part of a qualified name (what follows the file path). */
function localName(symbol: SymbolDef): string {
  return symbol.localName ?? [...symbol.scope, symbol.name].join('.');
}

/** Function-like symbols containing `line`, innermost first. */
function functionsAt(symbols: readonly SymbolDef[], line: number): SymbolDef[] {
  return symbols
    .filter((symbol) => FUNCTION_KINDS.has(symbol.kind) && symbol.startLine <= line && line <= symbol.endLine)
    .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine) || b.startLine - a.startLine);
}

/**
 * Functions of the old file the diff of one file changed.
 *
 * Removed lines count for the innermost old function around them (so a deleted function counts).
 * Added lines count for the innermost new function around them that is not itself wholly added
 * (a new function, or a new overload, is not a change of an existing one), provided the old file
 * had a function of that name; a wholly added function inside an existing one counts for the
 * existing one.
 *
 * @example
 * ```ts
 * changedFunctions({ diff, old: oldExtraction, new: newExtraction, newText });
 * // → [{ qualifiedName: 'app.py.Flask.run', kind: 'method', … }]
 * ```
 */
export function changedFunctions(sides: FileSides): ChangedFunction[] {
  const { diff, old } = sides;
  if (!old || diff.oldPath === null) return [];
  const oldPath = diff.oldPath;
  const found = new Map<SymbolDef, true>();
  for (const hunk of diff.hunks) {
    for (const removed of hunk.deleted) {
      if (isStructuralLine(removed.text)) continue;
      const inner = functionsAt(old.symbols, removed.line)[0];
      if (inner) found.set(inner, true);
    }
  }
  const added = new Set<number>();
  for (const hunk of diff.hunks) for (const line of hunk.added) added.add(line.line);
  if (added.size > 0 && sides.new) {
    const newLines = sides.newText?.split('\n');
    const whollyAdded = (symbol: SymbolDef): boolean => {
      for (let line = symbol.startLine; line <= symbol.endLine; line++) {
        if (added.has(line)) continue;
        if (newLines && isStructuralLine(newLines[line - 1] ?? '')) continue;
        return false;
      }
      return true;
    };
    const oldByName = new Map<string, SymbolDef>();
    for (const symbol of old.symbols) if (FUNCTION_KINDS.has(symbol.kind) && !oldByName.has(localName(symbol))) oldByName.set(localName(symbol), symbol);
    for (const hunk of diff.hunks) {
      for (const line of hunk.added) {
        if (isStructuralLine(line.text)) continue;
        const existing = functionsAt(sides.new.symbols, line.line).find((symbol) => !whollyAdded(symbol));
        const match = existing ? oldByName.get(localName(existing)) : undefined;
        if (match) found.set(match, true);
      }
    }
  }
  return [...found.keys()]
    .sort((a, b) => a.startLine - b.startLine || a.name.localeCompare(b.name))
    .map((symbol) => ({
      qualifiedName: qualifiedNameOf(oldPath, symbol),
      path: oldPath,
      name: symbol.name,
      kind: symbol.kind,
      startLine: symbol.startLine,
      endLine: symbol.endLine,
      isTest: symbol.isTest,
    }));
}
