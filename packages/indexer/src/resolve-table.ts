/**
 * The symbol table under a {@link Project}: files in path order, their units (built on first
 * use in a project made from links), symbol keys, namespaces, the path index behind
 * `ProjectLayout`, the name index, and what the project-wide passes recorded.
 */
import { CALLABLE_KINDS, nodeId, TYPE_LIKE_KINDS } from '@knowing/graph';
import { isTestSupportPath } from './languages/common.js';
import { fileBaseName, preferDefinition, push, qualifiedNameOf, tableSize, traitsOf } from './resolve-model.js';
import type { LinkedFiles, ProjectFile, ProjectLinks, Sym, Unit } from './resolve-model.js';
import type { Project } from './resolve.js';
import type { NodeId } from '@knowing/graph';
import type { ProjectLayout, SymbolDef } from './languages/types.js';

/** How a {@link Project} is built besides its files. */
export interface ProjectOptions {
  readonly allPaths?: Iterable<string>;
  readonly goModulePath?: string;
  readonly linked?: LinkedFiles;
}

/** The first layer of a {@link Project}: tables and keys, no resolution. */
export abstract class SymbolTable {
  readonly layout: ProjectLayout;
  /** Every file's path, in path order; a unit's `index` is its position here. */
  protected readonly paths: readonly string[];
  private readonly languageIds: readonly string[];
  /** Per file, the key of its first symbol; one more entry closes the last file. */
  private readonly bases: Int32Array;
  protected readonly loaded: (Unit | undefined)[];
  private readonly load: ((index: number) => ProjectFile) | undefined;
  private readonly indexOfPath = new Map<string, number>();
  private readonly allPaths: Set<string>;
  /** Namespace → files, in path order. */
  protected readonly namespaces = new Map<string, number[]>();
  private readonly namespaceUnits = new Map<string, Unit[]>();
  private pathIndexes: { readonly byBaseName: Map<string, string[]>; readonly byDirectory: Map<string, string[]> } | undefined;
  /** Member key → owner key, for members declared apart from their type. */
  protected readonly attachedOwner = new Map<number, number>();
  /** Owner key → keys of the members declared apart from it, ascending. */
  protected readonly attachedMembers = new Map<number, number[]>();
  /** Types declared in several files (C# partial classes, reopened Ruby classes): part key → keys of the parts in path order. */
  protected readonly partIndex = new Map<string, number[]>();
  /** Symbol key → its part key (type-like symbols of languages with `Traits.parts`). */
  protected readonly partKeys = new Map<number, string>();
  /** Type key → the implementations (`FileExtraction.implementations`) naming it. */
  protected readonly implementedBy = new Map<number, { readonly file: number; readonly d: number }[]>();
  /** File → per `ext.implementations` entry, the key of the implementing type, or -1 when it resolved to none. */
  protected readonly implTypeKeys = new Map<number, number[]>();
  /** `<path>\0<part key>` → key of the part declared in that file. */
  protected readonly localParts = new Map<string, number>();
  /** Name → `key, kind` pairs of callable and type-like symbols (kinds index `nameKinds`). */
  private byName: Map<string, number[]> | undefined;
  protected nameKinds: string[] = [];
  private readonly storedNames: (() => readonly (string | number)[]) | undefined;
  private readonly goModulePath: string | undefined;
  private readonly externalIds = new Map<string, NodeId>();

  /**
   * Tables over `files`: every file is built. With `linked`, `files` are the few given in
   * full (the rest load from `linked.load` when a resolution reaches them) and the
   * project-wide passes' results come from `linked.links`.
   */
  constructor(
    readonly repoId: string,
    files: readonly ProjectFile[],
    options: ProjectOptions = {},
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

  protected unitAt(index: number): Unit {
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
  protected namespaceOf(namespace: string): Unit[] | undefined {
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

  /** The file a key belongs to: the last whose first key is not past it (files without symbols share their successor's). */
  protected fileOfKey(key: number): number {
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
  protected symAt(key: number): Sym {
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
  /** Callable and type-like symbols by name, as `key, kind` pairs in key order (kinds index `nameKinds`). */
  protected nameIndex(): Map<string, number[]> {
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

  protected familyOfFile(index: number): string {
    this.fileFamilies ??= this.languageIds.map((id) => traitsOf(id).family);
    return this.fileFamilies[index]!;
  }

  private fileFamilies: string[] | undefined;

  protected pickTopLevel(unit: Unit, name: string, want: 'any' | 'type' | 'callable'): number | undefined {
    const candidates = unit.topLevel.get(name);
    if (!candidates || candidates.length === 0) return undefined;
    return candidates.length === 1 ? candidates[0] : preferDefinition(unit, candidates, want);
  }
}
