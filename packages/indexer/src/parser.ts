import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import type { Tree } from 'web-tree-sitter';
import { installFastNodeAccess } from './fast-node.js';

/** Grammar file stems shipped by @repomix/tree-sitter-wasms. */
export type GrammarName = 'python' | 'go' | 'typescript' | 'tsx' | 'javascript' | 'rust' | 'java' | 'c_sharp' | 'ruby';

const require = createRequire(import.meta.url);
let initialised: Promise<void> | undefined;
const languages = new Map<GrammarName, Promise<Language>>();

function grammarPath(name: GrammarName): string {
  return require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${name}.wasm`);
}

/**
 * Start web-tree-sitter's WASM runtime with an options object of our own: emscripten makes that
 * very object the module, which lets {@link installFastNodeAccess} reach the WASM heap.
 */
async function startRuntime(): Promise<void> {
  // Found from the package, not from the script's own folder: a bundle that holds web-tree-sitter
  // (the CLI's) has its own folder, without the runtime's .wasm.
  const runtime = { locateFile: (file: string) => require.resolve(`web-tree-sitter/${file}`) };
  await Parser.init(runtime as Parameters<typeof Parser.init>[0]);
  installFastNodeAccess(runtime);
}

/**
 * Load (once per thread) the WASM grammar of `name`.
 *
 * @example
 * ```ts
 * const python = await loadGrammar('python');
 * ```
 */
export async function loadGrammar(name: GrammarName): Promise<Language> {
  initialised ??= startRuntime();
  let language = languages.get(name);
  if (!language) {
    // The file is read while the runtime may still be compiling, and handed over as bytes:
    // given a path, web-tree-sitter imports fs/promises with import(), which starts Node's ES
    // module loader in a CommonJS process (the CLI's bundle) for that one read.
    const bytes = readFile(grammarPath(name));
    bytes.catch(() => {});
    language = initialised.then(async () => Language.load(await bytes));
    languages.set(name, language);
  }
  return language;
}

/**
 * Start loading, in the background, what a parse in this thread will need: the WASM runtime,
 * and the grammars named. Most of it compiles off the thread, so a caller that starts it
 * before other work (the file walk, reading cached results) has it ready or nearly so when
 * the first file is parsed. A failure is left for {@link loadGrammar} to report.
 *
 * @example
 * ```ts
 * preloadGrammars(['python']); // then walk the tree
 * ```
 */
export function preloadGrammars(names: Iterable<GrammarName>): void {
  initialised ??= startRuntime();
  initialised.catch(() => {});
  for (const name of names) loadGrammar(name).catch(() => {});
}

/**
 * A parser bound to one grammar; reuse it for many files of that language.
 *
 * @example
 * ```ts
 * const parser = await createParser('go');
 * const names = withTree(parser, 'package main\nfunc main() {}\n', (tree) => tree.rootNode.type); // 'source_file'
 * ```
 */
export async function createParser(name: GrammarName): Promise<Parser> {
  const language = await loadGrammar(name);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** Thrown by {@link withTree} when a parse runs past its deadline. */
export class ParseTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`parse exceeded ${timeoutMs} ms`);
    this.name = 'ParseTimeoutError';
  }
}

/**
 * Parse `source` and hand the tree to `use`, deleting the tree afterwards: WASM trees live
 * outside the JS heap and must be freed explicitly. With `timeoutMs`, tree-sitter's progress
 * callback cancels a parse that runs too long (a pathological file must not stall a run) and
 * {@link ParseTimeoutError} is thrown.
 *
 * @example
 * ```ts
 * const count = withTree(parser, source, (tree) => tree.rootNode.namedChildCount, 10_000);
 * ```
 */
export function withTree<T>(parser: Parser, source: string, use: (tree: Tree) => T, timeoutMs?: number): T {
  let tree: Tree | null;
  if (timeoutMs !== undefined && timeoutMs > 0) {
    const deadline = performance.now() + timeoutMs;
    // The typings declare a void callback, but the runtime cancels when it returns true.
    const progressCallback = (() => performance.now() > deadline) as unknown as () => void;
    tree = parser.parse(source, null, { progressCallback });
    if (!tree) throw new ParseTimeoutError(timeoutMs);
  } else {
    tree = parser.parse(source);
  }
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}
