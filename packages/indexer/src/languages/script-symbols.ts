/**
 * The symbols the script extractor defines in one file, with the bookkeeping kept beside
 * them: merging of redeclarations, type hints without repeats, file-level names, and the ES5
 * constructor functions that turn into classes once a prototype assignment shows them to be.
 * Not part of the language-module contract.
 */
import type { NodeKind } from '@knowing/graph';
import type { SymbolBuilder } from './common.js';
import { EMPTY } from './script-syntax.js';
import type { ClassInfo, Frame, PendingField } from './script-walk.js';
import type { NameRef, SymbolDef } from './types.js';

const MEMBER_KINDS: ReadonlySet<NodeKind> = new Set(['method', 'constructor', 'property', 'field', 'constant']);

/** Bookkeeping kept beside each symbol, not emitted. */
interface SymbolMeta {
  /** `scope` plus `name`: the scope of the symbol's members. */
  readonly path: readonly string[];
  /** Members: exported exactly when the container is (and the member is not private). */
  readonly inheritsExport: boolean;
  readonly isPrivate: boolean;
  hintKeys?: Set<string>;
}

export class SymbolTable {
  readonly defs: SymbolBuilder[] = [];
  readonly meta: SymbolMeta[] = [];
  private readonly symbolByKey = new Map<string, number>();
  /** File-level symbols by name (first wins). */
  readonly topLevel = new Map<string, number>();
  /** ES5 constructor candidates by symbol index, and the functions that received prototype members. */
  private readonly constructorFunctions = new Map<number, ClassInfo>();
  readonly prototypeOwners = new Set<number>();

  constructor(private readonly isTest: boolean) {}

  scopeOf(f: Frame): readonly string[] {
    return f.def >= 0 ? this.meta[f.def]!.path : EMPTY;
  }

  /**
   * Add a definition, or merge it into an earlier one with the same parent, name and kind
   * (overload signatures and their implementation, getter/setter pairs, declaration merging,
   * redeclared `var`s): one qualified name must stay one symbol.
   */
  add(
    init: Omit<SymbolBuilder, 'isTest' | 'doc' | 'signature'> & { doc?: string; signature?: string },
    options: { inheritsExport: boolean; isPrivate?: boolean },
  ): number {
    const key = `${init.parent}\u0000${init.scope.join('\u0000')}\u0000${init.name}\u0000${init.kind}`;
    const existing = this.symbolByKey.get(key);
    if (existing !== undefined) {
      const sym = this.defs[existing]!;
      sym.endLine = Math.max(sym.endLine, init.endLine);
      sym.exported ||= init.exported;
      if (!sym.doc && init.doc) sym.doc = init.doc;
      if (!sym.valueType && init.valueType) sym.valueType = init.valueType;
      for (const hint of init.typeHints ?? []) this.addHint(existing, hint);
      for (const decorator of init.decorators ?? []) (sym.decorators ??= []).push(decorator);
      for (const supertype of init.supertypes ?? []) (sym.supertypes ??= []).push(supertype);
      if (init.overrides) sym.overrides = true;
      return existing;
    }
    const index = this.defs.length;
    const sym: SymbolBuilder = {
      name: init.name,
      kind: init.kind,
      scope: init.scope,
      startLine: init.startLine,
      endLine: init.endLine,
      signature: init.signature ?? '',
      doc: init.doc ?? '',
      isTest: this.isTest,
      parent: init.parent,
      exported: init.exported,
    };
    if (init.supertypes && init.supertypes.length > 0) sym.supertypes = init.supertypes;
    if (init.decorators && init.decorators.length > 0) sym.decorators = init.decorators;
    if (init.valueType) sym.valueType = init.valueType;
    if (init.overrides) sym.overrides = true;
    this.defs.push(sym);
    this.meta.push({
      path: [...init.scope, init.name],
      inheritsExport: options.inheritsExport,
      isPrivate: options.isPrivate ?? false,
    });
    this.symbolByKey.set(key, index);
    if (init.parent === -1 && init.scope.length === 0 && !this.topLevel.has(init.name)) this.topLevel.set(init.name, index);
    for (const hint of init.typeHints ?? []) this.addHint(index, hint);
    return index;
  }

  addHint(index: number, hint: NameRef): void {
    const meta = this.meta[index]!;
    const key = hint.qualifier.length === 0 ? hint.name : `${hint.qualifier.join('.')}.${hint.name}`;
    const keys = (meta.hintKeys ??= new Set());
    if (keys.has(key)) return;
    keys.add(key);
    (this.defs[index]!.typeHints ??= []).push(hint);
  }

  /**
   * A capitalised file-level function may be an ES5 constructor (`function Store() { this.items = [] }`
   * plus `Store.prototype.add = …`). Its `this.x` assignments are held back until a prototype
   * assignment confirms it; then it becomes a class with those fields.
   */
  constructorCandidate(name: string, index: number, f: Frame): ClassInfo | undefined {
    if (f.def !== -1 || !f.moduleLevel) return undefined;
    const first = name.charCodeAt(0);
    if (first < 65 || first > 90) return undefined;
    const cls: ClassInfo = { name, index, declared: new Set(), ctorIndex: index, pending: [] };
    this.constructorFunctions.set(index, cls);
    return cls;
  }

  /** Record that the file-level function or class `owner` extends `base`. */
  addInheritance(owner: string, base: NameRef): void {
    const index = this.topLevel.get(owner);
    if (index === undefined) return;
    const sym = this.defs[index]!;
    if (sym.kind !== 'function' && sym.kind !== 'class') return;
    (sym.supertypes ??= []).push({ ...base, relation: 'extends' });
    this.prototypeOwners.add(index);
  }

  addField(cls: ClassInfo, field: PendingField): void {
    this.add(
      {
        name: field.name,
        kind: 'field',
        scope: this.meta[cls.index]!.path,
        startLine: field.startLine,
        endLine: field.endLine,
        signature: field.signature,
        parent: cls.index,
        exported: false,
        valueType: field.valueType,
      },
      { inheritsExport: true, isPrivate: field.name.startsWith('#') },
    );
  }

  /** ES5 classes: a function that received prototype members is a class, with its constructor's fields. */
  promoteConstructorFunctions(): void {
    for (const index of this.prototypeOwners) {
      const sym = this.defs[index]!;
      if (sym.kind !== 'function') continue;
      sym.kind = 'class';
      const cls = this.constructorFunctions.get(index);
      for (const field of cls?.pending ?? []) this.addField({ ...cls!, pending: undefined }, field);
    }
  }

  /** Members take their container's visibility; a module's declarations need it exported too. */
  inheritExports(): void {
    for (let i = 0; i < this.defs.length; i++) {
      const sym = this.defs[i]!;
      const meta = this.meta[i]!;
      if (sym.parent < 0) continue;
      const parent = this.defs[sym.parent]!;
      if (meta.inheritsExport && MEMBER_KINDS.has(sym.kind)) sym.exported = parent.exported && !meta.isPrivate;
      else if (meta.inheritsExport) sym.exported = parent.exported;
      else if (parent.kind === 'module') sym.exported &&= parent.exported;
    }
  }

  frozen(): SymbolDef[] {
    return this.defs.map(freezeSymbol);
  }
}

function freezeSymbol(sym: SymbolBuilder): SymbolDef {
  const out: { -readonly [K in keyof SymbolDef]: SymbolDef[K] } = {
    name: sym.name,
    kind: sym.kind,
    scope: sym.scope,
    startLine: sym.startLine,
    endLine: sym.endLine,
    signature: sym.signature,
    doc: sym.doc,
    isTest: sym.isTest,
    parent: sym.parent,
    exported: sym.exported,
  };
  if (sym.supertypes && sym.supertypes.length > 0) out.supertypes = sym.supertypes;
  if (sym.decorators && sym.decorators.length > 0) out.decorators = sym.decorators;
  if (sym.typeHints && sym.typeHints.length > 0) out.typeHints = sym.typeHints;
  if (sym.valueType) out.valueType = sym.valueType;
  if (sym.overrides) out.overrides = true;
  return out;
}
