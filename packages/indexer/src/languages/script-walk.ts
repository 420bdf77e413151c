/**
 * What the parts of the TypeScript/JavaScript extractor share while one file is walked: the
 * lexical frames, how a declaration was introduced, where its symbol sits, and
 * {@link ScriptWalk}, the handle every handler module (`script-classes.ts`,
 * `script-variables.ts`, …) is given. Handlers recurse through `ScriptWalk.visit`, so they need
 * not import each other's dispatch. Not part of the language-module contract.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolBuilder } from './common.js';
import type { ModuleTable } from './script-modules.js';
import type { ReferenceTable } from './script-references.js';
import type { SymbolTable } from './script-symbols.js';
import type { FieldName, ScriptSyntax } from './script-syntax.js';
import type { ScriptTypes } from './script-types.js';
import type { NameRef } from './types.js';

export interface ClassInfo {
  readonly name: string;
  /** Index of the class, or of an ES5 constructor function. */
  readonly index: number;
  /** Member names already declared (fields, parameter properties, methods). */
  readonly declared: Set<string>;
  /** The constructor, whose `this.x = …` assignments declare fields; -1 until met. */
  ctorIndex: number;
  /** ES5 constructor functions: their fields wait until a prototype assignment shows the function is a class. */
  readonly pending?: PendingField[];
}

export interface PendingField {
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly signature: string;
  readonly valueType: NameRef | undefined;
}

/** One lexical level of the walk. */
export interface Frame {
  /** Index of the innermost enclosing definition, -1 at file level. */
  readonly def: number;
  /** What `this` stands for here, when known. */
  readonly thisType: NameRef | undefined;
  readonly cls: ClassInfo | undefined;
  readonly parent: Frame | undefined;
  /** Declarations directly in this frame are module-level symbols (program, namespace bodies). */
  readonly moduleLevel: boolean;
  /** Inside `declare …` or a `.d.ts`: declarations are visible without `export`. */
  readonly ambient: boolean;
  /** Local names → declared/constructed type (null when unknown), for receivers and shadowing. */
  locals: Map<string, NameRef | null> | undefined;
  typeParams: Set<string> | undefined;
}

/** How a declaration was introduced. */
export interface DeclContext {
  readonly exported: boolean;
  readonly isDefault: boolean;
  /** The outermost node of the statement (an `export_statement`, say): doc, start line and signature start. */
  readonly outer: Node;
  readonly decorators: readonly Node[];
}

/** The tables of one file's extraction and the walk over it. */
export interface ScriptWalk {
  readonly syntax: ScriptSyntax;
  readonly types: ScriptTypes;
  readonly symbols: SymbolTable;
  readonly references: ReferenceTable;
  readonly modules: ModuleTable;
  visit(node: Node, f: Frame): void;
  visitChildren(node: Node, f: Frame): void;
  visitField(node: Node, field: FieldName, f: Frame): void;
  /**
   * Walk a function-like node (declaration, expression, arrow, method) in `frame`: parameters,
   * then the body. Hints from the parameter and return annotations go to `hints` when given.
   * Returns the parameter properties of a constructor (`constructor(private s: Store)`).
   */
  visitFunction(node: Node, frame: Frame, hints: NameRef[] | undefined, own?: ReadonlySet<string>): Node[];
  /** Type syntax outside a declaration's signature: casts, generic arguments, local annotations. */
  typeReferences(node: Node, f: Frame): void;
}

/** A symbol's fields but its name and kind (and what only some symbols have). */
export type SymbolPlace = Pick<SymbolBuilder, 'scope' | 'startLine' | 'endLine' | 'signature' | 'doc' | 'parent' | 'exported'>;

/** The frame of definition `def` inside `f`; `own` are the type parameters it declares. */
export function childFrame(f: Frame, def: number, thisType: NameRef | undefined, cls: ClassInfo | undefined, own?: ReadonlySet<string>): Frame {
  return { def, thisType, cls, parent: f, moduleLevel: false, ambient: f.ambient, locals: undefined, typeParams: own ? new Set(own) : undefined };
}

/**
 * Where the symbol of a declaration statement sits: in `f`, from the statement's first line
 * (decorators and `export` included) to the end of `node`, with the doc above the statement,
 * exported when the statement exports it at module level. The signature is the caller's.
 */
export function declarationPlace(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext, signature: string): SymbolPlace {
  return {
    scope: walk.symbols.scopeOf(f),
    startLine: walk.syntax.startLineOf(ctx),
    endLine: node.endPosition.row + 1,
    signature,
    doc: walk.syntax.docFor(ctx.outer),
    parent: f.def,
    exported: ctx.exported && f.moduleLevel,
  };
}

/**
 * Where the symbol of a node standing on its own lines sits (an object or interface member, an
 * enum constant, a property a statement assigns): on exactly those lines, with the doc above them.
 */
export function nodePlace(walk: ScriptWalk, node: Node, scope: readonly string[], parent: number, exported: boolean, signature: string): SymbolPlace {
  return {
    scope,
    startLine: node.startPosition.row + 1,
    endLine: node.endPosition.row + 1,
    signature,
    doc: walk.syntax.docFor(node),
    parent,
    exported,
  };
}

/**
 * Walk the function-like `node` that defines symbol `index`, in its frame: the annotations of
 * its parameters and return type become the symbol's type hints. Returns the parameter
 * properties of a constructor.
 */
export function visitDefinition(walk: ScriptWalk, node: Node, frame: Frame, index: number, own: ReadonlySet<string> | undefined): Node[] {
  const hints: NameRef[] = [];
  const properties = walk.visitFunction(node, frame, hints, own);
  for (const hint of hints) walk.symbols.addHint(index, hint);
  return properties;
}

/** A callback or other unnamed function: same edge source; arrows keep `this`, functions lose it. */
export function anonymousFrame(node: Node, f: Frame): Frame {
  const keepsThis = node.type === 'arrow_function';
  return childFrame(f, f.def, keepsThis ? f.thisType : undefined, f.cls);
}

export function declareLocal(f: Frame, name: string, type: NameRef | null): void {
  (f.locals ??= new Map()).set(name, type);
}

/** The nearest declaration of `name`: its type (or null) and whether it is module-level. */
export function lookupLocal(name: string, f: Frame): { type: NameRef | null; moduleLevel: boolean } | undefined {
  for (let frame: Frame | undefined = f; frame; frame = frame.parent) {
    const hit = frame.locals?.get(name);
    if (hit !== undefined) return { type: hit, moduleLevel: frame.moduleLevel && frame.def === -1 };
  }
  return undefined;
}

export function isTypeParameter(name: string, f: Frame, own: ReadonlySet<string> | undefined): boolean {
  if (own?.has(name)) return true;
  for (let frame: Frame | undefined = f; frame; frame = frame.parent) if (frame.typeParams?.has(name)) return true;
  return false;
}
