/**
 * Helpers shared by the per-language extraction tests: extracting a fixture file, listing a
 * fixture's sources, building expected symbols and references, and rendering extraction
 * output one line per item.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileExtraction, LanguageModule, NameRef, Reference, ReferenceKind, SymbolDef } from '../../src/languages/types.js';
import { createParser, withTree } from '../../src/parser.js';

/** Extract `relative` (a path under `root`) with `language`. */
export async function extractFile(language: LanguageModule, root: string, relative: string): Promise<FileExtraction> {
  const source = await readFile(path.join(root, relative), 'utf8');
  const parser = await createParser(language.grammarFor(relative));
  return withTree(parser, language.parseText?.(source) ?? source, (tree) => language.extract(tree.rootNode, source, relative));
}

/** Every file under `dir` whose name ends with `extension`, as sorted `/`-separated paths relative to `dir`. */
export async function sourceFiles(dir: string, extension: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await sourceFiles(path.join(dir, entry.name), extension, relative)));
    else if (entry.name.endsWith(extension)) out.push(relative);
  }
  return out.sort();
}

type DefFields = Partial<SymbolDef> & Pick<SymbolDef, 'name' | 'kind' | 'startLine' | 'endLine' | 'signature'>;

/** A symbol with the defaults most rows share: top level, exported, no doc, not a test. */
export function def(symbol: DefFields): SymbolDef {
  return { scope: [], doc: '', isTest: false, parent: -1, exported: true, ...symbol };
}

/** A test-file symbol. */
export function testDef(symbol: DefFields): SymbolDef {
  return def({ isTest: true, ...symbol });
}

export const t = (name: string, ...qualifier: string[]): NameRef => ({ name, qualifier });

export function use(kind: ReferenceKind, target: NameRef, from: number, line: number, receiverType?: NameRef): Reference {
  return receiverType ? { ...target, from, kind, receiverType, line } : { ...target, from, kind, line };
}

export const dotted = (ref: NameRef) => [...ref.qualifier, ref.name].join('.');

/** Every structural field of a symbol on one line (signature and doc are checked apart). */
export function symbolRow(s: SymbolDef): string {
  return (
    `${s.kind} ${[...s.scope, s.name].join('.')} ${s.startLine}-${s.endLine}${s.exported ? ' exported' : ''}${s.isTest ? ' test' : ''} ^${s.parent}` +
    (s.supertypes ? ' ' + s.supertypes.map((t) => `${t.relation}:${dotted(t)}`).join(' ') : '') +
    (s.decorators ? ' ' + s.decorators.map((d) => '@' + dotted(d)).join(' ') : '') +
    (s.typeHints ? ' hints:' + s.typeHints.map(dotted).join(',') : '') +
    (s.valueType ? ' value:' + dotted(s.valueType) : '') +
    (s.overrides ? ' overrides' : '')
  );
}

export function referenceRow(r: Reference): string {
  return `${r.from} ${r.kind} ${dotted(r)}${r.receiverType ? ' : ' + dotted(r.receiverType) : ''} @${r.line}`;
}
