/**
 * Java support: one pass over a tree-sitter-java tree produces the file's definitions, the
 * names it uses and its imports (see `./types.ts` for the contract).
 *
 * Qualified names are `<path>.<scope...>.<name>` where the scope is the chain of enclosing
 * symbols: types, and for local/anonymous classes also the enclosing method (or field, or enum
 * constant). The package goes to `namespace`, never into the scope.
 * Anonymous classes (`new Foo() { ... }`) are named `anon$Foo` in the scope of the member that
 * creates them (`UserService.find.anon$Runnable.run`); a second one of the same supertype in
 * the same member is `anon$Runnable$2`, and so on. Bodies of enum constants are scoped under the
 * constant (`Op.PLUS.apply`).
 */
import type { NodeKind } from '@knowing/graph';
import type { Node } from 'web-tree-sitter';
import { basename, C_COMMENT_OPENERS, MAX_DOC_CHARS, truncate } from './common.js';
import { ClassScopeExtractor } from './class-scopes.js';
import type { Binding, ClassGrammar, Modifiers } from './class-scopes.js';
import { kids, named, pathRef, pushUnique } from './extractor-helpers.js';
import type { FileExtraction, ImportDecl, LanguageModule, NameRef, ProjectLayout, ResolvedImport, SupertypeRef } from './types.js';

/**
 * java.lang types and boxed primitives: never defined in a repository, so naming them as type
 * hints or call qualifiers would only produce edges to nowhere (or to a same-named repo class).
 */
const JAVA_BUILTIN_TYPES = new Set([
  'String', 'Object', 'Integer', 'Long', 'Short', 'Byte', 'Character', 'Boolean', 'Double', 'Float',
  'Number', 'Void', 'Class', 'CharSequence', 'StringBuilder', 'StringBuffer', 'Math', 'StrictMath',
  'System', 'Thread', 'Iterable', 'Comparable', 'Runnable', 'Enum', 'Record', 'Override',
  'SuppressWarnings', 'Deprecated', 'FunctionalInterface', 'SafeVarargs', 'Objects', 'Arrays',
  'Collections',
]);

/** java.lang exceptions: throwing one says little about the code and would make a hub node. */
const JAVA_BUILTIN_EXCEPTIONS = new Set([
  'Throwable', 'Exception', 'Error', 'RuntimeException', 'IllegalArgumentException', 'IllegalStateException',
  'NullPointerException', 'UnsupportedOperationException', 'IndexOutOfBoundsException',
  'ArrayIndexOutOfBoundsException', 'StringIndexOutOfBoundsException', 'ClassCastException',
  'ArithmeticException', 'NumberFormatException', 'InterruptedException', 'CloneNotSupportedException',
  'SecurityException', 'AssertionError', 'ReflectiveOperationException', 'ClassNotFoundException',
]);

/** JDK generic containers: a type hint names what they contain (`List<User>` → `User`), not them. */
const JAVA_CONTAINERS = new Set([
  'List', 'ArrayList', 'LinkedList', 'Map', 'HashMap', 'LinkedHashMap', 'TreeMap', 'SortedMap',
  'ConcurrentMap', 'ConcurrentHashMap', 'Set', 'HashSet', 'LinkedHashSet', 'TreeSet', 'SortedSet',
  'Collection', 'Optional', 'Stream', 'Iterator', 'Supplier', 'Function', 'BiFunction', 'Consumer',
  'BiConsumer', 'Predicate', 'BiPredicate', 'Callable', 'Future', 'CompletableFuture',
  'CompletionStage', 'Queue', 'Deque', 'BlockingQueue', 'AtomicReference', 'ThreadLocal',
  'WeakReference', 'SoftReference', 'Entry',
]);

/** Annotations that mark a JUnit/TestNG test method. */
const TEST_ANNOTATIONS = new Set(['Test', 'ParameterizedTest', 'RepeatedTest', 'TestFactory', 'TestTemplate']);

/** Annotations kept out of `decorators`: `@Override` becomes `overrides`, the rest is compiler noise. */
const NON_DECORATOR_ANNOTATIONS = new Set(['Override', 'SuppressWarnings']);

const PRIMITIVE_TYPE_NODES = new Set(['integral_type', 'floating_point_type', 'boolean_type', 'void_type']);

const TYPE_DECLARATIONS: Readonly<Record<string, NodeKind>> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'class',
  annotation_type_declaration: 'interface',
};

/** A file is a test file under `src/test/`, a `test`/`tests` directory, or named `*Test(s).java` / `*IT.java`. */
function isJavaTestFile(path: string): boolean {
  const segments = path.split('/');
  const base = segments[segments.length - 1] ?? '';
  if (/(Tests?|IT|TestCase)\.java$/.test(base)) return true;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i];
    if (segment === 'test' || segment === 'tests') return true;
  }
  return false;
}

function fieldChildren(node: Node, field: string): readonly Node[] {
  return node.childrenForFieldName(field) as readonly Node[];
}

/** `/** ... *\/` → the text with the markers and leading asterisks removed. */
function stripJavadoc(raw: string): string {
  const body = raw.replace(/^\/\*\*+/, '').replace(/\*+\/$/, '');
  const lines: string[] = [];
  for (const line of body.split('\n')) {
    const cleaned = line.replace(/^\s*\*(?!\/) ?/, '').trimEnd();
    lines.push(cleaned.trim() === '' ? '' : cleaned.trim());
  }
  return truncate(lines.join('\n').replace(/\n{3,}/g, '\n\n').trim(), MAX_DOC_CHARS);
}

/** Dotted name of an `identifier` / `scoped_identifier` (package and import paths). */
function dottedName(node: Node): string {
  if (node.type === 'scoped_identifier') {
    const scope = node.childForFieldName('scope');
    const name = node.childForFieldName('name');
    return (scope ? `${dottedName(scope)}.` : '') + (name?.text ?? '');
  }
  return node.text;
}

/** Segments of a `scoped_type_identifier` (`java.util.Map.Entry`). */
function scopedTypeSegments(node: Node, out: string[]): void {
  for (const child of named(node)) {
    if (child.type === 'scoped_type_identifier') scopedTypeSegments(child, out);
    else if (child.type === 'type_identifier') out.push(child.text);
  }
}

/** The class a type node names, generics and arrays stripped; undefined for primitives and `var`. */
function typeRef(node: Node | null | undefined): NameRef | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case 'type_identifier': {
      const name = node.text;
      return name === 'var' ? undefined : { name, qualifier: [] };
    }
    case 'scoped_type_identifier': {
      const segments: string[] = [];
      scopedTypeSegments(node, segments);
      return pathRef(segments);
    }
    case 'generic_type':
      return typeRef(node.namedChild(0));
    case 'array_type':
      return typeRef(node.childForFieldName('element'));
    case 'annotated_type':
      return typeRef(node.namedChild(node.namedChildCount - 1));
    case 'identifier':
      return { name: node.text, qualifier: [] };
    case 'scoped_identifier':
      return pathRef(dottedName(node).split('.'));
    default:
      return undefined;
  }
}

const JAVA_GRAMMAR: ClassGrammar = {
  builtinTypes: JAVA_BUILTIN_TYPES,
  builtinExceptions: JAVA_BUILTIN_EXCEPTIONS,
  containers: JAVA_CONTAINERS,
  memberAccess: { type: 'field_access', object: 'object', member: 'field' },
  chainRoots: new Set(['identifier', 'this', 'super']),
  superName: 'super',
  typeArgumentList: 'type_arguments',
  typeNodes: new Set(['type_identifier', 'scoped_type_identifier', 'generic_type', 'array_type']),
  namingNodes: new Set(['labeled_statement', 'break_statement', 'continue_statement']),
  leaves: new Set([
    'decimal_integer_literal', 'hex_integer_literal', 'octal_integer_literal', 'binary_integer_literal',
    'decimal_floating_point_literal', 'hex_floating_point_literal', 'true', 'false', 'null_literal',
    'character_literal', 'string_literal', 'text_block', 'this', 'super', 'void_type', 'integral_type',
    'floating_point_type', 'boolean_type',
  ]),
  typeRef,
};

class JavaFileExtractor extends ClassScopeExtractor {
  private readonly anonCounters = new Map<string, number>();

  constructor(source: string, path: string, root: Node) {
    super(JAVA_GRAMMAR, source, isJavaTestFile(path), { root, openers: C_COMMENT_OPENERS });
  }

  // ---- walking --------------------------------------------------------------------------

  override visit(node: Node): void {
    // `type` crosses into WASM on every read: read it once.
    const nodeType = node.type;
    switch (nodeType) {
      case 'package_declaration': {
        const name = named(node).find((c) => c.type === 'scoped_identifier' || c.type === 'identifier');
        if (name) this.namespace = dottedName(name);
        return;
      }
      case 'import_declaration':
        this.importDeclaration(node);
        return;
      case 'block_comment':
        if (this.source.startsWith('/**', node.startIndex)) {
          this.comments.set(node.endPosition.row, { startIndex: node.startIndex, endIndex: node.endIndex });
        }
        return;
      case 'line_comment':
        return;
      case 'class_declaration':
      case 'interface_declaration':
      case 'enum_declaration':
      case 'record_declaration':
      case 'annotation_type_declaration':
        this.typeDeclaration(node, TYPE_DECLARATIONS[nodeType] ?? 'class');
        return;
      case 'method_declaration':
      case 'annotation_type_element_declaration':
        this.methodDeclaration(node, 'method');
        return;
      case 'constructor_declaration':
      case 'compact_constructor_declaration':
        this.methodDeclaration(node, 'constructor');
        return;
      case 'field_declaration':
      case 'constant_declaration':
        this.fieldDeclaration(node);
        return;
      case 'enum_constant':
        this.enumConstant(node);
        return;
      case 'local_variable_declaration':
        this.localVariables(node);
        return;
      case 'method_invocation':
        this.methodInvocation(node);
        return;
      case 'explicit_constructor_invocation':
        this.constructorInvocation(node);
        return;
      case 'method_reference':
        this.methodReference(node);
        return;
      case 'field_access':
        this.fieldAccess(node);
        return;
      case 'instanceof_expression':
        this.instanceofExpression(node);
        return;
      case 'type_pattern': {
        // `case Foo f ->` / `instanceof Foo f` in newer grammars.
        const name = node.namedChild(1);
        this.typedName(node.namedChild(0), name?.type === 'identifier' ? name : undefined);
        return;
      }
      case 'lambda_expression':
        this.lambda(node);
        return;
      case 'enhanced_for_statement':
        this.enhancedFor(node);
        return;
      case 'catch_formal_parameter':
        this.catchParameter(node);
        return;
      case 'resource':
        this.resource(node);
        return;
      case 'formal_parameter':
      case 'spread_parameter':
        this.parameter(node);
        return;
      case 'marker_annotation':
      case 'annotation':
        // Annotations on locals/parameters: their arguments may name constants.
        this.visitOptional(node.childForFieldName('arguments'));
        return;
      default:
        this.visitCommon(node, nodeType);
    }
  }

  // ---- walking: node kinds with more to do than one call -------------------------------

  private instanceofExpression(node: Node): void {
    this.visitOptional(node.childForFieldName('left'));
    const binding = node.childForFieldName('name');
    this.typedName(node.childForFieldName('right'), binding);
    if (!binding) {
      const pattern = node.childForFieldName('pattern');
      if (pattern) this.visit(pattern);
    }
  }

  private enhancedFor(node: Node): void {
    this.typedName(node.childForFieldName('type'), node.childForFieldName('name'));
    this.visitOptional(node.childForFieldName('value'));
    this.visitOptional(node.childForFieldName('body'));
  }

  /** `catch (A | B e)`: every type is used; the name is bound to the first. */
  private catchParameter(node: Node): void {
    let first: NameRef | undefined;
    for (const child of named(node)) {
      if (child.type === 'catch_type') {
        for (const type of named(child)) {
          first ??= typeRef(type);
          this.typeUse(type);
        }
      }
    }
    const name = node.childForFieldName('name');
    if (name) this.bind(name.text, first);
  }

  /** A try-with-resources resource: a declaration (`var r = …`) or an expression. */
  private resource(node: Node): void {
    const type = node.childForFieldName('type');
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (name) {
      this.typeUse(type);
      this.bind(name.text, typeRef(type) ?? this.expressionType(value));
      this.visitOptional(value);
    } else this.visitChildren(node);
  }

  // ---- declarations ---------------------------------------------------------------------

  private typeDeclaration(node: Node, kind: NodeKind): void {
    const typeParameters = node.childForFieldName('type_parameters');
    this.namedDeclaration(node, typeParameters, (name) => {
      const modifiers = this.modifiers(node);

      const supertypes: SupertypeRef[] = [];
      const supertypeArgs: Node[] = [];
      let superclass: NameRef | undefined;
      for (const child of named(node)) {
        if (child.type === 'superclass') {
          const type = child.namedChild(0);
          superclass = typeRef(type);
          if (superclass) supertypes.push({ ...superclass, relation: 'extends' });
          if (type) supertypeArgs.push(type);
        } else if (child.type === 'super_interfaces' || child.type === 'extends_interfaces') {
          const relation = child.type === 'extends_interfaces' ? 'extends' : 'implements';
          const list = child.namedChild(0);
          for (const type of list ? named(list) : []) {
            const ref = typeRef(type);
            if (ref) supertypes.push({ ...ref, relation });
            supertypeArgs.push(type);
          }
        }
      }

      const enclosing = this.types[this.types.length - 1];
      const exported = this.inMember() ? false : modifiers.isPublic || (enclosing?.isInterface ?? false);
      const body = node.childForFieldName('body');
      const index = this.addSymbol(node, name, kind, {
        exported,
        isTest: this.fileIsTest,
        decorators: modifiers.decorators,
        supertypes,
        signatureEnd: body?.startIndex,
        signatureStart: modifiers.declarationStart,
      });
      for (const type of supertypeArgs) this.typeArgumentUses(type, index);

      this.enterType(index, name, superclass, kind === 'interface', () => {
        for (const arg of modifiers.annotationArgs) this.visit(arg);
        this.typeParameterBounds(typeParameters);
        const fields = this.frames[this.frames.length - 1];
        if (node.type === 'record_declaration') {
          // Record components are the record's fields.
          const components = node.childForFieldName('parameters');
          for (const component of components ? named(components) : []) {
            if (component.type !== 'formal_parameter') continue;
            const componentName = component.childForFieldName('name');
            const type = component.childForFieldName('type');
            if (!componentName) continue;
            fields?.set(componentName.text, { type: typeRef(type), owner: this.currentTypeRef() });
            this.declareRecordComponent(component, componentName.text, 'field', type, exported);
          }
        }
        if (body) this.typeBody(body);
      });
    });
  }

  /** Fields of a class body, known before its methods are walked (they may be declared later). */
  protected override collectMembers(body: Node, frame: Map<string, Binding> | undefined): void {
    if (!frame) return;
    const owner = this.currentTypeRef();
    const members = body.type === 'enum_body' ? named(body).filter((c) => c.type === 'enum_body_declarations').flatMap((c) => named(c)) : named(body);
    for (const member of members) {
      if (member.type !== 'field_declaration' && member.type !== 'constant_declaration') continue;
      const type = typeRef(member.childForFieldName('type'));
      for (const declarator of fieldChildren(member, 'declarator')) {
        const name = declarator?.childForFieldName('name');
        if (name) frame.set(name.text, { type, owner });
      }
    }
  }

  private methodDeclaration(node: Node, kind: NodeKind): void {
    const typeParameters = node.childForFieldName('type_parameters');
    this.namedDeclaration(node, typeParameters, (name) => {
      const modifiers = this.modifiers(node);
      const parameters = node.childForFieldName('parameters');
      const returnType = node.childForFieldName('type');
      const hintNodes: (Node | null)[] = [];
      for (const parameter of parameters ? named(parameters) : []) {
        if (parameter.type === 'formal_parameter') hintNodes.push(parameter.childForFieldName('type'));
        else if (parameter.type === 'spread_parameter') hintNodes.push(named(parameter).find((c) => c.type !== 'variable_declarator' && c.type !== 'modifiers') ?? null);
      }
      hintNodes.push(returnType);
      const enclosing = this.types[this.types.length - 1];
      const body = node.childForFieldName('body');
      this.declareMember(node, name, kind, modifiers, {
        exported: modifiers.isPublic || (enclosing?.isInterface ?? false),
        isTest: this.fileIsTest || modifiers.isTest,
        decorators: modifiers.decorators,
        typeHints: this.typeHints(hintNodes),
        overrides: modifiers.overrides,
        signatureStart: modifiers.declarationStart,
        signatureEnd: body?.startIndex,
      }, () => {
        this.typeParameterBounds(typeParameters);
        if (parameters) this.visitChildren(parameters);
        for (const child of named(node)) {
          // `throws A, B` names what the method may raise.
          if (child.type === 'throws') {
            for (const type of named(child)) this.typeUse(type, 'raise');
          }
        }
        if (body) this.visit(body);
        const defaultValue = node.childForFieldName('value');
        if (defaultValue) this.visit(defaultValue);
      });
    });
  }

  private fieldDeclaration(node: Node): void {
    const modifiers = this.modifiers(node);
    const typeNode = node.childForFieldName('type');
    const type = { hints: this.typeHints([typeNode]), value: this.declaredType(typeNode) };
    const enclosing = this.types[this.types.length - 1];
    const implicitConstant = enclosing?.isInterface ?? false;
    const kind: NodeKind = implicitConstant || (modifiers.keywords.has('static') && modifiers.keywords.has('final')) ? 'constant' : 'field';
    for (const declarator of fieldChildren(node, 'declarator')) {
      const name = declarator?.childForFieldName('name');
      if (!declarator || !name) continue;
      this.declareField(node, name.text, kind, modifiers.isPublic || implicitConstant, modifiers, type, () => {
        this.visitOptional(declarator.childForFieldName('value'));
      });
    }
  }

  private enumConstant(node: Node): void {
    const name = node.childForFieldName('name');
    if (!name) return;
    const body = node.childForFieldName('body');
    const index = this.declareEnumMember(node, name.text, [node.childForFieldName('arguments')], body?.startIndex);
    if (body) {
      // A constant with a body is an anonymous subclass of the enum, named after the constant.
      this.enterType(index, name.text, this.currentTypeRef(), false, () => this.typeBody(body));
    }
  }

  private anonymousClass(creation: Node, body: Node, supertype: NameRef | undefined): void {
    const base = `anon$${supertype?.name ?? 'Object'}`;
    const key = `${this.scope.join('.')}|${base}`;
    const count = (this.anonCounters.get(key) ?? 0) + 1;
    this.anonCounters.set(key, count);
    const name = count === 1 ? base : `${base}$${count}`;
    const index = this.addSymbol(creation, name, 'class', {
      exported: false,
      isTest: this.fileIsTest,
      supertypes: supertype ? [{ ...supertype, relation: 'extends' }] : [],
      signatureEnd: body.startIndex,
    });
    this.enterType(index, name, supertype, false, () => this.typeBody(body));
  }

  private parameter(node: Node): void {
    let typeNode = node.childForFieldName('type');
    let nameNode = node.childForFieldName('name');
    if (node.type === 'spread_parameter') {
      typeNode = named(node).find((c) => c.type !== 'variable_declarator' && c.type !== 'modifiers') ?? null;
      nameNode = named(node).find((c) => c.type === 'variable_declarator')?.childForFieldName('name') ?? null;
    }
    for (const child of named(node)) if (child.type === 'modifiers') this.visit(child);
    if (nameNode) this.bind(nameNode.text, typeRef(typeNode));
  }

  private localVariables(node: Node): void {
    const typeNode = node.childForFieldName('type');
    this.typeUse(typeNode);
    const declared = typeRef(typeNode);
    for (const child of named(node)) if (child.type === 'modifiers') this.visit(child);
    for (const declarator of fieldChildren(node, 'declarator')) {
      if (!declarator) continue;
      const name = declarator.childForFieldName('name');
      const value = declarator.childForFieldName('value');
      if (value) this.visit(value);
      if (name) this.bind(name.text, declared ?? this.expressionType(value));
    }
  }

  private lambda(node: Node): void {
    this.frames.push(new Map());
    try {
      const parameters = node.childForFieldName('parameters');
      if (parameters?.type === 'identifier') this.bind(parameters.text, undefined);
      else if (parameters?.type === 'inferred_parameters') {
        for (const p of named(parameters)) this.bind(p.text, undefined);
      } else if (parameters) this.visitChildren(parameters);
      this.visitOptional(node.childForFieldName('body'));
    } finally {
      this.frames.pop();
    }
  }

  // ---- uses -----------------------------------------------------------------------------

  private methodInvocation(node: Node): void {
    const nameNode = node.childForFieldName('name');
    const object = node.childForFieldName('object');
    const name = nameNode?.text;
    const chain = object ? this.chainSegments(object) : undefined;
    if (name) {
      if (!object) {
        // Implicit `this`, an outer class or a static import: the core looks them up lexically.
        this.addRef('call', name, [], undefined, node);
      } else {
        this.qualifiedUse('call', name, object, node, chain);
      }
    }
    if (object && !chain) this.visit(object);
    else if (object) this.visitChainForFields(object);
    this.typeArgumentsUse(node.childForFieldName('type_arguments'));
    this.visitOptional(node.childForFieldName('arguments'));
  }

  private fieldAccess(node: Node): void {
    const object = node.childForFieldName('object');
    const field = node.childForFieldName('field');
    if (!object || !field || field.type !== 'identifier') {
      if (object) this.visit(object);
      return;
    }
    const name = field.text;
    const chain = this.chainSegments(object);
    if (chain) {
      const root = chain[0] ?? '';
      const knownRoot = root === 'this' || root === 'super' || this.lookup(root) !== undefined;
      if (name !== 'length' && (knownRoot || /^[A-Z]/.test(root))) this.qualifiedUse('field', name, object, node, chain);
      this.visitChainForFields(object);
      return;
    }
    if (name !== 'length') this.addRef('field', name, ['?'], this.expressionType(object), node);
    this.visit(object);
  }

  /** For `this.a.b.m()`: the inner accesses `this.a`, `this.a.b` are field uses too. */
  private visitChainForFields(object: Node): void {
    if (object.type === 'field_access') this.fieldAccess(object);
    else if (object.type === 'identifier') this.bareIdentifier(object);
  }

  private constructorInvocation(node: Node): void {
    const target = node.childForFieldName('constructor')?.type;
    if (target === 'super' || target === 'this') this.constructorCall(target === 'super', node);
    const object = node.childForFieldName('object');
    if (object) this.visit(object);
    this.visitOptional(node.childForFieldName('arguments'));
  }

  protected override objectCreation(node: Node, kind: 'new' | 'raise'): void {
    const typeNode = node.childForFieldName('type');
    const type = this.constructionUse(typeNode, kind, node);
    if (typeNode) this.typeArgumentUses(typeNode, this.from);
    this.typeArgumentsUse(node.childForFieldName('type_arguments'));
    const object = node.childForFieldName('object');
    if (object) this.visit(object);
    this.visitOptional(node.childForFieldName('arguments'));
    const body = named(node).find((c) => c.type === 'class_body');
    if (body) this.anonymousClass(node, body, type);
  }

  private methodReference(node: Node): void {
    const parts = named(node);
    const target = parts[0];
    const method = parts.length > 1 ? parts[parts.length - 1] : undefined;
    if (!target) return;
    const isNew = method === undefined || method.type !== 'identifier' || method === target;
    if (isNew) {
      // `Foo::new`
      const type = typeRef(target);
      if (type && !JAVA_BUILTIN_TYPES.has(type.name)) this.addRef('new', type.name, type.qualifier, undefined, node);
      return;
    }
    if (target.type === 'identifier' && /^[A-Z]/.test(target.text) && !this.lookup(target.text)) {
      if (!JAVA_BUILTIN_TYPES.has(target.text)) this.addRef('call', method.text, [target.text], undefined, node);
      return;
    }
    const chain = this.chainSegments(target);
    if (chain) this.qualifiedUse('call', method.text, target, node, chain);
    else {
      const type = typeRef(target);
      if (type && !JAVA_BUILTIN_TYPES.has(type.name)) this.addRef('call', method.text, [...type.qualifier, type.name], undefined, node);
      else this.visit(target);
    }
  }

  private typeArgumentsUse(node: Node | null): void {
    if (!node) return;
    for (const arg of named(node)) this.typeUse(arg);
  }

  /** Generic arguments of a type node (`Base<Foo>` → Foo) as `type` references from `from`. */
  private typeArgumentUses(node: Node, from: number): void {
    if (node.type !== 'generic_type') return;
    const saved = this.from;
    this.from = from;
    for (const arg of this.typeArguments(node)) this.typeUse(arg);
    this.from = saved;
  }

  // ---- types ----------------------------------------------------------------------------

  /**
   * Class names inside a type: generics unwrapped, primitives, java.lang types and type
   * parameters skipped; JDK containers only contribute their arguments when `unwrapContainers`.
   */
  protected override collectTypeNames(node: Node, out: NameRef[], unwrapContainers: boolean): void {
    switch (node.type) {
      case 'type_identifier':
      case 'scoped_type_identifier': {
        const ref = typeRef(node);
        if (ref && this.isInterestingType(ref) && !(unwrapContainers && JAVA_CONTAINERS.has(ref.name) && ref.qualifier.length === 0)) pushUnique(out, ref);
        return;
      }
      case 'generic_type': {
        const base = node.namedChild(0);
        if (base) this.collectTypeNames(base, out, unwrapContainers);
        for (const arg of this.typeArguments(node)) this.collectTypeNames(arg, out, unwrapContainers);
        return;
      }
      case 'array_type':
      case 'annotated_type':
      case 'wildcard':
      case 'type_bound':
        for (const child of named(node)) this.collectTypeNames(child, out, unwrapContainers);
        return;
      default:
        if (PRIMITIVE_TYPE_NODES.has(node.type)) return;
    }
  }

  protected override isInterestingType(ref: NameRef): boolean {
    if (ref.name === 'var') return false;
    if (ref.qualifier.length === 0) {
      if (JAVA_BUILTIN_TYPES.has(ref.name) || JAVA_BUILTIN_EXCEPTIONS.has(ref.name)) return false;
      for (const params of this.typeParams) if (params.has(ref.name)) return false;
    } else if (ref.qualifier[0] === 'java' && ref.qualifier[1] === 'lang') return false;
    return true;
  }

  protected override typeParameterNames(node: Node | null | undefined): Set<string> {
    const names = new Set<string>();
    for (const param of node ? named(node) : []) {
      const name = named(param).find((c) => c.type === 'type_identifier' || c.type === 'identifier');
      if (name) names.add(name.text);
    }
    return names;
  }

  /** `<T extends Entity>`: the bound is a type use of the declaring symbol. */
  private typeParameterBounds(node: Node | null): void {
    for (const param of node ? named(node) : []) {
      for (const child of named(param)) if (child.type === 'type_bound') this.typeUse(child);
    }
  }

  /** `new Foo()` types as Foo unless Foo is a java.lang type. */
  protected override expressionType(node: Node | null | undefined): NameRef | undefined {
    if (node?.type !== 'object_creation_expression') return super.expressionType(node);
    const ref = typeRef(node.childForFieldName('type'));
    return ref && !JAVA_BUILTIN_TYPES.has(ref.name) ? ref : undefined;
  }

  // ---- output ---------------------------------------------------------------------------

  override docBefore(startRow: number): string {
    const comment = this.comments.get(startRow - 1) ?? this.comments.get(startRow);
    if (!comment) return '';
    return stripJavadoc(this.source.slice(comment.startIndex, comment.endIndex));
  }

  protected override modifiers(node: Node): Modifiers & { overrides: boolean; isPublic: boolean } {
    const keywords = new Set<string>();
    const decorators: NameRef[] = [];
    const annotationArgs: Node[] = [];
    let overrides = false;
    let isTest = false;
    let declarationStart: number | undefined;
    const modifiers = named(node).find((c) => c.type === 'modifiers');
    if (modifiers) {
      let lastAnnotationEnd = -1;
      for (const child of kids(modifiers)) {
        if (child.type === 'marker_annotation' || child.type === 'annotation') {
          lastAnnotationEnd = child.endIndex;
          const ref = typeRef(child.childForFieldName('name'));
          if (!ref) continue;
          if (ref.name === 'Override') overrides = true;
          if (TEST_ANNOTATIONS.has(ref.name)) isTest = true;
          if (!NON_DECORATOR_ANNOTATIONS.has(ref.name)) decorators.push(ref);
          const args = child.childForFieldName('arguments');
          if (args) annotationArgs.push(args);
        } else if (child.type !== 'line_comment' && child.type !== 'block_comment') {
          keywords.add(child.type);
        }
      }
      if (lastAnnotationEnd >= 0) declarationStart = this.startAfter(lastAnnotationEnd, node);
    }
    return {
      keywords,
      decorators,
      annotationArgs,
      overrides,
      isTest,
      isPublic: keywords.has('public') || keywords.has('protected'),
      declarationStart,
    };
  }

  // ---- imports --------------------------------------------------------------------------

  private importDeclaration(node: Node): void {
    let path = '';
    let wildcard = false;
    for (const child of named(node)) {
      if (child.type === 'scoped_identifier' || child.type === 'identifier') path = dottedName(child);
      else if (child.type === 'asterisk') wildcard = true;
    }
    if (!path) return;
    const line = node.startPosition.row + 1;
    if (wildcard) {
      this.imports.push({ source: path, names: [{ imported: '*', local: '*' }], line });
      return;
    }
    const isStatic = kids(node).some((c) => c.type === 'static');
    const cut = path.lastIndexOf('.');
    const member = path.slice(cut + 1);
    this.imports.push({ source: isStatic && cut > 0 ? path.slice(0, cut) : path, names: [{ imported: member, local: member }], line });
  }
}

/**
 * Where a Java import points. `a.b.C` → the file of top-level type C in package `a.b` (the file
 * named `C.java` among the package's files, else all of them); a wildcard → the package's files,
 * or for a static wildcard the class's file; nested classes (`a.b.Outer.Inner`) walk up to the
 * first declared package. JDK packages are external `java`; others external by their first two
 * segments (`org.junit`).
 */
function resolveJavaImport(decl: ImportDecl, _fromFile: string, project: ProjectLayout): ResolvedImport {
  const source = decl.source;
  if (/^(java|javax|jdk)\./.test(source) || source === 'java' || source === 'javax') return { files: [], external: 'java' };
  const wildcard = decl.names.some((n) => n.imported === '*');
  if (wildcard) {
    const files = project.filesInNamespace(source);
    if (files.length > 0) return { files: [...files] };
  }
  const segments = source.split('.');
  for (let cut = segments.length - 1; cut >= 1; cut--) {
    const files = project.filesInNamespace(segments.slice(0, cut).join('.'));
    if (files.length === 0) continue;
    const fileName = `${segments[cut]}.java`;
    const named = files.filter((f) => basename(f) === fileName);
    return { files: named.length > 0 ? named : [...files] };
  }
  // Packages nobody declared (a parse failure, a generated file): the conventional path.
  const byPath = project.filesEndingWith?.(`${segments.join('/')}.java`) ?? [];
  if (byPath.length > 0) return { files: [...byPath] };
  return { files: [], external: segments.slice(0, 2).join('.') };
}

/**
 * Java: classes, interfaces, enums, records, annotation types, methods, constructors, fields,
 * nested/local/anonymous classes; calls, constructions, type uses, field accesses; imports.
 *
 * @example
 * ```ts
 * const parser = await createParser(javaLanguage.grammarFor('A.java'));
 * const extraction = withTree(parser, source, (tree) => javaLanguage.extract(tree.rootNode, source, 'src/A.java'));
 * ```
 */
export const javaLanguage: LanguageModule = {
  id: 'java',
  version: '2',
  extensions: ['.java'],
  grammarFor: () => 'java',
  isTestFile: isJavaTestFile,
  selfNames: ['this'],
  superNames: ['super'],
  extract(root: Node, source: string, path: string): FileExtraction {
    return new JavaFileExtractor(source, path, root).extractFile(root, path, 'java');
  },
  resolveImport: resolveJavaImport,
};
