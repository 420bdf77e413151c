/**
 * Pure parts of `bench:native` (native-bench.ts): which tree-sitter packages it installs, what
 * npm's output says about a plain install of them, and the files it hands its measuring processes.
 */
import type { LanguageId } from '@knowing/graph';
import type { GrammarName } from '@knowing/indexer/language';

/** A file native-bench.ts hands its measuring processes (native-parse.ts). */
export interface ListedFile {
  readonly path: string;
  readonly absolutePath: string;
  readonly language: LanguageId;
  readonly grammar: GrammarName;
}

/** The Node bindings, the version whose runtime matches web-tree-sitter 0.25. */
export const NATIVE_RUNTIME = { name: 'tree-sitter', version: '0.25.0' } as const;

/** A grammar as its native package exports it, beside the WASM grammar of the same name. */
export interface NativeGrammar {
  /** The WASM grammar the indexer loads (`@repomix/tree-sitter-wasms/out/tree-sitter-<name>.wasm`). */
  readonly wasm: GrammarName;
  readonly packageName: string;
  readonly version: string;
  /** The export holding the language, when the package exports several (typescript, tsx). */
  readonly exportName?: string;
}

/**
 * The grammar packages @repomix/tree-sitter-wasms 0.1.17 builds its WASM grammars from, at the
 * versions its manifest names, so that both sides parse with the same grammar (native-bench.ts
 * compares the trees to check it).
 */
export const NATIVE_GRAMMARS: readonly NativeGrammar[] = [
  { wasm: 'python', packageName: 'tree-sitter-python', version: '0.25.0' },
  { wasm: 'go', packageName: 'tree-sitter-go', version: '0.25.0' },
  { wasm: 'java', packageName: 'tree-sitter-java', version: '0.23.5' },
  { wasm: 'javascript', packageName: 'tree-sitter-javascript', version: '0.25.0' },
  { wasm: 'typescript', packageName: 'tree-sitter-typescript', version: '0.23.2', exportName: 'typescript' },
  { wasm: 'tsx', packageName: 'tree-sitter-typescript', version: '0.23.2', exportName: 'tsx' },
  { wasm: 'ruby', packageName: 'tree-sitter-ruby', version: '0.23.1' },
  { wasm: 'rust', packageName: 'tree-sitter-rust', version: '0.24.0' },
  { wasm: 'c_sharp', packageName: 'tree-sitter-c-sharp', version: '0.23.1' },
];

/** The package specs one `npm install` takes: the runtime and each grammar package once. */
export function nativePackageSpecs(): string[] {
  const specs = new Set<string>([`${NATIVE_RUNTIME.name}@${NATIVE_RUNTIME.version}`]);
  for (const grammar of NATIVE_GRAMMARS) specs.add(`${grammar.packageName}@${grammar.version}`);
  return [...specs];
}

/**
 * What npm's output says about a plain install of the set: the package whose peer range could
 * not be met (npm's "While resolving: X" line) when it stopped with ERESOLVE, else undefined.
 *
 * @example
 * ```ts
 * peerConflict('npm error code ERESOLVE\nnpm error While resolving: tree-sitter-java@0.23.5\n'); // 'tree-sitter-java@0.23.5'
 * ```
 */
export function peerConflict(npmOutput: string): string | undefined {
  if (!/\bERESOLVE\b/.test(npmOutput) || !/npm (?:error|ERR!)/.test(npmOutput)) return undefined;
  return /While resolving: (\S+)/.exec(npmOutput)?.[1] ?? 'unknown package';
}
