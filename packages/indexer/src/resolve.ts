/**
 * The project symbol table and reference resolution: turns every file's extraction into
 * nodes and the edges that file owns.
 *
 * Resolution is a pure function of the set of extractions (files are processed in path
 * order and every tie is broken deterministically), which is what lets an incremental run
 * produce exactly the graph a full run would: the indexer re-resolves every file from
 * cached extractions and writes only the owners whose output changed.
 */
import { CALLABLE_KINDS, nodeId, TYPE_LIKE_KINDS } from '@knowing/graph';
import { isTestSupportPath } from './languages/common.js';
import type { EdgeType, GraphEdge, GraphNode, LanguageId, NodeId, NodeKind, Provenance } from '@knowing/graph';
import type {
  FileExtraction,
  ImportDecl,
  LanguageModule,
  NameRef,
  ProjectLayout,
  Reference,
  ResolvedImport,
  SymbolDef,
} from './languages/types.js';

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
  /** A name bound by an import (also module aliases and re-export chains). */
  imported: 0.9,
  /** `Class.member`, `pkg.Func`, fully qualified names. */
  qualified: 0.9,
  /** A top-level definition in the same file. */
  sameFile: 0.85,
  /** A top-level definition in another file of the same namespace (Go package, Java package, …). */
  sameNamespace: 0.8,
  /** Through a wildcard import (`from x import *`, C# `using`). */
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

interface Traits {
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

function traitsOf(id: string): Traits {
  return TRAITS[id] ?? { ...BASE_TRAITS, family: id };
}

const MEMBER_KINDS_OWNED = new Set<NodeKind>([...TYPE_LIKE_KINDS, 'type_alias']);
const MAX_NAVIGATION_DEPTH = 16;
const VALUE_HOLDER_KINDS = new Set<NodeKind>(['field', 'property', 'variable', 'constant']);
const INHERITABLE_KINDS = new Set<NodeKind>(['method', 'property']);
const TYPE_TARGET_KINDS = new Set<NodeKind>([...TYPE_LIKE_KINDS, 'type_alias']);

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

interface Hit {
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

const EXTERNAL_PREFIX = 'external:';

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
function tableSize(unit: Unit): number {
  return unit.symbolIndex ? unit.symbolIndex.length : unit.ext.symbols.length;
}

function fileBaseName(path: string): string {
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
 */
export class Project {
  readonly layout: ProjectLayout;
  /** Every file's path, in path order; a unit's `index` is its position here. */
  private readonly paths: readonly string[];
  private readonly languageIds: readonly string[];
  /** Per file, the key of its first symbol; one more entry closes the last file. */
  private readonly bases: Int32Array;
  private readonly loaded: (Unit | undefined)[];
  private readonly load: ((index: number) => ProjectFile) | undefined;
  private readonly indexOfPath = new Map<string, number>();
  private readonly allPaths: Set<string>;
  /** Namespace → files, in path order. */
  private readonly namespaces = new Map<string, number[]>();
  private readonly namespaceUnits = new Map<string, Unit[]>();
  private pathIndexes: { readonly byBaseName: Map<string, string[]>; readonly byDirectory: Map<string, string[]> } | undefined;
  /** Member key → owner key, for members declared apart from their type. */
  private readonly attachedOwner = new Map<number, number>();
  /** Owner key → keys of the members declared apart from it, ascending. */
  private readonly attachedMembers = new Map<number, number[]>();
  private readonly attachedMemberCache = new Map<number, Map<string, Sym[]>>();
  private readonly memberCache = new Map<number, Map<string, Sym[]>>();
  private readonly supertypeCache = new Map<number, Target[]>();
  private readonly mroCache = new Map<number, Sym[]>();
  /** Types declared in several files (C# partial classes, reopened Ruby classes): part key → keys of the parts in path order. */
  private readonly partIndex = new Map<string, number[]>();
  private readonly partSyms = new Map<string, Sym[]>();
  /** Symbol key → its part key (type-like symbols of languages with `Traits.parts`). */
  private readonly partKeys = new Map<number, string>();
  /** Type key → the implementations (`FileExtraction.implementations`) naming it. */
  private readonly implementedBy = new Map<number, { readonly file: number; readonly d: number }[]>();
  /** File → per `ext.implementations` entry, the key of the implementing type, or -1 when it resolved to none. */
  private readonly implTypeKeys = new Map<number, number[]>();
  private readonly partMemberCache = new Map<string, Map<string, Sym[]>>();
  private readonly primaryCache = new Map<string, Sym>();
  /** `<path>\0<part key>` → key of the part declared in that file. */
  private readonly localParts = new Map<string, number>();
  /** Name → `key, kind` pairs of callable and type-like symbols (kinds index `nameKinds`). */
  private byName: Map<string, number[]> | undefined;
  private nameKinds: string[] = [];
  private readonly storedNames: (() => readonly (string | number)[]) | undefined;
  private readonly goModulePath: string | undefined;
  private readonly externalIds = new Map<string, NodeId>();
  /** Structural `implements` found by the derived pass; extends the hierarchy for overrides/inherits. */
  readonly extraSupertypes = new Map<number, Sym[]>();

  /**
   * A project over `files`: every file is built and the project-wide passes run over all of
   * them. With `linked`, `files` are the few given in full (the rest load from
   * `linked.load` when a resolution reaches them) and the passes' results come from
   * `linked.links`; use {@link Project.fromLinks}, which checks that they fit.
   */
  constructor(
    readonly repoId: string,
    files: readonly ProjectFile[],
    options: { readonly allPaths?: Iterable<string>; readonly goModulePath?: string; readonly linked?: LinkedFiles } = {},
  ) {
    this.goModulePath = options.goModulePath;
    const linked = options.linked;
    const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (linked) {
      const links = linked.links;
      this.paths = links.paths;
      this.languageIds = links.languages;
      this.bases = new Int32Array(links.paths.length + 1);
      for (let i = 0; i < links.counts.length; i++) this.bases[i + 1] = this.bases[i]! + links.counts[i]!;
      this.loaded = new Array<Unit | undefined>(links.paths.length);
      this.load = linked.load;
      links.paths.forEach((path, index) => this.indexOfPath.set(path, index));
      for (const file of sorted) {
        const index = this.indexOfPath.get(file.path);
        if (index === undefined) throw new Error(`[knowing:indexer] ${file.path} is not among the linked files`);
        const unit = this.buildUnit(file, index, this.bases[index]!);
        if (tableSize(unit) !== links.counts[index]) throw new Error(`[knowing:indexer] the table of ${file.path} does not match its links`);
        this.loaded[index] = unit;
      }
      links.namespaces.forEach((namespace, index) => this.addToNamespace(index, namespace));
      this.linkFrom(links);
      this.storedNames = () => links.names;
      this.nameKinds = [...links.nameKinds];
    } else {
      this.paths = sorted.map((file) => file.path);
      this.languageIds = sorted.map((file) => file.language.id);
      this.bases = new Int32Array(sorted.length + 1);
      this.loaded = [];
      this.load = undefined;
      sorted.forEach((file, index) => {
        const unit = this.buildUnit(file, index, this.bases[index]!);
        this.bases[index + 1] = unit.base + tableSize(unit);
        this.loaded.push(unit);
        this.indexOfPath.set(file.path, index);
        this.addToNamespace(index, unit.ext.namespace);
      });
      this.storedNames = undefined;
    }
    this.allPaths = new Set<string>(options.allPaths ?? []);
    for (const path of this.paths) this.allPaths.add(path);
    const project = this;
    this.layout = {
      hasFile: (path) => project.allPaths.has(path),
      filesInDirectory: (directory) => project.pathIndex().byDirectory.get(directory) ?? [],
      goModulePath: options.goModulePath,
      filesInNamespace: (namespace) => (project.namespaces.get(namespace) ?? []).map((index) => project.paths[index]!),
      filesEndingWith: (suffix) => {
        const name = fileBaseName(suffix);
        const matches = (project.pathIndex().byBaseName.get(name) ?? []).filter(
          (path) => path === suffix || (path.endsWith(suffix) && (suffix.startsWith('/') || path[path.length - suffix.length - 1] === '/')),
        );
        return matches.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
      },
    };
    if (linked) return;
    this.indexParts();
    this.attachOrphanMembers();
    this.attachImplementations();
    // Lookups made while attaching may have cached member and hierarchy views, and import
    // bindings, taken before every member or implementation was attached. A project built
    // from links starts without them, so this one must too.
    this.memberCache.clear();
    this.attachedMemberCache.clear();
    this.partMemberCache.clear();
    this.primaryCache.clear();
    this.supertypeCache.clear();
    this.mroCache.clear();
    for (const unit of this.loaded) unit!.bindingCache = undefined;
  }

  /**
   * A project over the files of `linked.links` that builds only `files` (given in full) and
   * the units its resolutions reach, with the project-wide passes' results taken from the
   * links; undefined when the links do not describe these files (other paths, another Go
   * module path, a table of another size).
   */
  static fromLinks(
    repoId: string,
    files: readonly ProjectFile[],
    options: { readonly allPaths: readonly string[]; readonly goModulePath?: string; readonly linked: LinkedFiles },
  ): Project | undefined {
    const links = options.linked.links;
    if (links.goModulePath !== (options.goModulePath ?? '')) return undefined;
    const paths = links.paths;
    if (paths.length !== options.allPaths.length || links.counts.length !== paths.length || links.languages.length !== paths.length || links.namespaces.length !== paths.length) return undefined;
    for (let i = 0; i < paths.length; i++) if (paths[i] !== options.allPaths[i]) return undefined;
    try {
      return new Project(repoId, files, options);
    } catch {
      return undefined;
    }
  }

  /** What the project-wide passes found, for {@link Project.fromLinks} in a later run. */
  links(): ProjectLinks {
    const attached: number[] = [];
    for (const key of [...this.attachedOwner.keys()].sort((a, b) => a - b)) attached.push(key, this.attachedOwner.get(key)!);
    const implementations: number[] = [];
    for (const [file, types] of [...this.implTypeKeys].sort((a, b) => a[0] - b[0])) {
      types.forEach((key, d) => {
        if (key >= 0) implementations.push(file, d, key);
      });
    }
    const parts: (number | string)[] = [];
    for (const key of [...this.partKeys.keys()].sort((a, b) => a - b)) parts.push(key, this.partKeys.get(key)!);
    const names: (string | number)[] = [];
    for (const [name, entries] of this.nameIndex()) names.push(name, ...entries);
    return {
      paths: this.paths,
      languages: this.languageIds,
      namespaces: this.paths.map((_, index) => this.unitAt(index).ext.namespace),
      counts: this.paths.map((_, index) => this.bases[index + 1]! - this.bases[index]!),
      goModulePath: this.goModulePath ?? '',
      attached,
      implementations,
      parts,
      nameKinds: this.nameKinds,
      names,
    };
  }

  /** Every unit, in path order (a linked project builds the ones it had not built yet). */
  get units(): readonly Unit[] {
    for (let index = 0; index < this.paths.length; index++) this.unitAt(index);
    return this.loaded as Unit[];
  }

  /** The unit of a file of the project. */
  unitOf(path: string): Unit | undefined {
    const index = this.indexOfPath.get(path);
    return index === undefined ? undefined : this.unitAt(index);
  }

  private unitAt(index: number): Unit {
    let unit = this.loaded[index];
    if (!unit) {
      unit = this.buildUnit(this.load!(index), index, this.bases[index]!);
      this.loaded[index] = unit;
    }
    return unit;
  }

  private addToNamespace(index: number, extracted: string): void {
    let namespace = extracted;
    if (!namespace && this.languageIds[index] === 'go' && this.goModulePath) {
      const path = this.paths[index]!;
      const slash = path.lastIndexOf('/');
      namespace = slash < 0 ? this.goModulePath : `${this.goModulePath}/${path.slice(0, slash)}`;
    }
    if (namespace) push(this.namespaces, namespace, index);
  }

  /** The units of a namespace, in path order. */
  private namespaceOf(namespace: string): Unit[] | undefined {
    let units = this.namespaceUnits.get(namespace);
    if (!units) {
      const files = this.namespaces.get(namespace);
      if (!files) return undefined;
      units = files.map((index) => this.unitAt(index));
      this.namespaceUnits.set(namespace, units);
    }
    return units;
  }

  private pathIndex(): { readonly byBaseName: Map<string, string[]>; readonly byDirectory: Map<string, string[]> } {
    if (this.pathIndexes) return this.pathIndexes;
    const byBaseName = new Map<string, string[]>();
    const byDirectory = new Map<string, string[]>();
    for (const path of [...this.allPaths].sort()) {
      push(byBaseName, fileBaseName(path), path);
      const slash = path.lastIndexOf('/');
      push(byDirectory, slash < 0 ? '' : path.slice(0, slash), path);
    }
    return (this.pathIndexes = { byBaseName, byDirectory });
  }

  /** The project-wide passes' results, from links. */
  private linkFrom(links: ProjectLinks): void {
    const attached = links.attached;
    for (let j = 0; j + 1 < attached.length; j += 2) {
      this.attachedOwner.set(attached[j]!, attached[j + 1]!);
      push(this.attachedMembers, attached[j + 1]!, attached[j]!);
    }
    const implementations = links.implementations;
    for (let j = 0; j + 2 < implementations.length; j += 3) {
      const file = implementations[j]!;
      const d = implementations[j + 1]!;
      const key = implementations[j + 2]!;
      let types = this.implTypeKeys.get(file);
      if (!types) this.implTypeKeys.set(file, (types = []));
      types[d] = key;
      push(this.implementedBy, key, { file, d });
    }
    const parts = links.parts;
    for (let j = 0; j + 1 < parts.length; j += 2) {
      const key = parts[j] as number;
      const partKey = parts[j + 1] as string;
      this.partKeys.set(key, partKey);
      push(this.partIndex, partKey, key);
      const local = `${this.paths[this.fileOfKey(key)]!}\0${partKey}`;
      if (!this.localParts.has(local)) this.localParts.set(local, key);
    }
  }

  private buildUnit(file: ProjectFile, index: number, base: number): Unit {
    const ext = file.extraction;
    const symbols = ext.symbols;
    const canon = new Int32Array(symbols.length);
    const qns: string[] = new Array<string>(symbols.length).fill('');
    const ids: NodeId[] = new Array<NodeId>(symbols.length).fill('');
    const seen = file.deduplicated ? undefined : new Map<string, number>();
    const topLevel = new Map<string, number[]>();
    const children = new Map<number, Map<string, number[]>>();
    let duplicates = 0;
    for (let i = 0; i < symbols.length; i++) {
      const symbol = symbols[i]!;
      if (seen) {
        const qn = qualifiedNameOf(file.path, symbol);
        const key = `${qn}\0${symbol.kind}`;
        const first = seen.get(key);
        if (first !== undefined) {
          canon[i] = first;
          duplicates++;
          continue;
        }
        seen.set(key, i);
        qns[i] = qn;
      }
      canon[i] = i;
      const parent = symbol.parent >= 0 && symbol.parent < symbols.length ? canon[symbol.parent]! : -1;
      if (parent >= 0) {
        let byName = children.get(parent);
        if (!byName) children.set(parent, (byName = new Map()));
        push(byName, symbol.name, i);
      } else if (symbol.scope.length === 0) {
        // `class A::B` at the top of a Ruby file defines `A::B`, not a top-level `B`.
        push(topLevel, symbol.localName ?? symbol.name, i);
      }
    }
    // Keys count table entries: with duplicates, symbol and table indexes part ways.
    let tableIndex: Int32Array | undefined;
    let symbolIndex: Int32Array | undefined;
    if (duplicates > 0) {
      tableIndex = new Int32Array(symbols.length);
      symbolIndex = new Int32Array(symbols.length - duplicates);
      let next = 0;
      for (let i = 0; i < symbols.length; i++) {
        if (canon[i] === i) {
          symbolIndex[next] = i;
          tableIndex[i] = next++;
        } else tableIndex[i] = tableIndex[canon[i]!]!;
      }
    }
    const repoId = this.repoId;
    let fileId: NodeId | undefined;
    return {
      path: file.path,
      ext,
      lang: file.language,
      traits: traitsOf(file.language.id),
      // Hashed on first use: a one-file re-index needs the ids of a few files, not of all.
      get fileId(): NodeId {
        return (fileId ??= nodeId(repoId, file.path, 'file'));
      },
      isTestFile: file.language.isTestFile(file.path) || isTestSupportPath(file.path),
      index,
      base,
      canon,
      tableIndex,
      symbolIndex,
      qns,
      ids,
      topLevel,
      children,
    };
  }

  /** Group type-like symbols that are parts of one type (see `Traits.parts`). */
  private indexParts(): void {
    for (const unit of this.units) {
      const mode = unit.traits.parts;
      if (!mode) continue;
      const symbols = unit.ext.symbols;
      for (let i = 0; i < symbols.length; i++) {
        if (unit.canon[i] !== i) continue;
        const symbol = symbols[i]!;
        if (!TYPE_LIKE_KINDS.has(symbol.kind)) continue;
        const path = mode === 'constantPath' ? (symbol.localName ?? [...symbol.scope, symbol.name].join('::')) : `${unit.ext.namespace}\0${[...symbol.scope, symbol.name].join('.')}`;
        const partKey = `${unit.traits.family}\0${path}`;
        const key = this.keyAt(unit, i);
        this.partKeys.set(key, partKey);
        push(this.partIndex, partKey, key);
        const local = `${unit.path}\0${partKey}`;
        if (!this.localParts.has(local)) this.localParts.set(local, key);
      }
    }
  }

  /**
   * Methods declared away from their type (Go receivers in another file, Rust `impl` blocks,
   * anything with a scope but no parent) are attached to the type their scope names.
   */
  private attachOrphanMembers(): void {
    for (const unit of this.units) {
      const symbols = unit.ext.symbols;
      // Many methods of one file name the same type: resolve each scope once.
      const owners = new Map<string, Sym | undefined>();
      for (let i = 0; i < symbols.length; i++) {
        if (unit.canon[i] !== i) continue;
        const symbol = symbols[i]!;
        if (symbol.parent >= 0 || symbol.scope.length === 0) continue;
        const scopeKey = symbol.scope.join('\0');
        let ownerSym = owners.get(scopeKey);
        if (!owners.has(scopeKey)) {
          // A Ruby scope is one constant path (`['A::B']`).
          const path = unit.traits.parts === 'constantPath' ? symbol.scope.flatMap((scope) => scope.split('::')) : symbol.scope;
          const ownerRef: NameRef = { name: path[path.length - 1]!, qualifier: path.slice(0, -1) };
          const owner = this.resolveType(unit, -1, ownerRef);
          ownerSym = owner?.target.t === 'sym' ? owner.target.sym : undefined;
          owners.set(scopeKey, ownerSym);
        }
        if (!ownerSym) continue;
        if (!MEMBER_KINDS_OWNED.has(this.def(ownerSym).kind)) continue;
        const key = this.keyAt(unit, i);
        const ownerKey = this.keyOf(ownerSym);
        this.attachedOwner.set(key, ownerKey);
        push(this.attachedMembers, ownerKey, key);
        this.attachedMemberCache.delete(ownerKey);
      }
    }
  }

  /** `impl Trait for T` anywhere: T (resolved from the declaring file's top level) gains Trait as a supertype. */
  private attachImplementations(): void {
    for (const unit of this.units) {
      const implementations = unit.ext.implementations;
      if (!implementations || implementations.length === 0) continue;
      const types = new Array<number>(implementations.length).fill(-1);
      this.implTypeKeys.set(unit.index, types);
      implementations.forEach((implementation, d) => {
        const hit = this.resolveFromFileTop(unit, implementation.type);
        if (hit?.target.t !== 'sym' || !MEMBER_KINDS_OWNED.has(this.def(hit.target.sym).kind)) return;
        const key = this.keyOf(hit.target.sym);
        types[d] = key;
        push(this.implementedBy, key, { file: unit.index, d });
      });
    }
  }

  /** Per `ext.implementations` entry of `unit`: the implementing type, when it resolved to one. */
  private implType(unit: Unit, d: number): Sym | undefined {
    const key = this.implTypeKeys.get(unit.index)?.[d];
    return key === undefined || key < 0 ? undefined : this.symAt(key);
  }

  /**
   * A type named by an implementation: the path of items declared in the file itself (`m::Y`
   * for a type of inline module `m`, `f::Visitor` for one declared in the body of `f`), else
   * a type name as written at the file's top level.
   */
  private resolveFromFileTop(unit: Unit, ref: NameRef): Hit | undefined {
    if (ref.qualifier.length > 0) {
      const local = this.pathInFile(unit, [...ref.qualifier, ref.name]);
      if (local) return { target: { t: 'sym', sym: local }, confidence: CONFIDENCE.sameFile };
    }
    return this.resolveType(unit, -1, ref);
  }

  /** Walk a path of definitions in one file: nested children, and members attached to a type (methods of its `impl`s). */
  private pathInFile(unit: Unit, segments: readonly string[]): Sym | undefined {
    const top = this.pickTopLevel(unit, segments[0]!, 'any');
    let current: Sym | undefined = top === undefined ? undefined : { u: unit, i: top };
    for (const segment of segments.slice(1)) {
      if (!current) return undefined;
      const kids = unit.children.get(current.i)?.get(segment);
      if (kids && kids.length > 0) current = { u: unit, i: preferDefinition(unit, kids, 'type') };
      else current = this.attachedMembersOf(this.keyOf(current))?.get(segment)?.find((sym) => sym.u === unit);
    }
    return current;
  }

  /** Members declared apart from the type with this key, by name. */
  private attachedMembersOf(ownerKey: number): Map<string, Sym[]> | undefined {
    const keys = this.attachedMembers.get(ownerKey);
    if (!keys) return undefined;
    let members = this.attachedMemberCache.get(ownerKey);
    if (!members) {
      members = new Map();
      for (const key of keys) {
        const sym = this.symAt(key);
        push(members, this.def(sym).name, sym);
      }
      this.attachedMemberCache.set(ownerKey, members);
    }
    return members;
  }

  /** The file a key belongs to: the last whose first key is not past it (files without symbols share their successor's). */
  private fileOfKey(key: number): number {
    let low = 0;
    let high = this.paths.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.bases[mid]! <= key) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** The symbol a key names. */
  private symAt(key: number): Sym {
    const u = this.unitAt(this.fileOfKey(key));
    const j = key - u.base;
    return { u, i: u.symbolIndex ? u.symbolIndex[j]! : j };
  }

  keyAt(unit: Unit, index: number): number {
    return unit.base + (unit.tableIndex ? unit.tableIndex[index]! : index);
  }
  // ------------------------------------------------------------- accessors

  def(sym: Sym): SymbolDef {
    return sym.u.ext.symbols[sym.i]!;
  }

  /** Test code: marked so by its language (a test function, a test class) or in a test file. */
  isTest(sym: Sym): boolean {
    return this.def(sym).isTest || sym.u.isTestFile;
  }

  idOf(sym: Sym): NodeId {
    return this.idAt(sym.u, sym.i);
  }

  /** Node id of a canonical symbol, hashed on first use: most runs need few of them. */
  idAt(unit: Unit, index: number): NodeId {
    let id = unit.ids[index];
    if (!id) {
      id = nodeId(this.repoId, this.qnAt(unit, index), unit.ext.symbols[index]!.kind);
      unit.ids[index] = id;
    }
    return id;
  }

  /** Qualified name of a canonical symbol, built on first use. */
  qnAt(unit: Unit, index: number): string {
    let qn = unit.qns[index];
    if (!qn) {
      qn = qualifiedNameOf(unit.path, unit.ext.symbols[index]!);
      unit.qns[index] = qn;
    }
    return qn;
  }

  keyOf(sym: Sym): number {
    return this.keyAt(sym.u, sym.i);
  }

  /** Canonical parent symbol index, or -1. */
  parentIndex(unit: Unit, index: number): number {
    const parent = unit.ext.symbols[index]?.parent ?? -1;
    return parent >= 0 && parent < unit.canon.length ? unit.canon[parent]! : -1;
  }

  /** The type a member belongs to: its parent, or the type its scope names (Go, Rust). */
  ownerOf(sym: Sym): Sym | undefined {
    const parent = this.parentIndex(sym.u, sym.i);
    if (parent >= 0) return { u: sym.u, i: parent };
    const owner = this.attachedOwner.get(this.keyOf(sym));
    return owner === undefined ? undefined : this.symAt(owner);
  }

  isTypeLike(sym: Sym): boolean {
    return TYPE_LIKE_KINDS.has(this.def(sym).kind);
  }

  externalId(qualifiedName: string): NodeId {
    let id = this.externalIds.get(qualifiedName);
    if (!id) this.externalIds.set(qualifiedName, (id = nodeId(this.repoId, qualifiedName, 'external')));
    return id;
  }

  /**
   * Every part of the type `type` belongs to, in path order: the parts of a C# partial class,
   * of a Ruby class reopened in several files; else just `type`.
   */
  partsOf(type: Sym): readonly Sym[] {
    const key = this.partKeys.get(this.keyOf(type));
    const parts = key === undefined ? undefined : this.partsByKey(key);
    return parts && parts.length > 1 ? parts : [type];
  }

  /**
   * The part that stands for a type declared in several files when nothing picks one: the
   * first, in path order, that declares a supertype (Ruby's `class A < B`, the C# part with
   * the base list), else the first.
   */
  primaryPart(type: Sym): Sym {
    const key = this.partKeys.get(this.keyOf(type));
    if (key === undefined) return type;
    let primary = this.primaryCache.get(key);
    if (!primary) {
      const parts = this.partsByKey(key)!;
      primary = parts.find((part) => (this.def(part).supertypes?.length ?? 0) > 0 || this.implementedBy.has(this.keyOf(part))) ?? parts[0]!;
      this.primaryCache.set(key, primary);
    }
    return primary;
  }

  /** The parts of a type declared in several files, by part key, in path order. */
  private partsByKey(partKey: string): Sym[] | undefined {
    let parts = this.partSyms.get(partKey);
    if (!parts) {
      const keys = this.partIndex.get(partKey);
      if (!keys) return undefined;
      parts = keys.map((key) => this.symAt(key));
      this.partSyms.set(partKey, parts);
    }
    return parts;
  }

  /**
   * Members of a type by name: its own children and members declared elsewhere; for a type in
   * several parts, those of every part in path order (one map shared by all the parts).
   */
  members(type: Sym): Map<string, Sym[]> {
    const key = this.keyOf(type);
    let members = this.memberCache.get(key);
    if (members) return members;
    const parts = this.partsOf(type);
    if (parts.length === 1) members = this.ownMembers(type);
    else {
      const partKey = this.partKeys.get(key)!;
      members = this.partMemberCache.get(partKey);
      if (!members) {
        members = new Map();
        for (const part of parts) for (const [name, syms] of this.ownMembers(part)) members.set(name, [...(members.get(name) ?? []), ...syms]);
        this.partMemberCache.set(partKey, members);
      }
    }
    this.memberCache.set(key, members);
    return members;
  }

  /** Members declared by this very part of a type: its children plus members declared elsewhere (Go, Rust). */
  ownMembers(type: Sym): Map<string, Sym[]> {
    const members = new Map<string, Sym[]>();
    const own = type.u.children.get(type.i);
    if (own) for (const [name, indexes] of own) members.set(name, indexes.map((i) => ({ u: type.u, i })));
    const attached = this.attachedMembersOf(this.keyOf(type));
    if (attached) for (const [name, syms] of attached) members.set(name, [...(members.get(name) ?? []), ...syms]);
    return members;
  }

  /** Declared supertypes, resolved in the type's own file, then implementations declared apart (Rust `impl Trait for T`). */
  supertypes(type: Sym): Target[] {
    const key = this.keyOf(type);
    let cached = this.supertypeCache.get(key);
    if (cached) return cached;
    cached = [];
    // Guard against `class A(A)`-style self references while resolving.
    this.supertypeCache.set(key, cached);
    const def = this.def(type);
    for (const ref of def.supertypes ?? []) {
      const hit = this.resolveType(type.u, this.parentIndex(type.u, type.i), ref);
      if (hit && !(hit.target.t === 'sym' && this.keyOf(hit.target.sym) === key)) cached.push(hit.target);
    }
    for (const { file, d } of this.implementedBy.get(key) ?? []) {
      const hit = this.resolveTrait(this.unitAt(file), d);
      if (hit && !(hit.target.t === 'sym' && this.keyOf(hit.target.sym) === key)) cached.push(hit.target);
    }
    return cached;
  }

  /** The trait of `unit.ext.implementations[d]`, resolved from the file's top level. */
  private resolveTrait(unit: Unit, d: number): Hit | undefined {
    const implementation = unit.ext.implementations?.[d];
    return implementation ? this.resolveFromFileTop(unit, implementation.trait) : undefined;
  }

  /** Resolved supertype symbols (of every part) plus structurally satisfied interfaces. */
  parentTypes(type: Sym): Sym[] {
    const out: Sym[] = [];
    const seen = new Set<number>();
    for (const part of this.partsOf(type)) {
      for (const target of this.supertypes(part)) {
        if (target.t !== 'sym' || !this.isTypeLike(target.sym) || seen.has(this.keyOf(target.sym))) continue;
        seen.add(this.keyOf(target.sym));
        out.push(target.sym);
      }
    }
    const extra = this.extraSupertypes.get(this.keyOf(type));
    if (extra) out.push(...extra);
    return out;
  }

  /** Ancestors in method-resolution order (depth-first, left to right, each once), excluding `type`. */
  ancestors(type: Sym): Sym[] {
    const key = this.keyOf(type);
    const cached = this.mroCache.get(key);
    if (cached) return cached;
    const out: Sym[] = [];
    const seen = new Set<number>([key]);
    const visit = (current: Sym, depth: number): void => {
      if (depth > 32) return;
      for (const parent of this.parentTypes(current)) {
        const parentKey = this.keyOf(parent);
        if (seen.has(parentKey)) continue;
        seen.add(parentKey);
        out.push(parent);
        visit(parent, depth + 1);
      }
    };
    visit(type, 0);
    this.mroCache.set(key, out);
    return out;
  }

  /** Forget hierarchy caches after the derived pass adds structural supertypes. */
  resetHierarchyCaches(): void {
    this.mroCache.clear();
  }

  /** First external supertype anywhere in the hierarchy, for naming unresolved inherited members. */
  private externalAncestor(type: Sym): string | undefined {
    for (const current of [type, ...this.ancestors(type)]) {
      for (const part of this.partsOf(current)) {
        for (const target of this.supertypes(part)) if (target.t === 'ext') return target.name;
      }
    }
    return undefined;
  }

  /** Look a member up on a type and its ancestors. */
  findMember(type: Sym, name: string, skipSelf = false): { sym: Sym; inherited: boolean } | undefined {
    if (!skipSelf) {
      const own = this.members(type).get(name);
      if (own && own.length > 0) return { sym: own[0]!, inherited: false };
    }
    for (const ancestor of this.ancestors(type)) {
      const found = this.members(ancestor).get(name);
      if (found && found.length > 0) return { sym: found[0]!, inherited: true };
    }
    return undefined;
  }

  /** The constructor a construction of `type` runs, own or inherited. */
  constructorOf(type: Sym): Sym | undefined {
    for (const current of [type, ...this.ancestors(type)]) {
      for (const [name, syms] of this.members(current)) {
        for (const sym of syms) {
          const def = this.def(sym);
          if (def.kind === 'constructor' || (def.kind === 'method' && current.u.traits.constructorNames.includes(name))) return sym;
        }
      }
    }
    return undefined;
  }

  enclosingType(unit: Unit, from: number): Sym | undefined {
    let index = from;
    let guard = 0;
    while (index >= 0 && guard++ < 64) {
      const sym = { u: unit, i: index };
      if (TYPE_LIKE_KINDS.has(this.def(sym).kind)) return sym;
      const parent = this.parentIndex(unit, index);
      if (parent < 0) {
        const ownerKey = this.attachedOwner.get(this.keyAt(unit, index));
        const owner = ownerKey === undefined ? undefined : this.symAt(ownerKey);
        return owner && this.isTypeLike(owner) ? owner : undefined;
      }
      index = parent;
    }
    return undefined;
  }

  // ------------------------------------------------------------- imports

  resolvedImport(unit: Unit, declIndex: number): ResolvedImport | undefined {
    unit.resolvedImports ??= new Array<ResolvedImport | undefined>(unit.ext.imports.length);
    let resolved = unit.resolvedImports[declIndex];
    if (resolved) return resolved;
    const decl = unit.ext.imports[declIndex];
    if (!decl) return undefined;
    try {
      resolved = unit.lang.resolveImport(decl, unit.path, this.layout);
    } catch {
      resolved = { files: [] };
    }
    unit.resolvedImports[declIndex] = resolved;
    return resolved;
  }

  private importIndex(unit: Unit): Map<string, { readonly decl: number; readonly imported: string | undefined }> {
    if (unit.importIndex) return unit.importIndex;
    const index = new Map<string, { decl: number; imported: string | undefined }>();
    const wildcards: number[] = [];
    unit.ext.imports.forEach((decl, d) => {
      if (decl.moduleAlias && !index.has(decl.moduleAlias)) index.set(decl.moduleAlias, { decl: d, imported: undefined });
      for (const name of decl.names) {
        if (name.imported === '*') wildcards.push(d);
        else if (!index.has(name.local)) index.set(name.local, { decl: d, imported: name.imported });
      }
    });
    unit.importIndex = index;
    unit.wildcardDecls = wildcards;
    return index;
  }

  private unitsOf(files: readonly string[]): Unit[] {
    const out: Unit[] = [];
    for (const file of files) {
      const unit = this.unitOf(file);
      if (unit) out.push(unit);
    }
    return out;
  }

  private submodule(via: Unit, source: string, name: string): Target | undefined {
    const separator = via.traits.moduleSeparator;
    if (!separator) return undefined;
    const joined = source.endsWith('.') || source.endsWith(separator) ? source + name : `${source}${separator}${name}`;
    let resolved: ResolvedImport;
    try {
      resolved = via.lang.resolveImport({ source: joined, names: [], line: 0 }, via.path, this.layout);
    } catch {
      return undefined;
    }
    const units = this.unitsOf(resolved.files);
    return units.length > 0 ? { t: 'module', units, source: joined, via } : undefined;
  }

  /** What an import binds to the local `name` in `unit`, or null. */
  binding(unit: Unit, name: string): Target | null {
    unit.bindingCache ??= new Map();
    const cached = unit.bindingCache.get(name);
    if (cached !== undefined) return cached;
    unit.bindingCache.set(name, null);
    const result = this.computeBinding(unit, name, 0);
    unit.bindingCache.set(name, result);
    return result;
  }

  private computeBinding(unit: Unit, name: string, depth: number): Target | null {
    const spec = this.importIndex(unit).get(name);
    if (!spec) return null;
    const decl = unit.ext.imports[spec.decl]!;
    const resolved = this.resolvedImport(unit, spec.decl);
    const units = this.unitsOf(resolved?.files ?? []);
    if (spec.imported === undefined) {
      if (units.length > 0) return { t: 'module', units, source: decl.source, via: unit };
      return resolved?.external ? { t: 'ext', name: decl.source } : null;
    }
    const found = this.exportedFrom(units, spec.imported, depth + 1);
    if (found) return found;
    // `import static a.b.C.m` (source `a.b.C`), `import a.b.Outer.Inner`: a member of a type.
    const type = unit.traits.importSourceIncludesName ? this.importedType(units, decl.source) : undefined;
    if (type) {
      if (lastSegment(decl.source) === spec.imported) return { t: 'sym', sym: type };
      const member = this.findMember(type, spec.imported);
      if (member) return { t: 'sym', sym: member.sym };
    }
    const sub = this.submodule(unit, decl.source, spec.imported);
    if (sub) return sub;
    if (resolved?.external) {
      // `java.util.List` imports `List`: `external:java.util.List`, not `…List.List`.
      const whole = unit.traits.importSourceIncludesName && lastSegment(decl.source) === spec.imported;
      return { t: 'ext', name: whole ? decl.source : `${decl.source}.${spec.imported}` };
    }
    return null;
  }

  /**
   * The type an import source names inside the files it resolved to (`a.b.Strings`,
   * `a.b.Outer.Inner`): the last segment that is a top-level type there, then nested types.
   */
  private importedType(units: readonly Unit[], source: string): Sym | undefined {
    const segments = source.split(/\.|::/);
    for (const unit of units) {
      for (let i = segments.length - 1; i >= 0; i--) {
        const top = this.pickTopLevel(unit, segments[i]!, 'type');
        if (top === undefined || !TYPE_LIKE_KINDS.has(unit.ext.symbols[top]!.kind)) continue;
        let current: Sym | undefined = { u: unit, i: top };
        for (const segment of segments.slice(i + 1)) {
          const member: { sym: Sym } | undefined = this.findMember(current, segment);
          current = member && this.isTypeLike(member.sym) ? member.sym : undefined;
          if (!current) break;
        }
        if (current) return current;
      }
    }
    return undefined;
  }

  /** A name as another module exposes it: its own definitions, then re-exported bindings. */
  exportedFrom(units: readonly Unit[], name: string, depth = 0): Target | undefined {
    if (depth > 12) return undefined;
    for (const unit of units) {
      const local = this.pickTopLevel(unit, name, 'any');
      if (local !== undefined) return { t: 'sym', sym: { u: unit, i: local } };
    }
    for (const unit of units) {
      const index = this.importIndex(unit);
      const spec = index.get(name);
      if (spec && (unit.traits.reexportsImports || unit.ext.imports[spec.decl]?.reexport)) {
        const bound = this.computeBinding(unit, name, depth);
        if (bound) return bound;
      }
      for (const d of unit.wildcardDecls ?? []) {
        const decl = unit.ext.imports[d]!;
        if (!unit.traits.reexportsImports && !decl.reexport) continue;
        const found = this.exportedFrom(this.unitsOf(this.resolvedImport(unit, d)?.files ?? []), name, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }

  // ------------------------------------------------------------- lookups

  private pickTopLevel(unit: Unit, name: string, want: 'any' | 'type' | 'callable'): number | undefined {
    const candidates = unit.topLevel.get(name);
    if (!candidates || candidates.length === 0) return undefined;
    return candidates.length === 1 ? candidates[0] : preferDefinition(unit, candidates, want);
  }

  /** Lexical scope, then the file's top level. */
  private lexical(unit: Unit, from: number, name: string, want: 'any' | 'type' | 'callable'): Hit | undefined {
    let index = from;
    let guard = 0;
    while (index >= 0 && guard++ < 64) {
      const sym: Sym = { u: unit, i: index };
      const def = this.def(sym);
      if (TYPE_LIKE_KINDS.has(def.kind)) {
        if (unit.traits.implicitThis) {
          const member = this.findMember(sym, name);
          // A type name never means a member that merely shares it (`Logger Logger { get; }`).
          if (member && (want !== 'type' || TYPE_TARGET_KINDS.has(this.def(member.sym).kind))) {
            return { target: { t: 'sym', sym: member.sym }, confidence: member.inherited ? CONFIDENCE.inherited : CONFIDENCE.lexical };
          }
        }
      } else {
        const kids = unit.children.get(index)?.get(name);
        if (kids && kids.length > 0) return { target: { t: 'sym', sym: { u: unit, i: preferDefinition(unit, kids, want) } }, confidence: CONFIDENCE.lexical };
      }
      // Items of an enclosing inline module (Rust `mod m { … }`, a TS namespace) are in scope.
      if (def.kind === 'module' && !unit.traits.implicitThis) {
        const kids = unit.children.get(index)?.get(name);
        if (kids && kids.length > 0) return { target: { t: 'sym', sym: { u: unit, i: preferDefinition(unit, kids, want) } }, confidence: CONFIDENCE.lexical };
      }
      const parent = this.parentIndex(unit, index);
      if (parent < 0 && unit.traits.implicitThis) {
        const ownerKey = this.attachedOwner.get(this.keyAt(unit, index));
        const owner = ownerKey === undefined ? undefined : this.symAt(ownerKey);
        if (owner) {
          const member = this.findMember(owner, name);
          if (member && (want !== 'type' || TYPE_TARGET_KINDS.has(this.def(member.sym).kind))) {
            return { target: { t: 'sym', sym: member.sym }, confidence: CONFIDENCE.lexical };
          }
        }
      }
      index = parent;
    }
    const top = this.pickTopLevel(unit, name, want);
    if (top !== undefined) return { target: { t: 'sym', sym: { u: unit, i: top } }, confidence: CONFIDENCE.sameFile };
    return undefined;
  }

  /** A bare name: scope, imports, namespace, wildcard imports. */
  resolveBare(unit: Unit, from: number, name: string, want: 'any' | 'type' | 'callable'): Hit | undefined {
    const constant = unit.traits.parts === 'constantPath' && isConstantName(name);
    if (constant) {
      if (name.includes('::')) return this.constantPath(unit, from, name.split('::'));
      const nested = this.nestedConstant(unit, from, name);
      if (nested) return nested;
    }
    const lexical = this.lexical(unit, from, name, want);
    if (lexical) return lexical;
    if (constant) {
      const top = this.partsByKey(`${unit.traits.family}\0${name}`);
      if (top) return { target: { t: 'sym', sym: this.primaryPart(top[0]!) }, confidence: CONFIDENCE.sameNamespace };
    }
    const bound = this.binding(unit, name);
    if (bound) return { target: bound, confidence: bound.t === 'ext' ? CONFIDENCE.externalImported : CONFIDENCE.imported };
    const namespace = unit.ext.namespace ? this.namespaceOf(unit.ext.namespace) : this.goNamespace(unit);
    if (namespace) {
      for (const other of namespace) {
        if (other === unit) continue;
        const found = this.pickTopLevel(other, name, want);
        if (found !== undefined) return { target: { t: 'sym', sym: { u: other, i: found } }, confidence: CONFIDENCE.sameNamespace };
      }
    }
    this.importIndex(unit);
    for (const d of unit.wildcardDecls ?? []) {
      const units = this.unitsOf(this.resolvedImport(unit, d)?.files ?? []);
      const found = this.exportedFrom(units, name);
      if (found) return { target: found, confidence: CONFIDENCE.wildcard };
      // `using static A.B.Type;`, `import static a.b.Type.*;`: the type's members.
      const source = unit.ext.imports[d]!.source;
      if (!unit.traits.importSourceIncludesName || units.length === 0 || this.namespaces.has(source)) continue;
      const type = this.importedType(units, source);
      const member = type ? this.findMember(type, name) : undefined;
      if (member) return { target: { t: 'sym', sym: member.sym }, confidence: CONFIDENCE.wildcard };
    }
    return undefined;
  }

  /**
   * Ruby's lexical constant lookup, the part `lexical` cannot do alone: `name` inside each
   * enclosing class or module, innermost first, by constant path across every file
   * (`Pricing` inside `module Shop; class Cart` is `Shop::Cart::Pricing`, else `Shop::Pricing`).
   * The class's ancestors, then the top level, come after (see `resolveBare`).
   */
  private nestedConstant(unit: Unit, from: number, name: string): Hit | undefined {
    let index = from;
    let guard = 0;
    while (index >= 0 && guard++ < 64) {
      const key = this.partKeys.get(this.keyAt(unit, index));
      if (key !== undefined) {
        const parts = this.partsByKey(`${key}::${name}`);
        if (parts) {
          const local = this.localParts.get(`${unit.path}\0${key}::${name}`);
          return local !== undefined ? { target: { t: 'sym', sym: this.symAt(local) }, confidence: CONFIDENCE.lexical } : { target: { t: 'sym', sym: this.primaryPart(parts[0]!) }, confidence: CONFIDENCE.qualified };
        }
      }
      index = this.parentIndex(unit, index);
    }
    return undefined;
  }

  /** `A::B::C` written as one name (a Ruby scope such as `['A::B']`): the head as a bare constant, then members. */
  private constantPath(unit: Unit, from: number, segments: readonly string[]): Hit | undefined {
    let current = this.resolveBare(unit, from, segments[0]!, 'type');
    for (const segment of segments.slice(1)) {
      if (!current) return undefined;
      const next = this.navigate(current.target, segment);
      current = next ? { target: next.target, confidence: Math.min(current.confidence, next.confidence) } : undefined;
    }
    return current;
  }

  private goNamespace(unit: Unit): Unit[] | undefined {
    if (unit.lang.id !== 'go' || !this.layout.goModulePath) return undefined;
    const slash = unit.path.lastIndexOf('/');
    const namespace = slash < 0 ? this.layout.goModulePath : `${this.layout.goModulePath}/${unit.path.slice(0, slash)}`;
    return this.namespaceOf(namespace);
  }

  /** One step of a dotted path: a member, a module attribute or submodule, or deeper into an external. */
  navigate(target: Target, segment: string): Hit | undefined {
    // Value types can chain back on themselves (a field typed as its own class, aliases that
    // name each other); a bounded depth keeps such cycles finite.
    if (this.navigationDepth >= MAX_NAVIGATION_DEPTH) return undefined;
    this.navigationDepth++;
    try {
      return this.navigateStep(target, segment);
    } finally {
      this.navigationDepth--;
    }
  }

  private navigationDepth = 0;

  private navigateStep(target: Target, segment: string): Hit | undefined {
    switch (target.t) {
      case 'ext':
        return { target: { t: 'ext', name: `${target.name}.${segment}` }, confidence: CONFIDENCE.externalImported };
      case 'module': {
        const found = this.exportedFrom(target.units, segment);
        if (found) return { target: found, confidence: CONFIDENCE.imported };
        const sub = this.submodule(target.via, target.source, segment);
        return sub ? { target: sub, confidence: CONFIDENCE.imported } : undefined;
      }
      case 'sym': {
        const sym = target.sym;
        const def = this.def(sym);
        if (MEMBER_KINDS_OWNED.has(def.kind)) {
          const member = this.findMember(sym, segment);
          if (member) return { target: { t: 'sym', sym: member.sym }, confidence: CONFIDENCE.qualified };
          // `class A::B` declared apart from `module A` (Ruby): by constant path.
          const key = sym.u.traits.parts === 'constantPath' ? this.partKeys.get(this.keyOf(sym)) : undefined;
          const parts = key === undefined ? undefined : this.partsByKey(`${key}::${segment}`);
          if (parts) return { target: { t: 'sym', sym: this.primaryPart(parts[0]!) }, confidence: CONFIDENCE.qualified };
          const external = this.externalAncestor(sym);
          return external ? { target: { t: 'ext', name: `${external}.${segment}` }, confidence: CONFIDENCE.externalImported } : undefined;
        }
        if (VALUE_HOLDER_KINDS.has(def.kind) && def.valueType) {
          const type = this.resolveType(sym.u, this.parentIndex(sym.u, sym.i), def.valueType);
          if (!type) return undefined;
          const next = this.navigate(type.target, segment);
          return next ? { target: next.target, confidence: Math.min(next.confidence, CONFIDENCE.receiverType) } : undefined;
        }
        return undefined;
      }
    }
  }

  /** A type name as written in `unit` (annotations, supertypes, receivers). */
  resolveType(unit: Unit, from: number, ref: NameRef): Hit | undefined {
    if (ref.qualifier.length === 0) return this.resolveBare(unit, from, ref.name, 'type');
    return this.resolvePath(unit, from, ref.qualifier, ref.name);
  }

  /** `a.b.c` where `a` is resolved as a bare name, or a namespace-qualified name. */
  private resolvePath(unit: Unit, from: number, qualifier: readonly string[], name: string): Hit | undefined {
    const head = this.resolveBare(unit, from, qualifier[0]!, 'any');
    if (head) {
      let current: Hit = head;
      for (const segment of [...qualifier.slice(1), name]) {
        const next = this.navigate(current.target, segment);
        if (!next) return undefined;
        current = { target: next.target, confidence: Math.min(current.confidence, next.confidence) };
      }
      return current;
    }
    return this.resolveNamespaced(qualifier, name);
  }

  /** `com.acme.Util.f`, `crate::a::b::f`: a namespace, optionally followed by a type. */
  private resolveNamespaced(qualifier: readonly string[], name: string): Hit | undefined {
    if (this.namespaces.size === 0) return undefined;
    for (const separator of ['.', '::', '/']) {
      const whole = this.namespaceOf(qualifier.join(separator));
      if (whole) {
        const found = this.exportedFrom(whole, name);
        if (found) return { target: found, confidence: CONFIDENCE.qualified };
      }
      if (qualifier.length >= 2) {
        const outer = this.namespaceOf(qualifier.slice(0, -1).join(separator));
        if (outer) {
          const type = this.exportedFrom(outer, qualifier[qualifier.length - 1]!);
          if (type) {
            const member = this.navigate(type, name);
            if (member) return { target: member.target, confidence: CONFIDENCE.qualified };
          }
        }
      }
    }
    return undefined;
  }

  /** Callable and type-like symbols by name, as `key, kind` pairs in key order (kinds index `nameKinds`). */
  private nameIndex(): Map<string, number[]> {
    if (this.byName) return this.byName;
    const index = new Map<string, number[]>();
    if (this.storedNames) {
      let entries: number[] = [];
      for (const item of this.storedNames()) {
        if (typeof item === 'string') index.set(item, (entries = []));
        else entries.push(item);
      }
    } else {
      const kinds = new Map<string, number>();
      for (const unit of this.units) {
        const symbols = unit.ext.symbols;
        for (let i = 0; i < symbols.length; i++) {
          if (unit.canon[i] !== i) continue;
          const kind = symbols[i]!.kind;
          if (!CALLABLE_KINDS.has(kind) && !TYPE_LIKE_KINDS.has(kind)) continue;
          let kindIndex = kinds.get(kind);
          if (kindIndex === undefined) {
            kindIndex = this.nameKinds.length;
            this.nameKinds.push(kind);
            kinds.set(kind, kindIndex);
          }
          const name = symbols[i]!.name;
          const entries = index.get(name);
          if (entries) entries.push(this.keyAt(unit, i), kindIndex);
          else index.set(name, [this.keyAt(unit, i), kindIndex]);
        }
      }
    }
    this.byName = index;
    return index;
  }

  private familyOfFile(index: number): string {
    this.fileFamilies ??= this.languageIds.map((id) => traitsOf(id).family);
    return this.fileFamilies[index]!;
  }

  private fileFamilies: string[] | undefined;

  /**
   * Keys and files of the definitions `fallback` may pick for `name`, per kind of lookup,
   * computed once per run: unresolved calls repeat names (`new`, `get`, `len`) that hundreds
   * of definitions share.
   */
  private fallbackCandidates(name: string, method: boolean, unit: Unit): { readonly keys: number[]; readonly files: number[] } | undefined {
    const implicitThis = unit.traits.implicitThis;
    const family = unit.traits.family;
    const cacheKey = `${method ? 'm' : 'f'}${implicitThis ? 1 : 0}${family}\0${name}`;
    let candidates = this.fallbackCache.get(cacheKey);
    if (candidates === undefined) {
      const all = this.nameIndex().get(name);
      if (all) {
        candidates = { keys: [], files: [] };
        // Decided from the index alone: only the symbol picked needs its file built.
        for (let j = 0; j + 1 < all.length; j += 2) {
          const key = all[j]!;
          const file = this.fileOfKey(key);
          if (this.familyOfFile(file) !== family) continue;
          const kind = this.nameKinds[all[j + 1]!] as NodeKind;
          if (method ? kind === 'method' || kind === 'property' : kind === 'function' || TYPE_LIKE_KINDS.has(kind) || (implicitThis && kind === 'method')) {
            candidates.keys.push(key);
            candidates.files.push(file);
          }
        }
      }
      this.fallbackCache.set(cacheKey, candidates ?? null);
    }
    return candidates ?? undefined;
  }

  private readonly fallbackCache = new Map<string, { readonly keys: number[]; readonly files: number[] } | null>();

  /** Last resort for calls: the only definition with this name, or the nearest one. */
  private fallback(unit: Unit, name: string, method: boolean): Hit | undefined {
    const candidates = this.fallbackCandidates(name, method, unit);
    if (!candidates || candidates.keys.length === 0) return undefined;
    const { keys, files } = candidates;
    if (keys.length === 1) return { target: { t: 'sym', sym: this.symAt(keys[0]!) }, confidence: CONFIDENCE.uniqueName };
    let sameFile = -1;
    for (let j = 0; j < keys.length; j++) {
      if (files[j] !== unit.index) continue;
      if (sameFile >= 0) return undefined;
      sameFile = j;
    }
    if (sameFile >= 0) return { target: { t: 'sym', sym: this.symAt(keys[sameFile]!) }, confidence: CONFIDENCE.nearestName };
    const directory = unit.path.slice(0, unit.path.lastIndexOf('/') + 1);
    let sameDirectory = -1;
    for (let j = 0; j < keys.length; j++) {
      const path = this.paths[files[j]!]!;
      if (!path.startsWith(directory) || path.slice(directory.length).includes('/')) continue;
      if (sameDirectory >= 0) return undefined;
      sameDirectory = j;
    }
    return sameDirectory >= 0 ? { target: { t: 'sym', sym: this.symAt(keys[sameDirectory]!) }, confidence: CONFIDENCE.nearestName } : undefined;
  }

  /** Resolve one reference; undefined when even a placeholder makes no sense. */
  resolveReference(unit: Unit, ref: Reference): Hit | undefined {
    const from = ref.from >= 0 && ref.from < unit.canon.length ? unit.canon[ref.from]! : -1;
    const q = ref.qualifier;
    const isCall = ref.kind === 'call' || ref.kind === 'new' || ref.kind === 'raise';
    const want = ref.kind === 'type' || ref.kind === 'raise' ? 'type' : isCall ? 'callable' : 'any';
    if (q.length === 0) {
      if ((ref.kind === 'new' || ref.kind === 'call') && unit.lang.selfNames.includes(ref.name)) {
        const type = this.enclosingType(unit, from);
        if (type) return { target: { t: 'sym', sym: type }, confidence: CONFIDENCE.self };
      }
      const hit = this.resolveBare(unit, from, ref.name, want);
      if (hit) return hit;
      if (isCall && unit.traits.bareNameFallback) {
        const guess = this.fallback(unit, ref.name, false);
        if (guess) return guess;
      }
      return isCall ? { target: { t: 'ext', name: ref.name }, confidence: CONFIDENCE.unresolved } : undefined;
    }
    if (ref.receiverType) {
      const type = this.resolveType(unit, from, ref.receiverType);
      if (type) {
        let current: Hit | undefined = type;
        for (const segment of [...q.slice(1), ref.name]) {
          current = current ? this.navigate(current.target, segment) : undefined;
        }
        if (current) return { target: current.target, confidence: Math.min(current.confidence, CONFIDENCE.receiverType) };
      }
    }
    const head = q[0]!;
    if (unit.lang.selfNames.includes(head) || unit.lang.superNames.includes(head)) {
      const type = this.enclosingType(unit, from);
      if (!type) return undefined;
      const isSuper = unit.lang.superNames.includes(head);
      const first = q.length > 1 ? q[1]! : ref.name;
      const member = this.findMember(type, first, isSuper);
      let current: Hit | undefined;
      if (member) current = { target: { t: 'sym', sym: member.sym }, confidence: member.inherited && !isSuper ? CONFIDENCE.inherited : CONFIDENCE.self };
      else {
        const external = this.externalAncestor(type);
        current = external ? { target: { t: 'ext', name: `${external}.${first}` }, confidence: CONFIDENCE.externalImported } : undefined;
      }
      for (const segment of q.length > 1 ? [...q.slice(2), ref.name] : []) {
        const next: Hit | undefined = current ? this.navigate(current.target, segment) : undefined;
        current = next ? { target: next.target, confidence: Math.min(current!.confidence, next.confidence, CONFIDENCE.receiverType) } : undefined;
      }
      if (current) return current;
      if (!isCall) return undefined;
      return { target: { t: 'ext', name: `${this.def(type).name}.${[...q.slice(1), ref.name].join('.')}` }, confidence: CONFIDENCE.unresolved };
    }
    if (isIdentifier(head)) {
      const hit = this.resolvePath(unit, from, q, ref.name);
      if (hit) return hit;
    }
    if (!isCall) return undefined;
    const guess = this.fallback(unit, ref.name, true);
    if (guess) return guess;
    return { target: { t: 'ext', name: [...q, ref.name].join('.') }, confidence: CONFIDENCE.unresolved };
  }

  // ------------------------------------------------------------- nodes

  /** The file node and one node per distinct definition. */
  nodesOf(unit: Unit): GraphNode[] {
    const language = unit.ext.language as LanguageId;
    let lastLine = 1;
    for (const symbol of unit.ext.symbols) lastLine = Math.max(lastLine, symbol.endLine);
    const nodes: GraphNode[] = [
      {
        id: unit.fileId,
        name: fileBaseName(unit.path),
        qualifiedName: unit.path,
        kind: 'file',
        language,
        file: unit.path,
        startLine: 1,
        endLine: lastLine,
        signature: '',
        doc: '',
        isTest: unit.isTestFile,
        external: false,
      },
    ];
    const symbols = unit.ext.symbols;
    for (let i = 0; i < symbols.length; i++) {
      if (unit.canon[i] !== i) continue;
      const s = symbols[i]!;
      nodes.push({
        id: this.idAt(unit, i),
        name: s.name,
        qualifiedName: this.qnAt(unit, i),
        kind: s.kind,
        language,
        file: unit.path,
        startLine: s.startLine,
        endLine: s.endLine,
        signature: s.signature,
        doc: s.doc,
        isTest: s.isTest || unit.isTestFile,
        external: false,
      });
    }
    return nodes;
  }

  // ------------------------------------------------------------- edges

  /**
   * Every edge `unit` owns, and the non-test symbols its tests call (also recorded in
   * `testTargets` under the file's path when given, for {@link derive}).
   */
  edgesOf(unit: Unit, testTargets?: TestTargets): FileOutput {
    const out = new EdgeSink(this);
    const tests: NodeId[] = [];
    const testSet = new Set<NodeId>();
    const symbols = unit.ext.symbols;
    const sourceOf = (from: number): NodeId => (from >= 0 && from < unit.canon.length ? this.idAt(unit, unit.canon[from]!) : unit.fileId);

    // Structure: file/parent/owner contains each definition.
    for (let i = 0; i < symbols.length; i++) {
      if (unit.canon[i] !== i) continue;
      const sym: Sym = { u: unit, i };
      const owner = this.ownerOf(sym);
      const ownerId = owner ? this.idOf(owner) : unit.fileId;
      const id = this.idAt(unit, i);
      out.add(ownerId, id, 'contains', CONFIDENCE.structural, 'ast_resolved', symbols[i]!.startLine);
      out.add(id, ownerId, 'member_of', CONFIDENCE.structural, 'ast_resolved', symbols[i]!.startLine);
    }

    // Imports: file → module files (and the files that define imported names), or a package placeholder.
    this.importIndex(unit);
    unit.ext.imports.forEach((decl, d) => {
      const resolved = this.resolvedImport(unit, d);
      if (!resolved) return;
      for (const file of resolved.files) {
        const target = this.unitOf(file);
        if (target && target !== unit) out.add(unit.fileId, target.fileId, 'imports', CONFIDENCE.imported, 'ast_resolved', decl.line);
      }
      if (resolved.files.length === 0 && resolved.external) {
        out.addExternal(unit.fileId, EXTERNAL_PREFIX + resolved.external, 'imports', CONFIDENCE.imported, 'ast_resolved', decl.line);
      }
      for (const name of decl.names) {
        if (name.imported === '*') continue;
        const bound = this.binding(unit, name.local);
        const files = bound?.t === 'module' ? bound.units : bound?.t === 'sym' ? [bound.sym.u] : [];
        for (const target of files) {
          if (target !== unit) out.add(unit.fileId, target.fileId, 'imports', CONFIDENCE.imported, 'ast_resolved', decl.line);
        }
      }
    });

    // Declarations: supertypes, decorators, annotations.
    for (let i = 0; i < symbols.length; i++) {
      if (unit.canon[i] !== i) continue;
      const def = symbols[i]!;
      const id = this.idAt(unit, i);
      const scopeIndex = this.parentIndex(unit, i);
      if (def.supertypes) {
        for (const ref of def.supertypes) {
          const hit = this.resolveType(unit, scopeIndex, ref);
          const target = hit?.target;
          if (target?.t === 'sym') {
            if (target.sym.u === unit && target.sym.i === i) continue;
            const targetKind = this.def(target.sym).kind;
            const type: EdgeType =
              ref.relation !== 'extends' || ((targetKind === 'interface' || targetKind === 'trait') && def.kind !== 'interface' && def.kind !== 'trait')
                ? 'implements'
                : 'extends';
            out.add(id, this.idOf(target.sym), type, hit!.confidence, provenanceFor(hit!.confidence), def.startLine);
          } else {
            const name = target?.t === 'ext' ? target.name : [...ref.qualifier, ref.name].join('.');
            const confidence = target?.t === 'ext' ? hit!.confidence : CONFIDENCE.unresolved;
            out.addExternal(id, EXTERNAL_PREFIX + name, ref.relation === 'extends' ? 'extends' : 'implements', confidence, provenanceFor(confidence), def.startLine);
          }
        }
      }
      for (const ref of def.decorators ?? []) {
        const hit = this.resolveDecorator(unit, scopeIndex, ref);
        if (hit?.target.t === 'sym') out.add(this.idOf(hit.target.sym), id, 'decorates', hit.confidence, provenanceFor(hit.confidence), def.startLine);
        else {
          const name = hit?.target.t === 'ext' ? hit.target.name : [...ref.qualifier, ref.name].join('.');
          const confidence = hit?.target.t === 'ext' ? hit.confidence : CONFIDENCE.unresolved;
          out.addExternalSource(EXTERNAL_PREFIX + name, id, 'decorates', confidence, provenanceFor(confidence), def.startLine);
        }
      }
      for (const ref of def.typeHints ?? []) {
        const hit = this.resolveType(unit, scopeIndex, ref);
        if (hit?.target.t === 'sym') {
          if (TYPE_TARGET_KINDS.has(this.def(hit.target.sym).kind)) {
            out.add(id, this.idOf(hit.target.sym), 'type_hint_of', hit.confidence, provenanceFor(hit.confidence), def.startLine);
          }
        } else if (hit?.target.t === 'ext') {
          out.addExternal(id, EXTERNAL_PREFIX + hit.target.name, 'type_hint_of', hit.confidence, provenanceFor(hit.confidence), def.startLine);
        }
      }
    }

    // Implementations declared apart from their type: T implements Trait, wherever T lives.
    unit.ext.implementations?.forEach((implementation, d) => {
      const type = this.implType(unit, d);
      if (!type) return;
      const hit = this.resolveTrait(unit, d);
      const target = hit?.target;
      if (target?.t === 'sym') {
        if (this.keyOf(target.sym) === this.keyOf(type) || !this.isTypeLike(target.sym)) return;
        out.add(this.idOf(type), this.idOf(target.sym), 'implements', hit!.confidence, provenanceFor(hit!.confidence), implementation.line);
      } else {
        const name = target?.t === 'ext' ? target.name : [...implementation.trait.qualifier, implementation.trait.name].join('.');
        const confidence = target?.t === 'ext' ? hit!.confidence : CONFIDENCE.unresolved;
        out.addExternal(this.idOf(type), EXTERNAL_PREFIX + name, 'implements', confidence, provenanceFor(confidence), implementation.line);
      }
    });

    // Uses.
    for (const ref of unit.ext.references) {
      const hit = this.resolveReference(unit, ref);
      if (!hit) continue;
      const source = sourceOf(ref.from);
      const target = hit.target;
      const provenance = provenanceFor(hit.confidence);
      if (target.t === 'module') continue;
      if (target.t === 'ext') {
        const type: EdgeType | undefined =
          ref.kind === 'call' || ref.kind === 'new' ? 'calls' : ref.kind === 'raise' ? 'throws' : ref.kind === 'type' && hit.confidence > CONFIDENCE.unresolved ? 'references' : undefined;
        if (type) out.addExternal(source, EXTERNAL_PREFIX + target.name, type, hit.confidence, provenance, ref.line);
        continue;
      }
      let sym = target.sym;
      const def = this.def(sym);
      let type: EdgeType;
      switch (ref.kind) {
        case 'call':
        case 'new':
          if (TYPE_LIKE_KINDS.has(def.kind)) sym = this.constructorOf(sym) ?? sym;
          type = 'calls';
          break;
        case 'raise':
          type = TYPE_LIKE_KINDS.has(def.kind) ? 'throws' : 'calls';
          break;
        case 'field':
          type = VALUE_HOLDER_KINDS.has(def.kind) ? 'accesses_field' : 'references';
          break;
        default:
          type = 'references';
      }
      const targetId = this.idOf(sym);
      if (targetId === source) continue;
      out.add(source, targetId, type, hit.confidence, provenance, ref.line);
      if (type === 'calls') {
        // A test calls: a test function or method, or the file itself in a test file (calls in
        // `describe`/`it` callbacks and RSpec blocks, which are not definitions).
        let isTestCall: boolean;
        if (ref.from >= 0 && ref.from < unit.canon.length) {
          const caller: Sym = { u: unit, i: unit.canon[ref.from]! };
          isTestCall = this.isTest(caller) && CALLABLE_KINDS.has(this.def(caller).kind);
        } else isTestCall = unit.isTestFile;
        if (isTestCall && !this.isTest(sym)) {
          out.add(source, targetId, 'tests', hit.confidence, provenance, ref.line);
          out.add(targetId, source, 'tested_by', hit.confidence, provenance, ref.line);
          if (tests.length < MAX_TEST_TARGETS && !testSet.has(targetId)) {
            testSet.add(targetId);
            tests.push(targetId);
          }
        }
      }
    }
    if (testTargets && tests.length > 0) testTargets.set(unit.path, tests);
    return { ...out.finish(), tests };
  }

  /** A decorator, annotation or attribute as written; C# `[Obsolete]` also finds `ObsoleteAttribute`. */
  private resolveDecorator(unit: Unit, from: number, ref: NameRef): Hit | undefined {
    const lookup = (name: string, want: 'type' | 'callable'): Hit | undefined =>
      ref.qualifier.length === 0 ? this.resolveBare(unit, from, name, want) : this.resolvePathOrSelf(unit, from, { name, qualifier: ref.qualifier });
    const suffix = unit.traits.attributeSuffix;
    if (suffix && !ref.name.endsWith(suffix)) {
      const hit = lookup(ref.name + suffix, 'type');
      if (hit?.target.t === 'sym') return hit;
    }
    return lookup(ref.name, 'callable');
  }

  /** A decorator such as `@app.route` or `@self.x`: a dotted path from the decorated scope. */
  private resolvePathOrSelf(unit: Unit, from: number, ref: NameRef): Hit | undefined {
    const head = ref.qualifier[0]!;
    if (!isIdentifier(head)) return undefined;
    return this.resolvePath(unit, from, ref.qualifier, ref.name);
  }
}

/** Collects edges, keeping one per (source, target, type) with the highest confidence. */
class EdgeSink {
  private readonly edges: GraphEdge[] = [];
  private readonly index = new Map<string, number>();
  private readonly externals = new Set<string>();

  constructor(private readonly project: Project) {}

  add(source: NodeId, target: NodeId, type: EdgeType, confidence: number, provenance: Provenance, line: number): void {
    const key = source + target + type;
    const existing = this.index.get(key);
    if (existing !== undefined) {
      const edge = this.edges[existing]!;
      if (confidence > edge.confidence) this.edges[existing] = { ...edge, confidence, provenance };
      return;
    }
    this.index.set(key, this.edges.length);
    this.edges.push({ source, target, type, confidence, provenance, line });
  }

  addExternal(source: NodeId, qualifiedName: string, type: EdgeType, confidence: number, provenance: Provenance, line: number): void {
    const name = sanitizeExternal(qualifiedName);
    this.externals.add(name);
    this.add(source, this.project.externalId(name), type, confidence, provenance, line);
  }

  addExternalSource(qualifiedName: string, target: NodeId, type: EdgeType, confidence: number, provenance: Provenance, line: number): void {
    const name = sanitizeExternal(qualifiedName);
    this.externals.add(name);
    this.add(this.project.externalId(name), target, type, confidence, provenance, line);
  }

  finish(): OwnerOutput {
    return { edges: this.edges, externals: this.externals };
  }
}

function sanitizeExternal(qualifiedName: string): string {
  return qualifiedName.length > 300 ? qualifiedName.slice(0, 300) : qualifiedName;
}

/** Confidence at or above 0.8 means the target was established, not guessed. */
export function provenanceFor(confidence: number): Provenance {
  return confidence >= 0.8 ? 'ast_resolved' : 'ast_inferred';
}

/** `Strings` of `a.b.Strings`, `C` of `a::b::C`, `c` of `a/b/c`. */
function lastSegment(source: string): string {
  const parts = source.split(/[.:/]/);
  return parts[parts.length - 1] ?? source;
}

// Unicode property classes cost milliseconds to compile on first use, in every process:
// ASCII names, nearly all of them, are told apart without them.
const UNICODE_CONSTANT = /^\p{Lu}/u;
const UNICODE_IDENTIFIER = /^[\p{L}_$@][\p{L}\p{N}_$@]*$/u;

/** A Ruby constant: starts with an upper-case letter. */
function isConstantName(name: string): boolean {
  const first = name.charCodeAt(0);
  if (first < 128) return first >= 65 && first <= 90;
  return UNICODE_CONSTANT.test(name);
}

function isIdentifier(segment: string): boolean {
  if (segment.length === 0) return false;
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c >= 128) return UNICODE_IDENTIFIER.test(segment);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 64;
    if (!letter && (i === 0 || c < 48 || c > 57)) return false;
  }
  return true;
}

function preferDefinition(unit: Unit, candidates: readonly number[], want: 'any' | 'type' | 'callable'): number {
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

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export type { ImportDecl };
