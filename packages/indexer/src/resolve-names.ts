/**
 * Name resolution for a {@link Project}: a name as written at a place in a file, through
 * lexical scope, imports, the namespace, wildcard imports and qualified paths, with a guess
 * by name as the last resort for calls.
 */
import { TYPE_LIKE_KINDS } from '@knowing/graph';
import {
  CONFIDENCE,
  isConstantName,
  isIdentifier,
  MEMBER_KINDS_OWNED,
  preferDefinition,
  TYPE_TARGET_KINDS,
  VALUE_HOLDER_KINDS,
} from './resolve-model.js';
import { ImportResolver } from './resolve-imports.js';
import type { Hit, Sym, Target, Unit } from './resolve-model.js';
import type { Project } from './resolve.js';
import type { NodeKind } from '@knowing/graph';
import type { NameRef, Reference } from './languages/types.js';

const MAX_NAVIGATION_DEPTH = 16;

/** The fourth layer of a {@link Project}: resolving names and references; edges are built on it. */
export abstract class NameResolver extends ImportResolver {
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
  override resolveType(unit: Unit, from: number, ref: NameRef): Hit | undefined {
    if (ref.qualifier.length === 0) return this.resolveBare(unit, from, ref.name, 'type');
    return this.resolvePath(unit, from, ref.qualifier, ref.name);
  }

  /** `a.b.c` where `a` is resolved as a bare name, or a namespace-qualified name. */
  protected resolvePath(unit: Unit, from: number, qualifier: readonly string[], name: string): Hit | undefined {
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
}
