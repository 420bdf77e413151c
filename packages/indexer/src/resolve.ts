/**
 * The project symbol table and reference resolution: turns every file's extraction into
 * nodes and the edges that file owns.
 *
 * Resolution is a pure function of the set of extractions (files are processed in path
 * order and every tie is broken deterministically), which is what lets an incremental run
 * produce exactly the graph a full run would: the indexer re-resolves every file from
 * cached extractions and writes only the owners whose output changed.
 *
 * A project is built in layers, each in its own module: the symbol table (`resolve-table.ts`),
 * the type hierarchy (`resolve-hierarchy.ts`), imports (`resolve-imports.ts`) and name
 * resolution (`resolve-names.ts`); this module adds the nodes and edges each file owns.
 */
import { CALLABLE_KINDS, TYPE_LIKE_KINDS } from '@knowing/graph';
import { CONFIDENCE, EXTERNAL_PREFIX, fileBaseName, isIdentifier, MAX_TEST_TARGETS, provenanceFor, TYPE_TARGET_KINDS, VALUE_HOLDER_KINDS } from './resolve-model.js';
import { NameResolver } from './resolve-names.js';
import type { FileOutput, Hit, LinkedFiles, OwnerOutput, ProjectFile, Sym, TestTargets, Unit } from './resolve-model.js';
import type { ProjectOptions } from './resolve-table.js';
import type { EdgeType, GraphEdge, GraphNode, LanguageId, NodeId, Provenance } from '@knowing/graph';
import type { ImportDecl, NameRef, Reference } from './languages/types.js';

export { CONFIDENCE, externalNode, MAX_TEST_TARGETS, provenanceFor, qualifiedNameOf } from './resolve-model.js';
export type { FileOutput, LinkedFiles, OwnerOutput, ProjectFile, ProjectLinks, Sym, Target, TestTargets, Unit } from './resolve-model.js';

/**
 * The symbol table over all files, and the resolver. Build once per run.
 */
export class Project extends NameResolver {
  /**
   * A project over `files`: every file is built and the project-wide passes run over all of
   * them. With `linked`, `files` are the few given in full (the rest load from
   * `linked.load` when a resolution reaches them) and the passes' results come from
   * `linked.links`; use {@link Project.fromLinks}, which checks that they fit.
   */
  constructor(repoId: string, files: readonly ProjectFile[], options: ProjectOptions = {}) {
    super(repoId, files, options);
    if (!options.linked) this.runProjectPasses();
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
    this.addStructureEdges(unit, out);
    this.addImportEdges(unit, out);
    this.addDeclarationEdges(unit, out);
    this.addImplementationEdges(unit, out);
    const tests = this.addUseEdges(unit, out);
    if (testTargets && tests.length > 0) testTargets.set(unit.path, tests);
    return { ...out.finish(), tests };
  }

  /** Structure: file/parent/owner contains each definition. */
  private addStructureEdges(unit: Unit, out: EdgeSink): void {
    const symbols = unit.ext.symbols;
    for (let i = 0; i < symbols.length; i++) {
      if (unit.canon[i] !== i) continue;
      const sym: Sym = { u: unit, i };
      const owner = this.ownerOf(sym);
      const ownerId = owner ? this.idOf(owner) : unit.fileId;
      const id = this.idAt(unit, i);
      out.add(ownerId, id, 'contains', CONFIDENCE.structural, 'ast_resolved', symbols[i]!.startLine);
      out.add(id, ownerId, 'member_of', CONFIDENCE.structural, 'ast_resolved', symbols[i]!.startLine);
    }
  }

  /** Imports: file → module files (and the files that define imported names), or a package placeholder. */
  private addImportEdges(unit: Unit, out: EdgeSink): void {
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
  }

  /** Declarations: supertypes, decorators, annotations. */
  private addDeclarationEdges(unit: Unit, out: EdgeSink): void {
    const symbols = unit.ext.symbols;
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
  }

  /** Implementations declared apart from their type: T implements Trait, wherever T lives. */
  private addImplementationEdges(unit: Unit, out: EdgeSink): void {
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
  }

  /** Uses: calls, throws, field accesses and references; returns the non-test symbols the file's tests call. */
  private addUseEdges(unit: Unit, out: EdgeSink): NodeId[] {
    const tests: NodeId[] = [];
    const testSet = new Set<NodeId>();
    for (const ref of unit.ext.references) {
      const hit = this.resolveReference(unit, ref);
      if (!hit) continue;
      const source = ref.from >= 0 && ref.from < unit.canon.length ? this.idAt(unit, unit.canon[ref.from]!) : unit.fileId;
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
      if (type === 'calls' && this.isTestCall(unit, ref) && !this.isTest(sym)) {
        out.add(source, targetId, 'tests', hit.confidence, provenance, ref.line);
        out.add(targetId, source, 'tested_by', hit.confidence, provenance, ref.line);
        if (tests.length < MAX_TEST_TARGETS && !testSet.has(targetId)) {
          testSet.add(targetId);
          tests.push(targetId);
        }
      }
    }
    return tests;
  }

  /**
   * A test calls: a test function or method, or the file itself in a test file (calls in
   * `describe`/`it` callbacks and RSpec blocks, which are not definitions).
   */
  private isTestCall(unit: Unit, ref: Reference): boolean {
    if (ref.from >= 0 && ref.from < unit.canon.length) {
      const caller: Sym = { u: unit, i: unit.canon[ref.from]! };
      return this.isTest(caller) && CALLABLE_KINDS.has(this.def(caller).kind);
    }
    return unit.isTestFile;
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

export type { ImportDecl };
