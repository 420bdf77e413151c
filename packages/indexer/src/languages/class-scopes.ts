/**
 * The part of the C# and Java extractors that does not depend on their grammars: the stacks of
 * enclosing types and variable frames, what a name or a simple expression refers to, and the
 * output tables. Each language subclass walks its own tree and describes its grammar in a
 * {@link ClassGrammar}. Not part of the language-module contract.
 */
import type { LanguageId, NodeKind } from '@knowing/graph';
import type { Node } from 'web-tree-sitter';
import { countSyntaxErrors } from './common.js';
import type { CommentScan, MutableSymbol } from './common.js';
import { addDeclaration, addReference, declarationSignature, lineEnd, lookupBinding, memberBindingType, named, refKey } from './extractor-helpers.js';
import type { DeclarationOptions } from './extractor-helpers.js';
import type { FileExtraction, ImportDecl, NameRef, Reference, ReferenceKind } from './types.js';

/** What the shared logic needs to know of a grammar and of its language's standard library. */
export interface ClassGrammar {
  /** Library types: never defined in a repository, so a use of one would be an edge to nowhere. */
  readonly builtinTypes: ReadonlySet<string>;
  /** Library exceptions: throwing one says little about the code and would make a hub node. */
  readonly builtinExceptions: ReadonlySet<string>;
  /** Generic containers: a use names what they contain, not them. */
  readonly containers: ReadonlySet<string>;
  /** `a.b`: its node type and the fields holding `a` and `b`. */
  readonly memberAccess: { readonly type: string; readonly object: string; readonly member: string };
  /** Nodes a chain of names (`this.a.b`) can start with. */
  readonly chainRoots: ReadonlySet<string>;
  /** Node types a member of a chain may have; unset when any member continues it. */
  readonly chainMembers?: ReadonlySet<string>;
  /** What names the superclass inside a type: `super` (Java), `base` (C#). */
  readonly superName: string;
  /** Keyword types (`int`, `string`): a chain starting with one is library code. */
  readonly keywordType?: string;
  /** The node holding a generic type's arguments (`<A, B>`). */
  readonly typeArgumentList: string;
  /** Type nodes the walk meets outside signatures (array creation, class literals, generic arguments): type uses. */
  readonly typeNodes: ReadonlySet<string>;
  /** Nodes whose identifiers name something (a label, an argument's parameter) rather than use it: only their other children are walked. */
  readonly namingNodes: ReadonlySet<string>;
  /** Leaves with nothing to extract: the walk stops there without asking for their children. */
  readonly leaves: ReadonlySet<string>;
  /** The class a type node names, or undefined when it names none. */
  readonly typeRef: (node: Node | null | undefined) => NameRef | undefined;
}

/** A variable visible in a frame; `owner` is set for fields and properties (the type that declares them). */
export interface Binding {
  readonly type: NameRef | undefined;
  readonly owner: NameRef | undefined;
  /** A C# local function, callable before its declaration. */
  readonly localFunction?: boolean;
  /** Declared with a library type (`String`, `Guid`): nothing called on it is repository code. */
  readonly builtin?: boolean;
}

/** The class-like symbol being walked, for `this`, `super`/`base` and bare calls. */
export interface TypeContext {
  readonly ref: NameRef;
  /** What `super` (Java) or `base` (C#) names. */
  readonly superclass: NameRef | undefined;
  readonly isInterface: boolean;
}

/** What the modifiers and annotations (Java) or attributes (C#) of a declaration say. */
export interface Modifiers {
  readonly keywords: ReadonlySet<string>;
  readonly decorators: NameRef[];
  /** Annotation or attribute arguments, walked inside the annotated symbol (they may name constants). */
  readonly annotationArgs: readonly Node[];
  /** Marked as a test method. */
  readonly isTest: boolean;
  /** Where the declaration starts after its annotations, so that signatures leave them out. */
  readonly declarationStart: number | undefined;
}

/** Comments recorded by the line they end on, to find the doc comment of a declaration. */
export interface PendingComment {
  readonly startIndex: number;
  readonly endIndex: number;
}

const ALL_CAPS = /^[A-Z][A-Z0-9_]*$/;

/** Symbols whose body declares members (a Java enum constant with a body is an anonymous class). */
function declaresMembers(kind: NodeKind | undefined): boolean {
  return kind === 'class' || kind === 'struct' || kind === 'interface' || kind === 'enum' || kind === 'constant';
}

export abstract class ClassScopeExtractor {
  readonly symbols: MutableSymbol[] = [];
  readonly references: Reference[] = [];
  readonly imports: ImportDecl[] = [];
  namespace = '';

  private readonly seen = new Set<string>();
  /** Symbols by parent, scope, name and kind: overloads merge, so one qualified name stays one symbol. */
  readonly symbolKeys = new Map<string, number>();
  protected readonly comments = new Map<number, PendingComment>();
  /** Innermost enclosing symbol: the source of references. */
  from = -1;
  scope: string[] = [];
  protected readonly types: TypeContext[] = [];
  protected readonly frames: Map<string, Binding>[] = [];
  protected readonly typeParams: Set<string>[] = [];

  constructor(
    private readonly grammar: ClassGrammar,
    protected readonly source: string,
    protected readonly fileIsTest: boolean,
    /** The file's comments, cut out of signatures. */
    private readonly commentScan: CommentScan,
  ) {}

  /** Walks one node: each language switches on the kinds it has, and hands the rest to {@link visitCommon}. */
  abstract visit(node: Node): void;

  abstract docBefore(startRow: number): string;

  protected abstract modifiers(node: Node): Modifiers;

  /** `new T(...)` (`kind` 'new') or the `new T(...)` of a `throw` (`kind` 'raise'). */
  protected abstract objectCreation(node: Node, kind: 'new' | 'raise'): void;

  /** Class names inside a type; containers only contribute their arguments when `unwrapContainers`. */
  protected abstract collectTypeNames(node: Node, out: NameRef[], unwrapContainers: boolean): void;

  /** Binds the fields (and C# properties) of a type body in `frame`, the frame of its type. */
  protected abstract collectMembers(body: Node, frame: Map<string, Binding> | undefined): void;

  /** The names a type parameter list declares. */
  protected abstract typeParameterNames(node: Node | null | undefined): Set<string>;

  /** False for names no repository defines: library types, type parameters, `var`. */
  protected abstract isInterestingType(ref: NameRef): boolean;

  protected visitChildren(node: Node): void {
    for (const child of named(node)) this.visit(child);
  }

  protected visitOptional(node: Node | null): void {
    if (node) this.visit(node);
  }

  /** The node kinds C# and Java walk alike; `nodeType` is `node.type`, read once by {@link visit}. */
  protected visitCommon(node: Node, nodeType: string): void {
    switch (nodeType) {
      case 'object_creation_expression':
        this.objectCreation(node, 'new');
        return;
      case 'throw_statement':
        this.throwing(node);
        return;
      case 'identifier':
        this.bareIdentifier(node);
        return;
      case 'cast_expression':
        this.typeUse(node.childForFieldName('type'));
        this.visitOptional(node.childForFieldName('value'));
        return;
      default:
        if (this.grammar.typeNodes.has(nodeType)) this.typeUse(node);
        else if (this.grammar.namingNodes.has(nodeType)) {
          for (const child of named(node)) if (child.type !== 'identifier') this.visit(child);
        } else if (!this.grammar.leaves.has(nodeType)) this.visitChildren(node);
    }
  }

  /** Walks the file and returns what it declares, uses and imports. */
  extractFile(root: Node, path: string, language: LanguageId): FileExtraction {
    this.visit(root);
    this.finish();
    return {
      path,
      language,
      symbols: this.symbols,
      references: this.references,
      imports: this.imports,
      namespace: this.namespace,
      syntaxErrors: countSyntaxErrors(root),
    };
  }

  /** Settles what only the whole file tells (C#: which namespace is the file's). */
  protected finish(): void {}

  /** `throw new E(...)`: a `raise` of E; any other thrown expression is walked. */
  protected throwing(node: Node): void {
    const thrown = node.namedChild(0);
    if (thrown?.type === 'object_creation_expression') this.objectCreation(thrown, 'raise');
    else if (thrown) this.visit(thrown);
  }

  /** `Foo f` in a pattern, a loop or a catch: Foo is used and f bound to it. */
  protected typedName(type: Node | null, name: Node | null | undefined): void {
    this.typeUse(type);
    if (name) this.bind(name.text, this.grammar.typeRef(type));
  }

  // ---- scopes ---------------------------------------------------------------------------

  /** A class-like symbol: a member whose frame holds its fields, and the target of `this` inside. */
  protected enterType(index: number, name: string, superclass: NameRef | undefined, isInterface: boolean, walk: () => void): void {
    this.types.push({ ref: { name, qualifier: this.scope }, superclass, isInterface });
    try {
      this.enterMember(index, name, walk);
    } finally {
      this.types.pop();
    }
  }

  protected enterMember(index: number, name: string, walk: () => void): void {
    const saved = { from: this.from, scope: this.scope };
    this.frames.push(new Map());
    this.from = index;
    this.scope = [...this.scope, name];
    try {
      walk();
    } finally {
      this.frames.pop();
      this.from = saved.from;
      this.scope = saved.scope;
    }
  }

  protected bind(name: string, type: NameRef | undefined): void {
    const frame = this.frames[this.frames.length - 1];
    if (!frame) return;
    const builtin = type !== undefined && type.qualifier.length === 0 && this.grammar.builtinTypes.has(type.name);
    frame.set(name, { type: type && this.isInterestingType(type) ? type : undefined, owner: undefined, ...(builtin ? { builtin } : {}) });
  }

  protected lookup(name: string): Binding | undefined {
    return lookupBinding(this.frames, name);
  }

  protected memberTypeOfThis(member: string | undefined): NameRef | undefined {
    return memberBindingType(this.frames, member);
  }

  protected currentTypeRef(): NameRef | undefined {
    return this.types[this.types.length - 1]?.ref;
  }

  /** Inside a method, a field or another member rather than directly in a type body: local types are not exported. */
  protected inMember(): boolean {
    return this.from >= 0 && !declaresMembers(this.symbols[this.from]?.kind);
  }

  // ---- declarations ---------------------------------------------------------------------

  /**
   * A declaration `declare`d by its name with its type parameters in scope; one with no name (a
   * parse error) only has its parts walked.
   */
  protected namedDeclaration(node: Node, typeParameters: Node | null | undefined, declare: (name: string) => void): void {
    const name = node.childForFieldName('name');
    if (!name) {
      this.visitChildren(node);
      return;
    }
    this.typeParams.push(this.typeParameterNames(typeParameters));
    declare(name.text);
    this.typeParams.pop();
  }

  /** A member symbol; its annotation arguments, then what `walk` visits, count as its uses. */
  protected declareMember(node: Node, name: string, kind: NodeKind, modifiers: Modifiers, options: DeclarationOptions, walk?: () => void): number {
    const index = this.addSymbol(node, name, kind, options);
    this.enterMember(index, name, () => {
      for (const arg of modifiers.annotationArgs) this.visit(arg);
      walk?.();
    });
    return index;
  }

  /** One declarator of a field declaration: a field or constant whose initializer `walk` visits. */
  protected declareField(node: Node, name: string, kind: NodeKind, exported: boolean, modifiers: Modifiers, type: { readonly hints: NameRef[]; readonly value: NameRef | undefined }, walk: () => void): void {
    this.declareMember(node, name, kind, modifiers, {
      exported,
      isTest: this.fileIsTest,
      decorators: modifiers.decorators,
      typeHints: type.hints,
      valueType: type.value,
      signatureStart: modifiers.declarationStart,
      signatureEnd: this.lineEnd(modifiers.declarationStart ?? node.startIndex, node.endIndex),
    }, walk);
  }

  /** A type's body, walked inside the type: its fields are bound first, since a method may use one declared below it. */
  protected typeBody(body: Node): void {
    this.collectMembers(body, this.frames[this.frames.length - 1]);
    this.visitChildren(body);
  }

  /** A positional record parameter (`record Point(int X)`): a `kind` member of the record, which has the record's doc. */
  protected declareRecordComponent(node: Node, name: string, kind: NodeKind, type: Node | null, exported: boolean): void {
    this.addSymbol(node, name, kind, {
      exported,
      isTest: this.fileIsTest,
      noDoc: true,
      typeHints: this.typeHints([type]),
      valueType: this.declaredType(type),
    });
  }

  /** An enum member: a public constant of the enum's type, with `values` (its arguments or value) walked inside it. */
  protected declareEnumMember(node: Node, name: string, values: readonly (Node | null)[], signatureEnd?: number): number {
    const modifiers = this.modifiers(node);
    const enclosing = this.types[this.types.length - 1];
    return this.declareMember(node, name, 'constant', modifiers, {
      exported: true,
      isTest: this.fileIsTest,
      decorators: modifiers.decorators,
      valueType: enclosing?.ref,
      signatureEnd,
    }, () => {
      for (const value of values) this.visitOptional(value);
    });
  }

  /** Where a declaration starts after annotations ending at `end`: the first character that is no white space. */
  protected startAfter(end: number, node: Node): number {
    let start = end;
    while (start < node.endIndex && /\s/.test(this.source[start] ?? '')) start++;
    return start;
  }

  // ---- uses -----------------------------------------------------------------------------

  /** `a.b.c` / `this.x` as segments; undefined when the node is any other expression. */
  protected chainSegments(node: Node): string[] | undefined {
    const nodeType = node.type;
    if (this.grammar.chainRoots.has(nodeType)) return [node.text];
    const access = this.grammar.memberAccess;
    if (nodeType !== access.type) return undefined;
    const object = node.childForFieldName(access.object);
    const member = node.childForFieldName(access.member);
    if (!object || !member) return undefined;
    if (this.grammar.chainMembers && !this.grammar.chainMembers.has(member.type)) return undefined;
    const head = this.chainSegments(object);
    return head ? [...head, member.text] : undefined;
  }

  /**
   * A use `<object>.name` (call or field): the qualifier is the object as written when it is a
   * chain of names, and the receiver type is known for `this`, the superclass, declared
   * variables and simple expressions (`new Foo().m()`, `((Foo) x).m()`).
   */
  protected qualifiedUse(kind: ReferenceKind, name: string, object: Node, at: Node, chain = this.chainSegments(object)): void {
    if (!chain) {
      // Any other expression: `?` stands for a receiver that has no name.
      this.addRef(kind, name, ['?'], this.expressionType(object), at);
      return;
    }
    const root = chain[0] ?? '';
    if (root === 'this') {
      this.addRef(kind, name, chain, chain.length === 1 ? this.currentTypeRef() : this.memberTypeOfThis(chain[1]), at);
      return;
    }
    if (root === this.grammar.superName) {
      this.addRef(kind, name, chain, chain.length === 1 ? this.types[this.types.length - 1]?.superclass : undefined, at);
      return;
    }
    if (chain.length >= 2 && chain[chain.length - 1] === 'this') {
      // Java's `Outer.this.m()`
      this.addRef(kind, name, chain, { name: chain[chain.length - 2] ?? '', qualifier: chain.slice(0, -2) }, at);
      return;
    }
    const binding = this.lookup(root);
    if (binding) {
      if (!binding.builtin) this.addRef(kind, name, chain, chain.length === 1 ? binding.type : undefined, at);
      return;
    }
    if (this.grammar.builtinTypes.has(root) || (object.type === this.grammar.keywordType && /^[a-z]+$/.test(root))) return;
    this.addRef(kind === 'field' && /^[A-Z]/.test(root) ? 'value' : kind, name, chain, undefined, at);
  }

  /** `super(...)`/`base(...)` (`toSuper`) or `this(...)` in a constructor: a call of that constructor. */
  protected constructorCall(toSuper: boolean, at: Node): void {
    const context = this.types[this.types.length - 1];
    if (toSuper && context?.superclass) this.addRef('call', context.superclass.name, [this.grammar.superName], context.superclass, at);
    else if (!toSuper && context) this.addRef('call', context.ref.name, ['this'], context.ref, at);
  }

  protected bareIdentifier(node: Node): void {
    const name = node.text;
    const binding = this.lookup(name);
    if (binding) {
      if (binding.owner) this.addRef('field', name, [], binding.owner, node);
      return;
    }
    if (ALL_CAPS.test(name) && name.length > 1) this.addRef('value', name, [], undefined, node);
  }

  /** `new T(...)`: a `kind` use of T unless T is a library container or exception; returns T. */
  protected constructionUse(typeNode: Node | null, kind: 'new' | 'raise', at: Node): NameRef | undefined {
    const type = this.grammar.typeRef(typeNode);
    const library = type !== undefined && type.qualifier.length === 0 && (this.grammar.containers.has(type.name) || this.grammar.builtinExceptions.has(type.name));
    if (type && this.isInterestingType(type) && !library) this.addRef(kind, type.name, type.qualifier, undefined, at);
    return type;
  }

  /** Type names used in an expression or a local declaration: `type` references. */
  protected typeUse(node: Node | null, kind: ReferenceKind = 'type'): void {
    if (!node) return;
    const names: NameRef[] = [];
    this.collectTypeNames(node, names, true);
    for (const ref of names) {
      if (ref.qualifier.length === 0 && this.grammar.builtinExceptions.has(ref.name)) continue;
      this.addRef(kind, ref.name, ref.qualifier, undefined, node);
    }
  }

  // ---- types ----------------------------------------------------------------------------

  /** The type arguments of a generic type node (`Map<K, V>` → K, V). */
  protected typeArguments(node: Node): Node[] {
    const args: Node[] = [];
    for (const child of named(node)) if (child.type === this.grammar.typeArgumentList) args.push(...named(child));
    return args;
  }

  protected typeHints(nodes: readonly (Node | null)[]): NameRef[] {
    const out: NameRef[] = [];
    for (const node of nodes) if (node) this.collectTypeNames(node, out, true);
    return out;
  }

  /** The declared type of a field or variable; undefined when no repository defines it. */
  protected declaredType(node: Node | null | undefined): NameRef | undefined {
    const ref = this.grammar.typeRef(node);
    return ref && this.isInterestingType(ref) ? ref : undefined;
  }

  /** Static type of a simple expression, for receivers and `var x = ...`; languages add their own cases. */
  protected expressionType(node: Node | null | undefined): NameRef | undefined {
    if (!node) return undefined;
    const access = this.grammar.memberAccess;
    switch (node.type) {
      case 'cast_expression':
        return this.declaredType(node.childForFieldName('type'));
      case 'parenthesized_expression':
        return this.expressionType(node.namedChild(0));
      case 'identifier':
        return this.lookup(node.text)?.type;
      case 'this':
        return this.currentTypeRef();
      case access.type: {
        const object = node.childForFieldName(access.object);
        const member = node.childForFieldName(access.member);
        if (object?.type === 'this' && member) return this.memberTypeOfThis(member.text);
        return undefined;
      }
      default:
        return undefined;
    }
  }

  // ---- output ---------------------------------------------------------------------------

  protected addRef(kind: ReferenceKind, name: string, qualifier: readonly string[], receiverType: NameRef | undefined, at: Node): void {
    addReference(this.references, this.seen, refKey(this.from, kind, name, qualifier, receiverType), this.from, kind, name, qualifier, receiverType, at);
  }

  /** `addDeclaration` reads `symbols`, `symbolKeys`, `from`, `scope`, `signature` and `docBefore`: those are not private. */
  protected addSymbol(node: Node, name: string, kind: NodeKind, options: DeclarationOptions): number {
    return addDeclaration(this, node, name, kind, options);
  }

  protected lineEnd(start: number, limit: number): number {
    return lineEnd(this.source, start, limit);
  }

  signature(start: number, end: number): string {
    return declarationSignature(this.source, start, end, true, this.commentScan);
  }
}
