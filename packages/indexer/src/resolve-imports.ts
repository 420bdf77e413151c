/**
 * Import resolution for a {@link Project}: what each import declaration resolves to, what it
 * binds to a local name (following re-export chains and submodules), and what a module
 * exposes to its importers.
 */
import { TYPE_LIKE_KINDS } from '@knowing/graph';
import { lastSegment } from './resolve-model.js';
import { TypeHierarchy } from './resolve-hierarchy.js';
import type { Sym, Target, Unit } from './resolve-model.js';
import type { Project } from './resolve.js';
import type { ResolvedImport } from './languages/types.js';

/** The third layer of a {@link Project}: imports and exports between files. */
export abstract class ImportResolver extends TypeHierarchy {
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

  protected importIndex(unit: Unit): Map<string, { readonly decl: number; readonly imported: string | undefined }> {
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

  protected unitsOf(files: readonly string[]): Unit[] {
    const out: Unit[] = [];
    for (const file of files) {
      const unit = this.unitOf(file);
      if (unit) out.push(unit);
    }
    return out;
  }

  protected submodule(via: Unit, source: string, name: string): Target | undefined {
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
  protected importedType(units: readonly Unit[], source: string): Sym | undefined {
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
}
