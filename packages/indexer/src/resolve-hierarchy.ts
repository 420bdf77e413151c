/**
 * Types and their members for a {@link Project}: parts of one type declared in several files,
 * members declared apart from their type, supertypes and implementations, ancestors in
 * method-resolution order, and member lookup through them. The project-wide passes that
 * record what lies apart (parts, orphan members, implementations) live here.
 */
import { TYPE_LIKE_KINDS } from '@knowing/graph';
import { CONFIDENCE, MEMBER_KINDS_OWNED, preferDefinition, push } from './resolve-model.js';
import { SymbolTable } from './resolve-table.js';
import type { Hit, Sym, Target, Unit } from './resolve-model.js';
import type { Project } from './resolve.js';
import type { NameRef } from './languages/types.js';

/** The second layer of a {@link Project}: the type hierarchy; name resolution comes above it. */
export abstract class TypeHierarchy extends SymbolTable {
  private readonly attachedMemberCache = new Map<number, Map<string, Sym[]>>();
  private readonly memberCache = new Map<number, Map<string, Sym[]>>();
  private readonly supertypeCache = new Map<number, Target[]>();
  private readonly mroCache = new Map<number, Sym[]>();
  private readonly partSyms = new Map<string, Sym[]>();
  private readonly partMemberCache = new Map<string, Map<string, Sym[]>>();
  private readonly primaryCache = new Map<string, Sym>();
  /** Structural `implements` found by the derived pass; extends the hierarchy for overrides/inherits. */
  readonly extraSupertypes = new Map<number, Sym[]>();

  /** A type name as written in `unit` (annotations, supertypes, receivers). */
  abstract resolveType(unit: Unit, from: number, ref: NameRef): Hit | undefined;

  /**
   * Records what the project-wide passes find. Run once every layer is built: the passes
   * resolve type names, which needs the layers above this one.
   */
  protected runProjectPasses(): void {
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
  protected implType(unit: Unit, d: number): Sym | undefined {
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
  protected partsByKey(partKey: string): Sym[] | undefined {
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
  protected resolveTrait(unit: Unit, d: number): Hit | undefined {
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
  protected externalAncestor(type: Sym): string | undefined {
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
}
