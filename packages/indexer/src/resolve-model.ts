/**
 * The resolver's vocabulary: confidence levels, per-language resolution traits, the unit and
 * symbol shapes every part of a {@link Project} shares, and the small name helpers they use.
 */
import { CALLABLE_KINDS, nodeId, TYPE_LIKE_KINDS } from '@knowing/graph';
import type { Project } from './resolve.js';
import type { GraphEdge, GraphNode, NodeId, NodeKind, Provenance } from '@knowing/graph';
import type { FileExtraction, LanguageModule, ResolvedImport, SymbolDef } from './languages/types.js';

/** One file as the resolver sees it. */
export interface ProjectFile {
  readonly path: string;
  readonly extraction: FileExtraction;
  readonly language: LanguageModule;
  /**
   * No two symbols share a qualified name and kind (symbol tables are stored that way), so
   * the project can skip building qualified names to find duplicates.
   */
  readonly deduplicated?: boolean;
}

/**
 * How sure a resolution is, and how it was reached; see the README's confidence table.
 * Values at or above 0.8 are stored with provenance `ast_resolved`, lower ones `ast_inferred`.
 *
 * @example
 * ```ts
 * edges.filter((edge) => edge.confidence >= CONFIDENCE.sameNamespace); // drop guesses by name
 * ```
 */
export const CONFIDENCE = Object.freeze({
  /** contains / member_of. */
  structural: 1.0,
  /** A nested definition or a member of the enclosing class found by lexical scope. */
  lexical: 0.9,
  /** `self.m()` / `this.m()` defined on the enclosing class itself, or `super().m()`. */
  self: 0.9,
  /** `self.m()` found on an ancestor class. */
  inherited: 0.85,
  /** A name bound by an import, a module alias or a re-export chain. */
  imported: 0.9,
  /** `Class.member`, `pkg.Func`, fully qualified names. */
  qualified: 0.9,
  /** A top-level definition in the same file. */
  sameFile: 0.85,
  /** A top-level definition in another file of the same namespace (Go package, Java package, …). */
  sameNamespace: 0.8,
  /** Through a wildcard import: `from x import *`, C# `using`. */
  wildcard: 0.8,
  /** Through the receiver's declared or inferred type, or a field's value type. */
  receiverType: 0.8,
  /** A call into an imported external package (`requests.get`). */
  externalImported: 0.8,
  /** The only definition with that name in the repository. */
  uniqueName: 0.5,
  /** Several definitions share the name; the only one in the same file or directory was picked. */
  nearestName: 0.4,
  /** Unresolved: an external placeholder named as written. */
  unresolved: 0.3,
  /** Go structural interface satisfaction. */
  structuralImplements: 0.7,
  /** overrides / inherits derived from the resolved hierarchy. */
  hierarchy: 0.9,
  /** co_tested_with. */
  coTested: 0.6,
});

export interface Traits {
  /** Members of the enclosing class are in scope without `this.` (Java, C#, Ruby). */
  readonly implicitThis: boolean;
  /** Names a module imports can be imported from it in turn (Python); otherwise only `reexport` declarations. */
  readonly reexportsImports: boolean;
  /** Joins a module path and a submodule name (`a.b` + `c`), for languages with nested modules. */
  readonly moduleSeparator: string | undefined;
  /** Bare names may refer to definitions anywhere in the repository (Ruby's global constants and methods). */
  readonly bareNameFallback: boolean;
  /** Languages that can call each other's definitions. */
  readonly family: string;
  /** Constructor names when a module does not mark kind `constructor`. */
  readonly constructorNames: readonly string[];
  /**
   * An import's `source` is the dotted path of what it imports (`java.util.List` imports
   * `List`; `import static a.b.C.m` / `using static A.B.C` name type C, whose members it binds).
   */
  readonly importSourceIncludesName: boolean;
  /**
   * How declarations of one type spread over several files are recognised as parts of one type
   * (members and supertypes of every part are the type's): `namespace` — same namespace and
   * same type path (C# partial classes); `constantPath` — same constant path (Ruby classes and
   * modules reopened in several files; also enables Ruby's lexical constant lookup).
   */
  readonly parts: 'namespace' | 'constantPath' | undefined;
  /** Attribute classes may be named without this suffix (`[Obsolete]` is `ObsoleteAttribute`). */
  readonly attributeSuffix: string | undefined;
}

const BASE_TRAITS: Traits = {
  implicitThis: false,
  reexportsImports: false,
  moduleSeparator: undefined,
  bareNameFallback: false,
  family: '',
  constructorNames: [],
  importSourceIncludesName: false,
  parts: undefined,
  attributeSuffix: undefined,
};

const TRAITS: Readonly<Record<string, Traits>> = {
  python: { ...BASE_TRAITS, reexportsImports: true, moduleSeparator: '.', family: 'python', constructorNames: ['__init__'] },
  go: { ...BASE_TRAITS, family: 'go' },
  typescript: { ...BASE_TRAITS, family: 'js', constructorNames: ['constructor'] },
  tsx: { ...BASE_TRAITS, family: 'js', constructorNames: ['constructor'] },
  javascript: { ...BASE_TRAITS, family: 'js', constructorNames: ['constructor'] },
  rust: { ...BASE_TRAITS, moduleSeparator: '::', family: 'rust' },
  java: { ...BASE_TRAITS, implicitThis: true, family: 'jvm', importSourceIncludesName: true },
  csharp: { ...BASE_TRAITS, implicitThis: true, family: 'dotnet', importSourceIncludesName: true, parts: 'namespace', attributeSuffix: 'Attribute' },
  ruby: { ...BASE_TRAITS, implicitThis: true, bareNameFallback: true, family: 'ruby', constructorNames: ['initialize'], parts: 'constantPath' },
};

export function traitsOf(id: string): Traits {
  return TRAITS[id] ?? { ...BASE_TRAITS, family: id };
}

export const MEMBER_KINDS_OWNED = new Set<NodeKind>([...TYPE_LIKE_KINDS, 'type_alias']);
export const VALUE_HOLDER_KINDS = new Set<NodeKind>(['field', 'property', 'variable', 'constant']);
export const TYPE_TARGET_KINDS = new Set<NodeKind>([...TYPE_LIKE_KINDS, 'type_alias']);

/** A file in the symbol table. */
export interface Unit {
  readonly path: string;
  readonly ext: FileExtraction;
  readonly lang: LanguageModule;
  readonly traits: Traits;
  readonly fileId: NodeId;
  readonly isTestFile: boolean;
  /** Position of the file in the project's path order. */
  readonly index: number;
  /**
   * Offset of this file's symbols in project-wide symbol numbering, which counts the symbols
   * of each file's table (its canonical symbols): a key (see `Project.keyOf`) names the same
   * symbol whether the unit was built from the file's table or from its full extraction.
   */
  readonly base: number;
  /** Symbol index → index of the first symbol with the same qualified name and kind. */
  readonly canon: Int32Array;
  /** Symbol index → index in the file's table, when the two differ (duplicates in a full extraction). */
  readonly tableIndex: Int32Array | undefined;
  /** Table index → symbol index, when the two differ. */
  readonly symbolIndex: Int32Array | undefined;
  /** Per symbol (canonical ones only): qualified name, and node id once computed (see `Project.idAt`). */
  readonly qns: string[];
  readonly ids: NodeId[];
  /** Top-level (parent -1, empty scope) canonical symbols by name. */
  readonly topLevel: Map<string, number[]>;
  /** Parent symbol index → canonical children by name. */
  readonly children: Map<number, Map<string, number[]>>;
  importIndex?: Map<string, { readonly decl: number; readonly imported: string | undefined }>;
  wildcardDecls?: number[];
  resolvedImports?: (ResolvedImport | undefined)[];
  bindingCache?: Map<string, Target | null>;
}

/** A symbol of the project. */
export interface Sym {
  readonly u: Unit;
  readonly i: number;
}

/** Where a name leads. */
export type Target =
  | { readonly t: 'sym'; readonly sym: Sym }
  | { readonly t: 'module'; readonly units: readonly Unit[]; readonly source: string; readonly via: Unit }
  | { readonly t: 'ext'; readonly name: string };

export interface Hit {
  readonly target: Target;
  readonly confidence: number;
}

/** The edges one owner (a file or a derived shard) contributes. */
export interface OwnerOutput {
  readonly edges: GraphEdge[];
  /** Qualified names of external placeholders the edges touch. */
  readonly externals: Set<string>;
}

/** What resolving one file yields: its edges, and the non-test symbols its tests call. */
export interface FileOutput extends OwnerOutput {
  /** Distinct node ids in first-call order, at most {@link MAX_TEST_TARGETS}. */
  readonly tests: NodeId[];
}

/** Test-call targets kept per file for co_tested_with. */
export const MAX_TEST_TARGETS = 20;

/** Per test file: the non-test symbols its tests call (see {@link FileOutput.tests}). */
export type TestTargets = Map<string, NodeId[]>;

export const EXTERNAL_PREFIX = 'external:';

/** Node id of an external placeholder with this qualified name (`external:requests.get`). */
export function externalNode(repoId: string, qualifiedName: string): GraphNode {
  const rest = qualifiedName.slice(EXTERNAL_PREFIX.length);
  const name = rest.split(/[./:]/).filter(Boolean).pop() ?? rest;
  return {
    id: nodeId(repoId, qualifiedName, 'external'),
    name,
    qualifiedName,
    kind: 'external',
    language: '',
    file: '',
    startLine: 0,
    endLine: 0,
    signature: '',
    doc: '',
    isTest: false,
    external: true,
  };
}

/** Symbols in a unit's table: its distinct symbols. */
export function tableSize(unit: Unit): number {
  return unit.symbolIndex ? unit.symbolIndex.length : unit.ext.symbols.length;
}

export function fileBaseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * What the project-wide passes of a {@link Project} found (members declared apart from their
 * type, implementations, parts of types, the name index), kept with the symbol tables they
 * were computed from. While those tables stand, a later run builds a project from them that
 * loads only the files a resolution touches, instead of every file and every pass again.
 *
 * Symbols are named by key: the `counts` of the files before theirs, plus their index in
 * their file's table (which holds a file's distinct symbols, see `tableOf`).
 */
export interface ProjectLinks {
  /** Every file, in path order. */
  readonly paths: readonly string[];
  /** Per file: the language module's id. */
  readonly languages: readonly string[];
  /** Per file: its namespace as extracted. */
  readonly namespaces: readonly string[];
  /** Per file: the symbols of its table. */
  readonly counts: readonly number[];
  /** The Go module path the passes ran with, `''` for none. */
  readonly goModulePath: string;
  /** `member key, owner key` pairs of members declared apart from their type, by member key. */
  readonly attached: readonly number[];
  /** `file, implementation index, type key` of the implementations whose type resolved, in file order. */
  readonly implementations: readonly number[];
  /** `type key, part key` pairs of the types of languages with parts (see `Traits.parts`), by type key. */
  readonly parts: readonly (number | string)[];
  /** The kinds `names` refers to. */
  readonly nameKinds: readonly string[];
  /** Callable and type-like symbols by name: `name, key, kind, key, kind, …, name, …`, keys ascending (kinds index `nameKinds`). */
  readonly names: readonly (string | number)[];
}

/** How a project built from links (see {@link Project.fromLinks}) gets the files it was not given. */
export interface LinkedFiles {
  readonly links: ProjectLinks;
  /** The file at position `index` of `links.paths`, from its stored table. */
  readonly load: (index: number) => ProjectFile;
}

/**
 * The symbol table over all files, and the resolver. Build once per run.

/** Confidence at or above 0.8 means the target was established, not guessed. */
export function provenanceFor(confidence: number): Provenance {
  return confidence >= 0.8 ? 'ast_resolved' : 'ast_inferred';
}

/** `Strings` of `a.b.Strings`, `C` of `a::b::C`, `c` of `a/b/c`. */
export function lastSegment(source: string): string {
  const parts = source.split(/[.:/]/);
  return parts[parts.length - 1] ?? source;
}

// Unicode property classes cost milliseconds to compile on first use, in every process:
// ASCII names, nearly all of them, are told apart without them.
const UNICODE_CONSTANT = /^\p{Lu}/u;
const UNICODE_IDENTIFIER = /^[\p{L}_$@][\p{L}\p{N}_$@]*$/u;

/** A Ruby constant: starts with an upper-case letter. */
export function isConstantName(name: string): boolean {
  const first = name.charCodeAt(0);
  if (first < 128) return first >= 65 && first <= 90;
  return UNICODE_CONSTANT.test(name);
}

export function isIdentifier(segment: string): boolean {
  if (segment.length === 0) return false;
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c >= 128) return UNICODE_IDENTIFIER.test(segment);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 64;
    if (!letter && (i === 0 || c < 48 || c > 57)) return false;
  }
  return true;
}

export function preferDefinition(unit: Unit, candidates: readonly number[], want: 'any' | 'type' | 'callable'): number {
  if (want !== 'any') {
    for (const index of candidates) {
      const kind = unit.ext.symbols[index]!.kind;
      if (want === 'type' ? TYPE_TARGET_KINDS.has(kind) : CALLABLE_KINDS.has(kind) || TYPE_LIKE_KINDS.has(kind)) return index;
    }
  }
  // Definitions beat variables that merely share the name (`json = None` fallbacks).
  for (const index of candidates) {
    const kind = unit.ext.symbols[index]!.kind;
    if (!VALUE_HOLDER_KINDS.has(kind)) return index;
  }
  return candidates[0]!;
}

/**
 * `<path>.<scope...>.<name>`, the rule of `qualifiedName` in @knowing/graph, or
 * `<path>.<localName>` when the module gives one (Ruby: `lib/shop/cart.rb.Shop::Cart`).
 */
export function qualifiedNameOf(path: string, symbol: Pick<SymbolDef, 'scope' | 'name' | 'localName'>): string {
  if (symbol.localName !== undefined) return `${path}.${symbol.localName}`;
  let qn = path;
  for (const scope of symbol.scope) qn += '.' + scope;
  return qn + '.' + symbol.name;
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
