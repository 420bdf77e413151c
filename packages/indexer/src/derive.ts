/**
 * Passes over the whole resolved project (never just the files that changed): structural
 * interface satisfaction, overrides, inherited methods, and co-tested pairs.
 *
 * Their edges belong to fixed owners `derived:<pass>:<shard>`: a fixed set, so a later run
 * can always clear an owner that no longer has edges, and sharded by the source file, so a
 * local change rewrites a sixteenth of a pass rather than all of it.
 */
import type { EdgeType, GraphEdge, NodeId, NodeKind } from '@knowing/graph';
import { TYPE_LIKE_KINDS } from '@knowing/graph';
import { CONFIDENCE } from './resolve.js';
import type { OwnerOutput, Project, Sym, TestTargets } from './resolve.js';

/** Derived passes, each with its own owners. */
export const DERIVED_PASSES = Object.freeze(['implements', 'overrides', 'inherits', 'co_tested_with'] as const);
export type DerivedPass = (typeof DERIVED_PASSES)[number];
/** The passes that depend only on the symbol tables (not on any file's references). */
export const HIERARCHY_PASSES: readonly DerivedPass[] = Object.freeze(['implements', 'overrides', 'inherits'] as const);
/** Shards per pass. */
export const DERIVED_SHARDS = 16;

/** co_tested_with pairs emitted per test file (among its first 20 distinct called symbols). */
export const CO_TESTED_PAIRS_PER_FILE = 40;

/** Every derived owner name of these passes, in a stable order. */
export function derivedOwners(passes: readonly DerivedPass[] = DERIVED_PASSES): string[] {
  const owners: string[] = [];
  for (const pass of passes) for (let shard = 0; shard < DERIVED_SHARDS; shard++) owners.push(ownerName(pass, shard));
  return owners;
}

function ownerName(pass: DerivedPass, shard: number): string {
  return `derived:${pass}:${shard}`;
}

/** FNV-1a; only needs to spread paths evenly and be stable across runs. */
function shardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % DERIVED_SHARDS;
}

class DerivedSink {
  readonly owners = new Map<string, { edges: GraphEdge[]; keys: Set<string> }>();

  constructor(passes: readonly DerivedPass[]) {
    for (const owner of derivedOwners(passes)) this.owners.set(owner, { edges: [], keys: new Set() });
  }

  add(pass: DerivedPass, shardKey: string, source: NodeId, target: NodeId, type: EdgeType, confidence: number): boolean {
    if (source === target) return false;
    const bucket = this.owners.get(ownerName(pass, shardOf(shardKey)))!;
    const key = source + target + type;
    if (bucket.keys.has(key)) return false;
    bucket.keys.add(key);
    bucket.edges.push({ source, target, type, confidence, provenance: 'derived', line: 0 });
    return true;
  }

  finish(): Map<string, OwnerOutput> {
    const out = new Map<string, OwnerOutput>();
    for (const [owner, { edges }] of this.owners) out.set(owner, { edges, externals: new Set() });
    return out;
  }
}

const OVERRIDABLE = new Set<NodeKind>(['method', 'property']);
const GO_CONCRETE = new Set<NodeKind>(['struct', 'class', 'type_alias', 'enum']);

/** Every derived pass over a fully resolved project: {@link deriveHierarchy} plus {@link deriveCoTested}. */
export function derive(project: Project, testTargets: TestTargets): Map<string, OwnerOutput> {
  return new Map([...deriveHierarchy(project), ...deriveCoTested(testTargets)]);
}

/**
 * The hierarchy passes (structural implements, overrides, inherits). Mutates the project's
 * hierarchy first (structural supertypes) so overrides and inherits see Go types as
 * implementors of the interfaces they satisfy.
 */
export function deriveHierarchy(project: Project): Map<string, OwnerOutput> {
  const sink = new DerivedSink(HIERARCHY_PASSES);
  structuralImplements(project, sink);
  project.resetHierarchyCaches();
  hierarchy(project, sink);
  return sink.finish();
}

function methodNames(project: Project, type: Sym): Set<string> {
  const names = new Set<string>();
  for (const current of [type, ...project.ancestors(type)]) {
    for (const [name, syms] of project.members(current)) if (syms.some((sym) => project.def(sym).kind === 'method')) names.add(name);
  }
  return names;
}

/** Go: a type whose method set covers an interface's implements it, declared or not. */
function structuralImplements(project: Project, sink: DerivedSink): void {
  const interfaces: Sym[] = [];
  const concrete: Sym[] = [];
  for (const unit of project.units) {
    if (unit.lang.id !== 'go') continue;
    const symbols = unit.ext.symbols;
    for (let i = 0; i < symbols.length; i++) {
      if (unit.canon[i] !== i) continue;
      const kind = symbols[i]!.kind;
      if (kind === 'interface') interfaces.push({ u: unit, i });
      else if (GO_CONCRETE.has(kind)) concrete.push({ u: unit, i });
    }
  }
  if (interfaces.length === 0 || concrete.length === 0) return;
  const byMethod = new Map<string, Sym[]>();
  const concreteMethods = new Map<number, Set<string>>();
  for (const type of concrete) {
    const names = methodNames(project, type);
    if (names.size === 0) continue;
    concreteMethods.set(project.keyOf(type), names);
    for (const name of names) {
      const list = byMethod.get(name);
      if (list) list.push(type);
      else byMethod.set(name, [type]);
    }
  }
  const added: [Sym, Sym][] = [];
  for (const iface of interfaces) {
    const required = methodNames(project, iface);
    if (required.size === 0) continue;
    let rarest: Sym[] | undefined;
    for (const name of required) {
      const candidates = byMethod.get(name) ?? [];
      if (!rarest || candidates.length < rarest.length) rarest = candidates;
      if (candidates.length === 0) break;
    }
    for (const type of rarest ?? []) {
      const names = concreteMethods.get(project.keyOf(type))!;
      let satisfies = true;
      for (const name of required) {
        if (!names.has(name)) {
          satisfies = false;
          break;
        }
      }
      if (!satisfies) continue;
      const ifaceKey = project.keyOf(iface);
      if (project.ancestors(type).some((ancestor) => project.keyOf(ancestor) === ifaceKey)) continue;
      if (sink.add('implements', type.u.path, project.idOf(type), project.idOf(iface), 'implements', CONFIDENCE.structuralImplements)) {
        added.push([type, iface]);
      }
    }
  }
  for (const [type, iface] of added) {
    const key = project.keyOf(type);
    const list = project.extraSupertypes.get(key);
    if (list) list.push(iface);
    else project.extraSupertypes.set(key, [iface]);
  }
}

/**
 * overrides (member → the parent member it redefines) and inherits (type → inherited member).
 * A type declared in several files (C# partial class, reopened Ruby class) has the members and
 * supertypes of all its parts: each part's own members override, and inherits edges come from
 * its primary part only (see `Project.primaryPart`).
 */
function hierarchy(project: Project, sink: DerivedSink): void {
  for (const unit of project.units) {
    const symbols = unit.ext.symbols;
    for (let i = 0; i < symbols.length; i++) {
      if (unit.canon[i] !== i || !TYPE_LIKE_KINDS.has(symbols[i]!.kind)) continue;
      const type: Sym = { u: unit, i };
      const ancestors = project.ancestors(type);
      if (ancestors.length === 0) continue;
      const typeId = project.idOf(type);
      const parents = project.parentTypes(type);
      for (const [name, syms] of project.ownMembers(type)) {
        for (const member of syms) {
          if (!OVERRIDABLE.has(project.def(member).kind)) continue;
          for (const parent of parents) {
            const found = project.findMember(parent, name);
            if (!found || !OVERRIDABLE.has(project.def(found.sym).kind)) continue;
            sink.add('overrides', member.u.path, project.idOf(member), project.idOf(found.sym), 'overrides', CONFIDENCE.hierarchy);
          }
        }
      }
      if (project.keyOf(project.primaryPart(type)) !== project.keyOf(type)) continue;
      // Test classes get no inherits edges: they inherit a framework's assertion helpers by the
      // thousand (95% of rails' 0.9M inherits edges), which serve no walk and dilute every one.
      if (project.isTest(type)) continue;
      const seen = new Set<string>(project.members(type).keys());
      for (const ancestor of ancestors) {
        for (const [name, syms] of project.members(ancestor)) {
          if (seen.has(name)) continue;
          seen.add(name);
          const inherited = syms.find((sym) => OVERRIDABLE.has(project.def(sym).kind));
          if (inherited) sink.add('inherits', unit.path, typeId, project.idOf(inherited), 'inherits', CONFIDENCE.hierarchy);
        }
      }
    }
  }
}

/**
 * Symbols exercised by the same test file are related: pairs among each test file's called
 * symbols (node ids in first-call order), a capped number per file.
 */
export function deriveCoTested(targets: ReadonlyMap<string, readonly NodeId[]>): Map<string, OwnerOutput> {
  const sink = new DerivedSink(['co_tested_with']);
  for (const file of [...targets.keys()].sort()) {
    const distinct = targets.get(file)!;
    let pairs = 0;
    outer: for (let a = 0; a < distinct.length; a++) {
      for (let b = a + 1; b < distinct.length; b++) {
        if (pairs >= CO_TESTED_PAIRS_PER_FILE) break outer;
        const [source, target] = distinct[a]! < distinct[b]! ? [distinct[a]!, distinct[b]!] : [distinct[b]!, distinct[a]!];
        sink.add('co_tested_with', source, source, target, 'co_tested_with', CONFIDENCE.coTested);
        pairs++;
      }
    }
  }
  return sink.finish();
}
