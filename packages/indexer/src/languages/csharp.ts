/**
 * C# support: one pass over a tree-sitter-c-sharp tree produces the file's definitions, the
 * names it uses and its usings (see `./types.ts` for the contract).
 *
 * Qualified names are `<path>.<scope...>.<name>` where the scope is the chain of enclosing
 * symbols (types; for local functions also the enclosing method). Namespaces never enter the
 * scope: they go to `namespace`. A partial class declared in two files yields one class symbol
 * per file (`A.cs.Orders`, `A.Generated.cs.Orders`), each with the members that file declares;
 * the shared `namespace` and name let the core treat them as one type.
 *
 * `namespace` is the namespace of the first type declared in the file, nested block namespaces
 * joined (`namespace A { namespace B { class C {} } }` → `A.B`); with no type, the first
 * namespace declared. Types of further namespaces in the same file keep that single value.
 *
 * Base lists cannot be told apart syntactically: the first base of a class or record is its
 * base class (`extends`) unless it is named like an interface (`I` followed by an upper-case
 * letter); every other base is `implements`. Struct bases are `implements`; interface bases
 * are `extends`.
 */
import type { NodeKind } from '@knowing/graph';
import type { Node } from 'web-tree-sitter';
import { basename, C_COMMENT_OPENERS, MAX_DOC_CHARS, truncate } from './common.js';
import { ClassScopeExtractor } from './class-scopes.js';
import type { Binding, ClassGrammar, Modifiers, TypeContext } from './class-scopes.js';
import { kids, named, pathRef, pushUnique } from './extractor-helpers.js';
import type { FileExtraction, ImportDecl, LanguageModule, NameRef, ProjectLayout, ResolvedImport, SupertypeRef } from './types.js';

/**
 * BCL types that a repository does not define: naming them as type hints, receivers or call
 * qualifiers would only produce edges to nowhere (or to a same-named repo type).
 */
const CSHARP_BUILTIN_TYPES = new Set([
  'String', 'Object', 'Int16', 'Int32', 'Int64', 'UInt16', 'UInt32', 'UInt64', 'Byte', 'SByte',
  'Boolean', 'Char', 'Double', 'Single', 'Decimal', 'DateTime', 'DateTimeOffset', 'TimeSpan', 'Guid',
  'Math', 'Console', 'Convert', 'Environment', 'GC', 'Type', 'Activator', 'Array', 'Enum', 'Attribute',
  'StringBuilder', 'Encoding', 'Interlocked', 'CancellationToken', 'Uri', 'StringComparison',
  'StringComparer', 'ArgumentNullException', 'ILogger', 'EventHandler', 'EventArgs', 'System',
  'Microsoft', 'var', 'dynamic', 'string', 'object', 'int', 'uint', 'long', 'ulong', 'short', 'ushort',
  'byte', 'sbyte', 'bool', 'char', 'double', 'float', 'decimal', 'nint', 'nuint', 'void',
]);

/** BCL exceptions: throwing one says little about the code and would make a hub node. */
const CSHARP_BUILTIN_EXCEPTIONS = new Set([
  'Exception', 'SystemException', 'ArgumentException', 'ArgumentNullException', 'ArgumentOutOfRangeException',
  'InvalidOperationException', 'NotImplementedException', 'NotSupportedException', 'NullReferenceException',
  'KeyNotFoundException', 'IndexOutOfRangeException', 'FormatException', 'TimeoutException',
  'ObjectDisposedException', 'OperationCanceledException', 'TaskCanceledException',
  'UnauthorizedAccessException', 'InvalidCastException', 'OverflowException', 'DivideByZeroException',
  'AggregateException', 'IOException', 'FileNotFoundException', 'DirectoryNotFoundException',
]);

/** Generic wrappers: a type hint names what they hold (`Task<List<Order>>` → `Order`), not them. */
const CSHARP_CONTAINERS = new Set([
  'Task', 'ValueTask', 'List', 'IList', 'IReadOnlyList', 'ICollection', 'IReadOnlyCollection',
  'IEnumerable', 'IEnumerator', 'IAsyncEnumerable', 'IQueryable', 'IOrderedEnumerable', 'Dictionary',
  'IDictionary', 'IReadOnlyDictionary', 'ConcurrentDictionary', 'ConcurrentQueue', 'ConcurrentBag',
  'HashSet', 'ISet', 'SortedSet', 'SortedDictionary', 'Queue', 'Stack', 'LinkedList', 'Func',
  'Action', 'Nullable', 'Lazy', 'Predicate', 'Expression', 'KeyValuePair', 'Tuple', 'ValueTuple',
  'ImmutableArray', 'ImmutableList', 'ImmutableDictionary', 'Span', 'ReadOnlySpan', 'Memory',
  'ReadOnlyMemory', 'IOptions', 'IOptionsMonitor', 'IOptionsSnapshot', 'Channel', 'IObservable',
]);

/** Attributes that mark a test method (xUnit, NUnit, MSTest) or test class. */
const TEST_ATTRIBUTES = new Set(['Fact', 'Theory', 'Test', 'TestMethod', 'TestCase', 'TestCaseSource', 'DataTestMethod', 'SkippableFact', 'SkippableTheory']);
const TEST_CLASS_ATTRIBUTES = new Set(['TestFixture', 'TestClass']);

const TYPE_DECLARATIONS: Readonly<Record<string, NodeKind>> = {
  class_declaration: 'class',
  struct_declaration: 'struct',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'class',
  record_struct_declaration: 'struct',
};

const INTERFACE_NAME = /^I[A-Z]/;

function isCSharpTestFile(path: string): boolean {
  const segments = path.split('/');
  const base = segments[segments.length - 1] ?? '';
  if (/Tests?\.cs$/.test(base)) return true;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = (segments[i] ?? '').toLowerCase();
    if (segment === 'test' || segment === 'tests' || segment.endsWith('.tests') || segment.endsWith('.test') || segment.endsWith('tests')) return true;
  }
  return false;
}

/** `/// <summary>Charges <see cref="Invoice"/>.</summary>` → `Charges Invoice.` */
function cleanXmlDoc(lines: readonly string[]): string {
  const text = lines
    .map((line) => line.replace(/^\s*\/\/\/ ?/, '').replace(/^\s*\/\*\*+|\*+\/\s*$/g, '').replace(/^\s*\* ?/, ''))
    .join('\n')
    .replace(/<(?:see|seealso)\s+(?:cref|langword|href)="(?:[A-Z]:)?([^"]*)"\s*\/>/g, '$1')
    .replace(/<(?:paramref|typeparamref)\s+name="([^"]*)"\s*\/>/g, '$1')
    .replace(/<param\s+name="([^"]*)"\s*>/g, '$1: ')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
  const cleaned = text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return truncate(cleaned, MAX_DOC_CHARS);
}

/** Segments of a `qualified_name` / `alias_qualified_name` / `identifier` (`global::` dropped). */
function nameSegments(node: Node, out: string[]): void {
  switch (node.type) {
    case 'identifier':
      out.push(node.text);
      return;
    case 'qualified_name': {
      const qualifier = node.childForFieldName('qualifier');
      const name = node.childForFieldName('name');
      if (qualifier) nameSegments(qualifier, out);
      if (name) nameSegments(name, out);
      return;
    }
    case 'alias_qualified_name': {
      const alias = node.childForFieldName('alias');
      const name = node.childForFieldName('name');
      if (alias && alias.text !== 'global') out.push(alias.text);
      if (name) nameSegments(name, out);
      return;
    }
    case 'generic_name': {
      const id = node.namedChild(0);
      if (id) out.push(id.text);
      return;
    }
    default:
      out.push(node.text);
  }
}

function dottedName(node: Node): string {
  const segments: string[] = [];
  nameSegments(node, segments);
  return segments.join('.');
}

/** The type a type node names, generics/nullable/arrays stripped; undefined for predefined types and `var`. */
function typeRef(node: Node | null | undefined): NameRef | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case 'identifier':
      return { name: node.text, qualifier: [] };
    case 'generic_name': {
      const id = node.namedChild(0);
      return id ? { name: id.text, qualifier: [] } : undefined;
    }
    case 'qualified_name':
    case 'alias_qualified_name': {
      const segments: string[] = [];
      nameSegments(node, segments);
      return pathRef(segments);
    }
    case 'nullable_type':
    case 'array_type':
    case 'pointer_type':
    case 'ref_type':
    case 'scoped_type':
      return typeRef(node.childForFieldName('type') ?? node.namedChild(0));
    case 'predefined_type':
      // `string`, `int`: kept so that they can be recognised as builtins.
      return { name: node.text, qualifier: [] };
    default:
      return undefined;
  }
}

const CSHARP_GRAMMAR: ClassGrammar = {
  builtinTypes: CSHARP_BUILTIN_TYPES,
  builtinExceptions: CSHARP_BUILTIN_EXCEPTIONS,
  containers: CSHARP_CONTAINERS,
  memberAccess: { type: 'member_access_expression', object: 'expression', member: 'name' },
  chainRoots: new Set(['identifier', 'this', 'base', 'predefined_type']),
  // A generic member's text carries its type arguments (`a.Get<T>`): no segment of a name.
  chainMembers: new Set(['identifier']),
  superName: 'base',
  keywordType: 'predefined_type',
  typeArgumentList: 'type_argument_list',
  typeNodes: new Set(['generic_name', 'qualified_name', 'array_type', 'nullable_type']),
  namingNodes: new Set(['name_colon', 'name_equals', 'labeled_statement', 'goto_statement']),
  leaves: new Set([
    'integer_literal', 'real_literal', 'boolean_literal', 'null_literal', 'character_literal', 'string_literal',
    'verbatim_string_literal', 'raw_string_literal', 'predefined_type', 'implicit_type', 'this', 'base',
  ]),
  typeRef,
};

class CSharpFileExtractor extends ClassScopeExtractor {
  private firstNamespace = '';
  private namespaceFromType = false;
  private namespaces: string[] = [];
  /** The file's lines, split on first need. */
  private sourceLines: string[] | undefined;

  constructor(source: string, path: string, root: Node) {
    super(CSHARP_GRAMMAR, source, isCSharpTestFile(path), { root, openers: C_COMMENT_OPENERS });
  }

  protected override finish(): void {
    if (!this.namespaceFromType) this.namespace = this.firstNamespace;
  }

  // ---- walking --------------------------------------------------------------------------

  override visit(node: Node): void {
    // `type` crosses into WASM on every read: read it once.
    const nodeType = node.type;
    switch (nodeType) {
      case 'comment':
        this.comment(node);
        return;
      case 'using_directive':
        this.usingDirective(node);
        return;
      case 'namespace_declaration':
        this.namespaceDeclaration(node);
        return;
      case 'file_scoped_namespace_declaration':
        this.fileScopedNamespace(node);
        return;
      case 'class_declaration':
      case 'struct_declaration':
      case 'interface_declaration':
      case 'enum_declaration':
      case 'record_declaration':
      case 'record_struct_declaration':
        this.typeDeclaration(node, this.typeKind(node));
        return;
      case 'delegate_declaration':
        this.delegateDeclaration(node);
        return;
      case 'method_declaration':
        this.methodDeclaration(node, 'method');
        return;
      case 'constructor_declaration':
        this.methodDeclaration(node, 'constructor');
        return;
      case 'local_function_statement':
        this.methodDeclaration(node, 'function');
        return;
      case 'destructor_declaration':
      case 'operator_declaration':
      case 'conversion_operator_declaration':
      case 'indexer_declaration':
        this.memberWithoutSymbol(node);
        return;
      case 'property_declaration':
      case 'event_declaration':
        this.propertyDeclaration(node);
        return;
      case 'field_declaration':
      case 'event_field_declaration':
        this.fieldDeclaration(node);
        return;
      case 'enum_member_declaration':
        this.enumMember(node);
        return;
      case 'variable_declaration':
        this.localVariables(node);
        return;
      case 'invocation_expression':
        this.invocation(node);
        return;
      case 'throw_expression':
        this.throwing(node);
        return;
      case 'member_access_expression':
        this.memberAccess(node);
        return;
      case 'conditional_access_expression':
        this.conditionalAccess(node);
        return;
      case 'as_expression':
      case 'is_expression':
        this.visitOptional(node.childForFieldName('left'));
        this.typeUse(node.childForFieldName('right'));
        return;
      case 'declaration_pattern':
      case 'declaration_expression':
        this.declarationPattern(node);
        return;
      case 'type_pattern':
      case 'typeof_expression':
      case 'default_expression':
      case 'sizeof_expression':
        this.typeUse(node.childForFieldName('type') ?? node.namedChild(0));
        return;
      case 'recursive_pattern':
        this.recursivePattern(node);
        return;
      case 'lambda_expression':
      case 'anonymous_method_expression':
        this.lambda(node);
        return;
      case 'foreach_statement':
        this.foreachStatement(node);
        return;
      case 'catch_declaration':
        this.catchDeclaration(node);
        return;
      case 'parameter':
        this.parameter(node);
        return;
      case 'argument':
        this.argument(node);
        return;
      case 'from_clause':
      case 'let_clause':
      case 'join_clause':
      case 'join_into_clause':
      case 'query_continuation':
        this.queryClause(node);
        return;
      case 'initializer_expression':
        this.initializer(node, undefined);
        return;
      case 'attribute_list':
        for (const attribute of named(node)) for (const child of named(attribute)) if (child.type === 'attribute_argument_list') this.visit(child);
        return;
      case 'attribute_argument':
        for (const child of named(node)) if (child.type !== 'name_equals' && child.type !== 'name_colon') this.visit(child);
        return;
      default:
        this.visitCommon(node, nodeType);
    }
  }

  // ---- walking: node kinds with more to do than one call -------------------------------

  private comment(node: Node): void {
    const start = node.startIndex;
    if (this.source.startsWith('///', start) || this.source.startsWith('/**', start)) {
      this.comments.set(node.endPosition.row, { startIndex: start, endIndex: node.endIndex });
    }
  }

  private fileScopedNamespace(node: Node): void {
    const name = node.childForFieldName('name');
    if (name) this.enterNamespace(dottedName(name), true);
    // Older grammars nest the rest of the file inside the declaration.
    for (const child of named(node)) if (child.id !== name?.id) this.visit(child);
  }

  /** Destructors, operators, conversions, indexers: no symbol; what their bodies use counts for the enclosing type. */
  private memberWithoutSymbol(node: Node): void {
    this.frames.push(new Map());
    try {
      for (const child of named(node)) {
        if (child.type === 'parameter_list' || child.type === 'bracketed_parameter_list') this.visitChildren(child);
        else if (child.type === 'block' || child.type === 'arrow_expression_clause' || child.type === 'accessor_list') this.visit(child);
      }
    } finally {
      this.frames.pop();
    }
  }

  /** `x is Foo foo`, `out var x`: the type is used and the name bound to it. */
  private declarationPattern(node: Node): void {
    const name = node.childForFieldName('name');
    this.typedName(node.childForFieldName('type'), name?.type === 'identifier' ? name : undefined);
  }

  private recursivePattern(node: Node): void {
    const type = node.childForFieldName('type');
    this.typeUse(type);
    for (const child of named(node)) {
      if (child.id === type?.id) continue;
      if (child.type === 'identifier') this.bind(child.text, typeRef(type));
      else this.visit(child);
    }
  }

  private foreachStatement(node: Node): void {
    const left = node.childForFieldName('left');
    this.typedName(node.childForFieldName('type'), left?.type === 'identifier' ? left : undefined);
    if (left && left.type !== 'identifier') this.visit(left);
    this.visitOptional(node.childForFieldName('right'));
    this.visitOptional(node.childForFieldName('body'));
  }

  private catchDeclaration(node: Node): void {
    this.typedName(node.childForFieldName('type'), node.childForFieldName('name'));
  }

  /** `from x in xs`, `let y = …`, `join`, `into`: the name is bound, the rest visited. */
  private queryClause(node: Node): void {
    const name = node.childForFieldName('name');
    const type = node.childForFieldName('type');
    if (name) this.bind(name.text, typeRef(type));
    for (const child of named(node)) if (child.id !== name?.id && child.id !== type?.id) this.visit(child);
  }

  /** `name: value`: the name is the parameter's, not a use. */
  private argument(node: Node): void {
    const label = node.childForFieldName('name');
    for (const child of named(node)) if (!label || child.id !== label.id) this.visit(child);
  }

  // ---- namespaces -----------------------------------------------------------------------

  private namespaceDeclaration(node: Node): void {
    const nameNode = node.childForFieldName('name');
    const saved = this.namespaces;
    if (nameNode) this.enterNamespace(dottedName(nameNode), false);
    try {
      const body = node.childForFieldName('body');
      if (body) this.visitChildren(body);
    } finally {
      this.namespaces = saved;
    }
  }

  private enterNamespace(name: string, fileScoped: boolean): void {
    this.namespaces = fileScoped ? [name] : [...this.namespaces, name];
    if (!this.firstNamespace) this.firstNamespace = this.namespaces.join('.');
  }

  // ---- declarations ---------------------------------------------------------------------

  private typeKind(node: Node): NodeKind {
    if (node.type === 'record_declaration' && kids(node).some((c) => c.type === 'struct')) return 'struct';
    return TYPE_DECLARATIONS[node.type] ?? 'class';
  }

  private typeDeclaration(node: Node, kind: NodeKind): void {
    this.namedDeclaration(node, named(node).find((c) => c.type === 'type_parameter_list'), (name) => {
      if (!this.namespaceFromType && this.types.length === 0 && this.from < 0) {
        this.namespaceFromType = true;
        this.namespace = this.namespaces.join('.');
      }
      const modifiers = this.modifiers(node);
      let baseList: Node | undefined;
      let recordParams: Node | undefined;
      const constraints: Node[] = [];
      for (const child of named(node)) {
        if (child.type === 'base_list') baseList = child;
        else if (child.type === 'parameter_list') recordParams = child;
        else if (child.type === 'type_parameter_constraints_clause') constraints.push(child);
      }

      const supertypes: SupertypeRef[] = [];
      const baseTypeNodes: Node[] = [];
      const baseArguments: Node[] = [];
      let baseClass: NameRef | undefined;
      if (baseList && kind !== 'enum') {
        let position = 0;
        for (const child of named(baseList)) {
          if (child.type === 'argument_list') {
            baseArguments.push(child);
            continue;
          }
          let typeNode = child;
          if (child.type === 'primary_constructor_base_type') {
            typeNode = child.childForFieldName('type') ?? child.namedChild(0) ?? child;
            for (const arg of named(child)) if (arg.type === 'argument_list') baseArguments.push(arg);
          }
          const ref = typeRef(typeNode);
          baseTypeNodes.push(typeNode);
          if (!ref) continue;
          let relation: SupertypeRef['relation'];
          if (kind === 'interface') relation = 'extends';
          else if (kind === 'class' && position === 0 && !INTERFACE_NAME.test(ref.name)) relation = 'extends';
          else relation = 'implements';
          if (relation === 'extends' && kind !== 'interface') baseClass = ref;
          supertypes.push({ ...ref, relation });
          position++;
        }
      }

      const enclosing = this.types[this.types.length - 1];
      const exported = this.inMember() ? false : this.isExported(modifiers.keywords, enclosing);
      const body = node.childForFieldName('body') ?? named(node).find((c) => c.type === 'declaration_list' || c.type === 'enum_member_declaration_list');
      const index = this.addSymbol(node, name, kind, {
        exported,
        isTest: this.fileIsTest || modifiers.isTestClass,
        decorators: modifiers.decorators,
        supertypes,
        signatureStart: modifiers.declarationStart,
        signatureEnd: body?.startIndex ?? this.lineEnd(modifiers.declarationStart ?? node.startIndex, node.endIndex),
      });

      this.enterType(index, name, baseClass, kind === 'interface', () => {
        for (const attrArgs of modifiers.annotationArgs) this.visit(attrArgs);
        for (const typeNode of baseTypeNodes) this.typeArgumentUses(typeNode);
        for (const clause of constraints) this.constraintUses(clause);
        const members = this.frames[this.frames.length - 1];
        if (recordParams) {
          // Positional record parameters (and primary-constructor parameters) are members.
          for (const parameter of named(recordParams)) {
            if (parameter.type !== 'parameter') continue;
            const paramName = parameter.childForFieldName('name');
            const type = parameter.childForFieldName('type');
            if (!paramName) continue;
            members?.set(paramName.text, { type: this.declaredType(type), owner: node.type.startsWith('record') ? this.currentTypeRef() : undefined });
            if (node.type.startsWith('record')) this.declareRecordComponent(parameter, paramName.text, 'property', type, exported);
          }
        }
        for (const args of baseArguments) this.visit(args);
        if (body) this.typeBody(body);
      });
    });
  }

  /** Fields and properties of a type body, known before its methods are walked. */
  protected override collectMembers(body: Node, frame: Map<string, Binding> | undefined): void {
    if (!frame) return;
    const owner = this.currentTypeRef();
    for (const member of named(body)) {
      if (member.type === 'field_declaration' || member.type === 'event_field_declaration') {
        const declaration = named(member).find((c) => c.type === 'variable_declaration');
        if (!declaration) continue;
        const type = this.declaredType(declaration.childForFieldName('type'));
        for (const declarator of named(declaration)) {
          if (declarator.type !== 'variable_declarator') continue;
          const name = declarator.childForFieldName('name') ?? declarator.namedChild(0);
          if (name) frame.set(name.text, { type, owner });
        }
      } else if (member.type === 'property_declaration' || member.type === 'event_declaration') {
        const name = member.childForFieldName('name');
        if (name) frame.set(name.text, { type: this.declaredType(member.childForFieldName('type')), owner });
      }
    }
  }

  private delegateDeclaration(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const modifiers = this.modifiers(node);
    const typeParamList = node.childForFieldName('type_parameters') ?? named(node).find((c) => c.type === 'type_parameter_list');
    this.typeParams.push(this.typeParameterNames(typeParamList ?? undefined));
    const parameters = node.childForFieldName('parameters');
    const hints: (Node | null)[] = [node.childForFieldName('type') ?? node.childForFieldName('returns')];
    for (const parameter of parameters ? named(parameters) : []) if (parameter.type === 'parameter') hints.push(parameter.childForFieldName('type'));
    this.declareMember(node, nameNode.text, 'type_alias', modifiers, {
      exported: this.isExported(modifiers.keywords, this.types[this.types.length - 1]),
      isTest: this.fileIsTest,
      decorators: modifiers.decorators,
      typeHints: this.typeHints(hints),
      signatureStart: modifiers.declarationStart,
    });
    this.typeParams.pop();
  }

  private methodDeclaration(node: Node, kind: NodeKind): void {
    const typeParamList = node.childForFieldName('type_parameters') ?? named(node).find((c) => c.type === 'type_parameter_list');
    this.namedDeclaration(node, typeParamList, (name) => {
      const modifiers = this.modifiers(node);
      const parameters = node.childForFieldName('parameters');
      const returns = node.childForFieldName('returns') ?? node.childForFieldName('type');
      const hints: (Node | null)[] = [];
      for (const parameter of parameters ? named(parameters) : []) if (parameter.type === 'parameter') hints.push(parameter.childForFieldName('type'));
      hints.push(returns);
      const body = node.childForFieldName('body');
      const enclosing = this.types[this.types.length - 1];
      const explicitInterface = named(node).some((c) => c.type === 'explicit_interface_specifier');
      const exported = kind === 'function' ? false : explicitInterface || this.isExported(modifiers.keywords, enclosing);
      this.declareMember(node, name, kind, modifiers, {
        exported,
        isTest: this.fileIsTest || modifiers.isTest,
        decorators: modifiers.decorators,
        typeHints: this.typeHints(hints),
        overrides: modifiers.keywords.has('override'),
        signatureStart: modifiers.declarationStart,
        signatureEnd: body?.startIndex,
      }, () => {
        if (parameters) this.visitChildren(parameters);
        for (const child of named(node)) {
          if (child.type === 'type_parameter_constraints_clause') this.constraintUses(child);
          else if (child.type === 'constructor_initializer') this.constructorInitializer(child);
        }
        if (body) {
          this.declareLocalFunctions(body);
          this.visit(body);
        }
      });
    });
  }

  /** Local functions of a body are in scope from its start, so calls before them resolve. */
  private declareLocalFunctions(body: Node): void {
    const frame = this.frames[this.frames.length - 1];
    if (!frame || body.type !== 'block') return;
    for (const statement of named(body)) {
      if (statement.type !== 'local_function_statement') continue;
      const name = statement.childForFieldName('name');
      if (name) frame.set(name.text, { type: undefined, owner: undefined, localFunction: true });
    }
  }

  private propertyDeclaration(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const modifiers = this.modifiers(node);
    const typeNode = node.childForFieldName('type');
    const accessors = node.childForFieldName('accessors');
    const value = node.childForFieldName('value');
    const bodyStart = accessors?.startIndex ?? value?.startIndex;
    const explicitInterface = named(node).some((c) => c.type === 'explicit_interface_specifier');
    this.declareMember(node, nameNode.text, node.type === 'event_declaration' ? 'field' : 'property', modifiers, {
      exported: explicitInterface || this.isExported(modifiers.keywords, this.types[this.types.length - 1]),
      isTest: this.fileIsTest,
      decorators: modifiers.decorators,
      typeHints: this.typeHints([typeNode]),
      valueType: this.declaredType(typeNode),
      overrides: modifiers.keywords.has('override'),
      signatureStart: modifiers.declarationStart,
      signatureEnd: bodyStart ?? this.lineEnd(modifiers.declarationStart ?? node.startIndex, node.endIndex),
    }, () => {
      if (accessors) this.visit(accessors);
      if (value) this.visit(value);
      for (const child of named(node)) {
        // `{ get; } = new Foo();`
        if (child.type === 'equals_value_clause' || child.type.endsWith('_expression')) this.visitInitializer(child, typeNode);
      }
    });
  }

  private fieldDeclaration(node: Node): void {
    const modifiers = this.modifiers(node);
    const declaration = named(node).find((c) => c.type === 'variable_declaration');
    if (!declaration) return;
    const typeNode = declaration.childForFieldName('type');
    const type = { hints: this.typeHints([typeNode]), value: this.declaredType(typeNode) };
    const kind: NodeKind = modifiers.keywords.has('const') ? 'constant' : 'field';
    const exported = this.isExported(modifiers.keywords, this.types[this.types.length - 1]);
    for (const declarator of named(declaration)) {
      if (declarator.type !== 'variable_declarator') continue;
      const name = declarator.childForFieldName('name') ?? declarator.namedChild(0);
      if (!name) continue;
      this.declareField(node, name.text, kind, exported, modifiers, type, () => {
        for (const child of named(declarator)) if (child.id !== name.id) this.visitInitializer(child, typeNode);
      });
    }
  }

  private enumMember(node: Node): void {
    const name = node.childForFieldName('name');
    if (name) this.declareEnumMember(node, name.text, [node.childForFieldName('value')]);
  }

  private parameter(node: Node): void {
    const type = node.childForFieldName('type');
    const name = node.childForFieldName('name');
    for (const child of named(node)) {
      if (child.type === 'attribute_list') this.visit(child);
      else if (child.type === 'equals_value_clause') this.visit(child);
    }
    if (name) this.bind(name.text, typeRef(type));
  }

  private localVariables(node: Node): void {
    const typeNode = node.childForFieldName('type');
    this.typeUse(typeNode);
    const declared = this.declaredType(typeNode);
    for (const declarator of named(node)) {
      if (declarator.type !== 'variable_declarator') continue;
      const name = declarator.childForFieldName('name') ?? declarator.namedChild(0);
      let inferred: NameRef | undefined;
      for (const child of named(declarator)) {
        if (child.id === name?.id) continue;
        this.visitInitializer(child, typeNode);
        inferred ??= this.expressionType(child.type === 'equals_value_clause' ? child.namedChild(0) : child);
      }
      if (name) this.bind(name.text, declared ?? inferred);
    }
  }

  /** An initializer; a target-typed `new()` constructs the declared type. */
  private visitInitializer(value: Node, declaredType: Node | null): void {
    const expression = value.type === 'equals_value_clause' ? value.namedChild(0) : value;
    if (expression?.type === 'implicit_object_creation_expression') {
      const type = typeRef(declaredType);
      if (type && this.isInterestingType(type)) this.addRef('new', type.name, type.qualifier, undefined, expression);
      for (const child of named(expression)) {
        if (child.type === 'initializer_expression') this.initializer(child, type);
        else this.visit(child);
      }
      return;
    }
    this.visit(value);
  }

  private lambda(node: Node): void {
    this.frames.push(new Map());
    try {
      for (const child of named(node)) {
        if (child.type === 'parameter_list') this.visitChildren(child);
        else if (child.type === 'implicit_parameter_list' || child.type === 'implicit_parameter') {
          for (const p of child.type === 'implicit_parameter' ? [child] : named(child)) this.bind(p.text, undefined);
        } else if (child.type === 'identifier' && child.nextSibling?.type === '=>') this.bind(child.text, undefined);
        else if (child.type !== 'modifier' && child.type !== 'attribute_list') this.visit(child);
      }
    } finally {
      this.frames.pop();
    }
  }

  // ---- uses -----------------------------------------------------------------------------

  private invocation(node: Node): void {
    const fn = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    if (fn) {
      switch (fn.type) {
        case 'identifier': {
          const name = fn.text;
          if (name === 'nameof') return;
          const binding = this.lookup(name);
          // A local function is found lexically, not on the type; a local delegate is no method.
          if (binding?.localFunction) this.addRef('call', name, [], undefined, node);
          else if (binding?.owner) this.addRef('field', name, [], binding.owner, node);
          // Implicit `this`, an outer type or a `using static`: the core looks them up lexically.
          else if (!binding) this.addRef('call', name, [], undefined, node);
          break;
        }
        case 'generic_name': {
          const id = fn.namedChild(0);
          if (id) this.addRef('call', id.text, [], undefined, node);
          this.typeArgumentsUse(fn);
          break;
        }
        case 'member_access_expression': {
          const object = fn.childForFieldName('expression');
          const nameNode = fn.childForFieldName('name');
          if (object && nameNode) {
            const name = nameNode.type === 'generic_name' ? nameNode.namedChild(0)?.text : nameNode.text;
            if (name) this.qualifiedUse('call', name, object, node);
            if (nameNode.type === 'generic_name') this.typeArgumentsUse(nameNode);
            this.visitReceiver(object);
          }
          break;
        }
        case 'conditional_access_expression': {
          const object = fn.childForFieldName('condition') ?? fn.namedChild(0);
          const binding = named(fn).find((c) => c.type === 'member_binding_expression');
          const nameNode = binding?.childForFieldName('name');
          const name = nameNode?.type === 'generic_name' ? nameNode.namedChild(0)?.text : nameNode?.text;
          if (object && name) {
            this.qualifiedUse('call', name, object, node);
            this.visitReceiver(object);
          } else this.visit(fn);
          break;
        }
        case 'member_binding_expression': {
          const nameNode = fn.childForFieldName('name');
          const name = nameNode?.type === 'generic_name' ? nameNode.namedChild(0)?.text : nameNode?.text;
          if (name) this.addRef('call', name, ['?'], undefined, node);
          break;
        }
        default:
          this.visit(fn);
      }
    }
    if (args) this.visit(args);
  }

  private visitReceiver(object: Node): void {
    if (object.type === 'identifier') this.bareIdentifier(object);
    else if (object.type === 'member_access_expression') this.memberAccess(object);
    else if (object.type !== 'this' && object.type !== 'base' && object.type !== 'predefined_type') this.visit(object);
  }

  private memberAccess(node: Node): void {
    const object = node.childForFieldName('expression');
    const nameNode = node.childForFieldName('name');
    if (!object || !nameNode) {
      this.visitChildren(node);
      return;
    }
    if (nameNode.type === 'generic_name') this.typeArgumentsUse(nameNode);
    const name = nameNode.type === 'generic_name' ? nameNode.namedChild(0)?.text : nameNode.text;
    const chain = this.chainSegments(object);
    if (chain && name) {
      const root = chain[0] ?? '';
      const known = root === 'this' || root === 'base' || this.lookup(root) !== undefined;
      // `Type.Member`; a longer upper-case chain may start with a namespace (`Acme.Util.Helper`).
      if (known || (chain.length === 1 && /^[A-Z]/.test(root))) this.qualifiedUse('field', name, object, node, chain);
      this.visitReceiver(object);
      return;
    }
    if (name && object.type !== 'predefined_type') this.addRef('field', name, ['?'], this.expressionType(object), node);
    this.visit(object);
  }

  private conditionalAccess(node: Node): void {
    // `a?.B` outside a call: a member read on `a`.
    const object = node.childForFieldName('condition') ?? node.namedChild(0);
    for (const child of named(node)) {
      if (child.id === object?.id) continue;
      if (child.type === 'member_binding_expression') {
        const nameNode = child.childForFieldName('name');
        if (nameNode && object && nameNode.type === 'identifier') this.qualifiedUse('field', nameNode.text, object, child);
      } else this.visit(child);
    }
    if (object) this.visitReceiver(object);
  }

  private constructorInitializer(node: Node): void {
    this.constructorCall(kids(node).some((c) => c.type === 'base'), node);
    this.visitChildren(node);
  }

  protected override objectCreation(node: Node, kind: 'new' | 'raise'): void {
    const typeNode = node.childForFieldName('type');
    const type = this.constructionUse(typeNode, kind, node);
    if (typeNode) this.typeArgumentUses(typeNode);
    this.visitOptional(node.childForFieldName('arguments'));
    const initializer = node.childForFieldName('initializer');
    if (initializer) this.initializer(initializer, type);
  }

  /** `new Foo { A = 1 }`: `A` is a member of Foo. */
  private initializer(node: Node, type: NameRef | undefined): void {
    for (const child of named(node)) {
      if (child.type === 'assignment_expression') {
        const left = child.childForFieldName('left');
        if (left?.type === 'identifier' && type) {
          this.addRef('field', left.text, [], type, left);
          this.visitOptional(child.childForFieldName('right'));
          continue;
        }
      }
      this.visit(child);
    }
  }

  /** Arguments of a `generic_name` (`Do<Foo>`, `Base<Foo>`) as type uses. */
  private typeArgumentsUse(node: Node): void {
    if (node.type !== 'generic_name') return;
    for (const arg of this.typeArguments(node)) this.typeUse(arg);
  }

  private typeArgumentUses(node: Node): void {
    if (node.type === 'generic_name') this.typeArgumentsUse(node);
    else if (node.type === 'qualified_name') {
      const name = node.childForFieldName('name');
      if (name) this.typeArgumentUses(name);
    }
  }

  private constraintUses(clause: Node): void {
    for (const constraint of named(clause)) {
      if (constraint.type !== 'type_parameter_constraint') continue;
      const type = constraint.childForFieldName('type');
      if (type) this.typeUse(type);
    }
  }

  // ---- types ----------------------------------------------------------------------------

  protected override collectTypeNames(node: Node, out: NameRef[], unwrapContainers: boolean): void {
    switch (node.type) {
      case 'identifier':
      case 'qualified_name':
      case 'alias_qualified_name': {
        const ref = typeRef(node);
        if (ref && this.isInterestingType(ref) && !(unwrapContainers && CSHARP_CONTAINERS.has(ref.name))) pushUnique(out, ref);
        if (node.type === 'qualified_name') {
          const last = node.childForFieldName('name');
          if (last?.type === 'generic_name') this.collectTypeNames(last, out, unwrapContainers);
        }
        return;
      }
      case 'generic_name': {
        const ref = typeRef(node);
        if (ref && this.isInterestingType(ref) && !(unwrapContainers && CSHARP_CONTAINERS.has(ref.name))) pushUnique(out, ref);
        for (const arg of this.typeArguments(node)) this.collectTypeNames(arg, out, unwrapContainers);
        return;
      }
      case 'nullable_type':
      case 'array_type':
      case 'pointer_type':
      case 'ref_type':
      case 'scoped_type':
      case 'tuple_type':
      case 'tuple_element': {
        const inner = node.type === 'tuple_type' ? undefined : node.childForFieldName('type');
        if (inner) this.collectTypeNames(inner, out, unwrapContainers);
        else for (const child of named(node)) if (child.type !== 'identifier' || node.type !== 'tuple_element') this.collectTypeNames(child, out, unwrapContainers);
        return;
      }
      default:
        return;
    }
  }

  protected override isInterestingType(ref: NameRef): boolean {
    if (ref.qualifier.length === 0) {
      if (CSHARP_BUILTIN_TYPES.has(ref.name) || CSHARP_BUILTIN_EXCEPTIONS.has(ref.name)) return false;
      for (const params of this.typeParams) if (params.has(ref.name)) return false;
      return true;
    }
    const root = ref.qualifier[0];
    return root !== 'System' && root !== 'Microsoft';
  }

  protected override typeParameterNames(node: Node | null | undefined): Set<string> {
    const names = new Set<string>();
    for (const param of node ? named(node) : []) {
      if (param.type !== 'type_parameter') continue;
      const name = param.childForFieldName('name') ?? named(param).find((c) => c.type === 'identifier');
      if (name) names.add(name.text);
    }
    return names;
  }

  protected override expressionType(node: Node | null | undefined): NameRef | undefined {
    switch (node?.type) {
      case 'object_creation_expression':
        return this.declaredType(node.childForFieldName('type'));
      case 'as_expression':
        return this.declaredType(node.childForFieldName('right'));
      default:
        return super.expressionType(node);
    }
  }

  private isExported(keywords: ReadonlySet<string>, enclosing: TypeContext | undefined): boolean {
    if (keywords.has('public') || keywords.has('protected') || keywords.has('internal')) return true;
    if (keywords.has('private')) return false;
    // Defaults: top-level types are internal, interface members public, class members private.
    if (!enclosing) return true;
    return enclosing.isInterface;
  }

  // ---- output ---------------------------------------------------------------------------

  /**
   * Contiguous `///` lines (or one `/** *\/` block) ending on the line above the declaration,
   * or above the directives right before it (`/// …` then `#if NET6_0` then the member).
   */
  override docBefore(startRow: number): string {
    const lines: string[] = [];
    let row = startRow - 1;
    if (!this.comments.has(row) && row >= 0) {
      this.sourceLines ??= this.source.split('\n');
      while (row >= 0 && DIRECTIVE.test(this.sourceLines[row] ?? '')) row--;
    }
    for (let comment = this.comments.get(row); comment; comment = this.comments.get(row)) {
      lines.unshift(this.source.slice(comment.startIndex, comment.endIndex));
      const firstRow = row - (this.source.slice(comment.startIndex, comment.endIndex).split('\n').length - 1);
      row = firstRow - 1;
    }
    return lines.length > 0 ? cleanXmlDoc(lines.join('\n').split('\n')) : '';
  }

  protected override modifiers(node: Node): Modifiers & { isTestClass: boolean } {
    const keywords = new Set<string>();
    const decorators: NameRef[] = [];
    const annotationArgs: Node[] = [];
    let isTest = false;
    let isTestClass = false;
    let lastAttributeEnd = -1;
    for (const child of named(node)) {
      if (child.type === 'modifier') keywords.add(child.text);
      else if (child.type === 'attribute_list') {
        lastAttributeEnd = child.endIndex;
        for (const attribute of named(child)) {
          if (attribute.type !== 'attribute') continue;
          const ref = typeRef(attribute.childForFieldName('name'));
          if (ref) {
            if (TEST_ATTRIBUTES.has(ref.name)) isTest = true;
            if (TEST_CLASS_ATTRIBUTES.has(ref.name)) isTestClass = true;
            decorators.push(ref);
          }
          for (const arg of named(attribute)) if (arg.type === 'attribute_argument_list') annotationArgs.push(arg);
        }
      }
    }
    const declarationStart = lastAttributeEnd >= 0 ? this.startAfter(lastAttributeEnd, node) : undefined;
    return { keywords, decorators, annotationArgs, isTest, isTestClass, declarationStart };
  }

  // ---- imports --------------------------------------------------------------------------

  private usingDirective(node: Node): void {
    const line = node.startPosition.row + 1;
    const alias = node.childForFieldName('name');
    let target: Node | undefined;
    for (const child of named(node)) {
      if (child.id === alias?.id) continue;
      if (child.type === 'identifier' || child.type === 'qualified_name' || child.type === 'alias_qualified_name' || child.type === 'generic_name') target = child;
    }
    if (!target) return;
    const source = dottedName(target);
    if (alias) {
      const last = source.slice(source.lastIndexOf('.') + 1);
      this.imports.push({ source, names: [{ imported: last, local: alias.text }], line });
      return;
    }
    // A namespace using and `using static Type` both bring every member into scope.
    this.imports.push({ source, names: [{ imported: '*', local: '*' }], line });
  }
}

/**
 * Where a using points: the files declaring that namespace; failing that, a type inside a
 * declared namespace (`using static A.B.C`, `using X = A.B.C`, or a nested type one level
 * deeper) resolves to the file named `C.cs` there, else to that namespace's files. Otherwise
 * external: `dotnet` for System.* / Microsoft.*, else the first segment.
 */
function resolveCSharpImport(decl: ImportDecl, _fromFile: string, project: ProjectLayout): ResolvedImport {
  const source = decl.source;
  const exact = project.filesInNamespace(source);
  if (exact.length > 0) return { files: [...exact] };
  const segments = source.split('.');
  for (let cut = segments.length - 1; cut >= Math.max(1, segments.length - 2); cut--) {
    const files = project.filesInNamespace(segments.slice(0, cut).join('.'));
    if (files.length === 0) continue;
    const fileName = `${segments[cut]}.cs`;
    const namedFiles = files.filter((f) => basename(f) === fileName);
    return { files: namedFiles.length > 0 ? namedFiles : [...files] };
  }
  const root = segments[0] ?? source;
  if (root === 'System' || root === 'Microsoft') return { files: [], external: 'dotnet' };
  return { files: [], external: root };
}

/** A preprocessor directive: `#` first on its line, then the directive's name and the rest of the line. */
const DIRECTIVE = /^[ \t]*#[ \t]*([a-z]+)\b(.*)$/;

/** One `#if` … `#endif` being read. */
interface ConditionalFrame {
  /** Whether the code around the `#if` is kept. */
  readonly outerKept: boolean;
  /** Whether one of its branches has been kept already. */
  taken: boolean;
}

/**
 * Same-length text for the parser with preprocessor directives blanked, and of each `#if` only
 * the first branch not written off by `#if false`: the grammar cannot parse a directive where
 * it splits a construct (a parameter list, an argument list, a base list, an `if (…) {` written
 * once per branch), and both branches of one construct side by side are not C#. Blanked lines
 * keep their line breaks (and `\r`), so every position in the tree is a position in the file.
 * A line starting with `#` inside a multi-line string or comment is taken for a directive too.
 */
function csharpParseText(source: string): string {
  if (!/^[ \t]*#/m.test(source)) return source;
  const lines = source.split('\n');
  const frames: ConditionalFrame[] = [];
  let kept = true;
  for (let row = 0; row < lines.length; row++) {
    const line = lines[row]!;
    const directive = DIRECTIVE.exec(line);
    if (directive) {
      const condition = (directive[2] ?? '').replace(/\/\/.*$/, '').trim();
      const frame = frames[frames.length - 1];
      switch (directive[1]) {
        case 'if':
          frames.push({ outerKept: kept, taken: false });
          kept = takeBranch(frames[frames.length - 1]!, condition !== 'false');
          break;
        case 'elif':
          if (frame) kept = takeBranch(frame, condition !== 'false');
          break;
        case 'else':
          if (frame) kept = takeBranch(frame, true);
          break;
        case 'endif':
          if (frame) kept = frames.pop()!.outerKept;
          break;
        default:
          // `#region`, `#pragma`, `#nullable`, `#define`, …: nothing to choose.
          break;
      }
      lines[row] = blankLine(line);
    } else if (!kept) {
      lines[row] = blankLine(line);
    }
  }
  return lines.join('\n');
}

/** Whether the branch starting here is kept: the first possible one of a kept conditional. */
function takeBranch(frame: ConditionalFrame, possible: boolean): boolean {
  const take = frame.outerKept && !frame.taken && possible;
  if (take) frame.taken = true;
  return take;
}

function blankLine(line: string): string {
  return line.replace(/[^\r]/g, ' ');
}

/**
 * C#: classes, structs, interfaces, enums, records, delegates, methods, constructors,
 * properties, fields, events, local functions; calls, constructions, type uses, member
 * accesses; usings.
 *
 * @example
 * ```ts
 * const parser = await createParser(csharpLanguage.grammarFor('A.cs'));
 * const extraction = withTree(parser, source, (tree) => csharpLanguage.extract(tree.rootNode, source, 'src/A.cs'));
 * ```
 */
export const csharpLanguage: LanguageModule = {
  id: 'csharp',
  version: '3',
  parseText: csharpParseText,
  extensions: ['.cs'],
  grammarFor: () => 'c_sharp',
  isTestFile: isCSharpTestFile,
  selfNames: ['this'],
  superNames: ['base'],
  extract(root: Node, source: string, path: string): FileExtraction {
    return new CSharpFileExtractor(source, path, root).extractFile(root, path, 'csharp');
  },
  resolveImport: resolveCSharpImport,
};
