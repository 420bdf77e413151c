/**
 * One measuring process of `bench:native` (native-bench.ts), which starts it once per run and
 * side so that each side starts as a user's process would:
 *
 *   node --import tsx native-parse.ts <native|wasm|compare> <install prefix> <list.json> <passes>
 *
 * `list.json` holds the files as `[{ path, absolutePath, language, grammar }]`. Parse passes
 * first: the first includes loading the runtime and the grammars, the later ones parse warm, each
 * tree built and freed. Then as many passes that parse and walk every node with a cursor (its
 * type and its span: the least an extractor reads), and for WASM as many of the indexer's own
 * extraction (`extractFile` on the bytes read beforehand: the hash, the parse, every symbol and
 * reference, the encoding). `compare`
 * parses every file with both and counts the files whose trees (as S-expressions) are the same.
 * Prints one line of JSON.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createParser, extractFile } from '@knowing/indexer/language';
import type { GrammarName } from '@knowing/indexer/language';
import { NATIVE_GRAMMARS } from './native-lib.js';
import type { ListedFile } from './native-lib.js';

/** A cursor's moves and what it reads, as both runtimes name them. */
interface AnyCursor {
  readonly nodeType: string;
  readonly startIndex: number;
  readonly endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete?(): void;
}

/** The parts of a tree both runtimes have. */
interface AnyTree {
  readonly rootNode: { toString(): string };
  walk(): AnyCursor;
  delete?(): void;
}

type Parse = (grammar: GrammarName, text: string) => AnyTree;

const [side, prefix, listFile, passesText] = process.argv.slice(2);
if (!side || !prefix || !listFile || !['native', 'wasm', 'compare'].includes(side)) {
  process.stderr.write('usage: native-parse.ts <native|wasm|compare> <install prefix> <list.json> [passes]\n');
  process.exit(2);
}
const passes = Math.max(2, Number(passesText ?? '3'));
const files = JSON.parse(readFileSync(listFile, 'utf8')) as ListedFile[];
const bytes = files.map((file) => readFileSync(file.absolutePath));
const texts = bytes.map((data) => data.toString('utf8'));
const grammars = [...new Set(files.map((file) => file.grammar))];

/** The Node bindings from the scratch install, one parser per grammar. */
function nativeParse(): Parse {
  const require = createRequire(join(prefix!, 'package.json'));
  const Parser = require('tree-sitter') as new () => { setLanguage(language: unknown): void; parse(text: string, old?: unknown, options?: { bufferSize?: number }): AnyTree };
  const parsers = new Map<GrammarName, InstanceType<typeof Parser>>();
  for (const grammar of grammars) {
    const spec = NATIVE_GRAMMARS.find((entry) => entry.wasm === grammar);
    if (!spec) throw new Error(`no native package for the ${grammar} grammar`);
    const loaded = require(spec.packageName) as Record<string, unknown>;
    const parser = new Parser();
    parser.setLanguage(spec.exportName ? loaded[spec.exportName] : loaded);
    parsers.set(grammar, parser);
  }
  // The whole text in one chunk: the bindings read a string through a callback, 32 KB a call by default.
  return (grammar, text) => parsers.get(grammar)!.parse(text, undefined, { bufferSize: Math.max(1024, text.length * 2 + 2) });
}

/** web-tree-sitter with the indexer's grammars, loaded the way the indexer loads them. */
async function wasmParse(): Promise<Parse> {
  const parsers = new Map<GrammarName, Awaited<ReturnType<typeof createParser>>>();
  for (const grammar of grammars) parsers.set(grammar, await createParser(grammar));
  return (grammar, text) => {
    const tree = parsers.get(grammar)!.parse(text);
    if (!tree) throw new Error('web-tree-sitter returned no tree');
    return tree as unknown as AnyTree;
  };
}

/** Every node's type and span, depth first; returns a sum of them so the reads are not dropped. */
function walkAll(tree: AnyTree): number {
  const cursor = tree.walk();
  let sum = 0;
  for (;;) {
    sum += cursor.nodeType.length + cursor.endIndex - cursor.startIndex;
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        cursor.delete?.();
        return sum;
      }
    }
  }
}

function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

if (side === 'compare') {
  const native = nativeParse();
  const wasm = await wasmParse();
  let same = 0;
  const differing: string[] = [];
  for (let i = 0; i < files.length; i++) {
    const a = native(files[i]!.grammar, texts[i]!);
    const b = wasm(files[i]!.grammar, texts[i]!);
    if (a.rootNode.toString() === b.rootNode.toString()) same++;
    else if (differing.length < 5) differing.push(files[i]!.path);
    b.delete?.();
  }
  process.stdout.write(`${JSON.stringify({ files: files.length, same, differing })}\n`);
} else {
  const started = performance.now();
  const parse = side === 'native' ? nativeParse() : await wasmParse();
  const loadMs = performance.now() - started;
  const passMs: number[] = [];
  for (let i = 0; i < passes; i++) passMs.push(timed(() => files.forEach((file, at) => parse(file.grammar, texts[at]!).delete?.())));
  const walkMs: number[] = [];
  const extractMs: number[] = [];
  let checksum = 0;
  for (let i = 1; i < passes; i++) {
    walkMs.push(timed(() => files.forEach((file, at) => {
      const tree = parse(file.grammar, texts[at]!);
      checksum += walkAll(tree);
      tree.delete?.();
    })));
    if (side === 'wasm') {
      const started = performance.now();
      for (let at = 0; at < files.length; at++) {
        const file = files[at]!;
        // The bytes read before the clock started, as for the parses: no disk in any column.
        const extracted = await extractFile({ path: file.path, absolutePath: file.absolutePath, language: file.language, timeoutMs: 60_000 }, undefined, async () => bytes[at]!);
        checksum += extracted.sizeBytes;
      }
      extractMs.push(performance.now() - started);
    }
  }
  process.stdout.write(`${JSON.stringify({ loadMs, passMs, walkMs, extractMs, checksum })}\n`);
}
