/**
 * Python: one walk over the tree collects definitions, references and imports.
 *
 * Qualified names: `<path>.<Outer...>.<name>` where the outer scopes are enclosing classes
 * and functions (`src/flask/app.py.Flask.run`, `pkg/mod.py.outer.inner`). Module-level
 * assignments are `constant` (UPPER_CASE) or `variable`; class-level assignments and
 * `self.x = …` in initialisers are `field`s of the class; `@property` (and its setter)
 * is one `property`; `__init__` is the `constructor`. Classes deriving from `Enum` are
 * `enum`s (their members `constant`s) and from `Protocol` are `interface`s.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { NodeKind } from '@knowing/graph';
import { cleanDoc, countSyntaxErrors, firstLineOf, signatureText } from './common.js';
import type { CommentScan } from './common.js';
import type { SymbolBuilder } from './common.js';
import type { FileExtraction, ImportDecl, LanguageModule, NameRef, ProjectLayout, Reference, ResolvedImport, SupertypeRef, SymbolDef } from './types.js';

const VERSION = '2';

/** Builtin callables: a bare call to one of these (not shadowed in the module) is not a reference. */
const BUILTIN_FUNCTIONS = new Set(
  (
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex ' +
    'delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help ' +
    'hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord ' +
    'pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type ' +
    'vars zip __import__ __build_class__'
  ).split(' '),
);

/** Builtin exceptions: raising one says little about the code, and would make a hub node. */
const BUILTIN_EXCEPTIONS = new Set(
  (
    'BaseException Exception ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError ' +
    'BufferError ConnectionError ConnectionAbortedError ConnectionRefusedError ConnectionResetError EOFError ' +
    'FileExistsError FileNotFoundError FloatingPointError GeneratorExit ImportError IndentationError IndexError ' +
    'InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError ' +
    'NameError NotADirectoryError NotImplementedError OSError OverflowError PermissionError ProcessLookupError ' +
    'RecursionError ReferenceError RuntimeError StopAsyncIteration StopIteration SyntaxError SystemError ' +
    'SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError ' +
    'UnicodeError ValueError ZeroDivisionError IOError EnvironmentError Warning UserWarning DeprecationWarning ' +
    'PendingDeprecationWarning RuntimeWarning ResourceWarning FutureWarning ExceptionGroup BaseExceptionGroup'
  ).split(' '),
);

const BUILTIN_VALUES = new Set([
  ...BUILTIN_FUNCTIONS,
  ...BUILTIN_EXCEPTIONS,
  'self',
  'cls',
  '__name__',
  '__file__',
  '__doc__',
  '__dict__',
  '__class__',
  '__module__',
  '__qualname__',
  '__spec__',
  '__package__',
  '__debug__',
  'NotImplemented',
  'Ellipsis',
]);

/** Types that carry no project meaning: builtins and `typing` wrappers (their arguments are kept). */
const BUILTIN_TYPES = new Set(
  (
    'int float complex str bytes bytearray bool object None NoneType list dict set frozenset tuple type range ' +
    'memoryview slice Any Optional Union List Dict Set FrozenSet Tuple Type Callable Iterable Iterator Generator ' +
    'AsyncIterator AsyncIterable AsyncGenerator Sequence MutableSequence Mapping MutableMapping MutableSet ' +
    'Awaitable Coroutine Literal Final ClassVar Annotated TypeVar Generic NoReturn Never Self TypeAlias ' +
    'ParamSpec Concatenate Unpack Required NotRequired ReadOnly TypeGuard TypeIs IO TextIO BinaryIO Pattern Match ' +
    'Hashable Sized Container Collection Reversible AbstractSet DefaultDict OrderedDict Counter Deque ChainMap ' +
    'SupportsInt SupportsFloat SupportsIndex SupportsBytes SupportsAbs AnyStr LiteralString KeysView ValuesView ' +
    'ItemsView ContextManager AsyncContextManager'
  ).split(' '),
);
const TYPING_MODULES = new Set(['typing', 't', 'typing_extensions', 'te', 'collections', 'abc', 'builtins']);

/** Decorators that only change a method's kind; they would be hub nodes, not information. */
const KIND_DECORATORS = new Set(['staticmethod', 'classmethod', 'property', 'cached_property', 'abstractmethod']);
const PROPERTY_DECORATORS = new Set(['property', 'cached_property']);
const OVERRIDE_DECORATORS = new Set(['override']);
const ENUM_BASES = new Set(['Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag', 'ReprEnum']);
const PROTOCOL_BASES = new Set(['Protocol']);
const SCAFFOLD_BASES = new Set(['object', 'Generic', 'Protocol', 'ABC']);
const TEST_CASE_BASES = new Set(['TestCase', 'IsolatedAsyncioTestCase', 'SimpleTestCase', 'TransactionTestCase', 'LiveServerTestCase']);
/** Methods whose `self.x = …` assignments declare the instance's fields. */
const INITIALISERS = new Set(['__init__', '__new__', '__post_init__', 'setUp', 'setup_method', '__attrs_post_init__']);

/**
 * Top-level module names of the standard library that a repository directory of the same
 * name should not capture in `import x` (unless it sits at the root or under `src/`).
 */
const STDLIB_MODULES = new Set(
  (
    'abc argparse array ast asyncio base64 binascii bisect builtins bz2 calendar cgi codecs collections ' +
    'concurrent configparser contextlib contextvars copy csv ctypes dataclasses datetime decimal difflib dis ' +
    'email enum errno fnmatch fractions functools gc getpass gettext glob gzip hashlib heapq hmac html http ' +
    'importlib inspect io ipaddress itertools json keyword linecache locale logging lzma math mimetypes ' +
    'multiprocessing numbers operator os pathlib pickle pkgutil platform pprint queue random re reprlib ' +
    'secrets select shelve shlex shutil signal site socket sqlite3 ssl stat statistics string struct ' +
    'subprocess sys sysconfig tarfile tempfile textwrap threading time timeit tokenize traceback types ' +
    'typing unittest urllib uuid warnings weakref xml zipfile zlib zoneinfo'
  ).split(' '),
);

interface Scope {
  readonly kind: 'module' | 'class' | 'function';
  /** Symbol index of the definition owning this scope, -1 for the module. */
  readonly sym: number;
  /** Scope path for definitions made inside. */
  readonly names: readonly string[];
  /** Lexically enclosing scope. */
  readonly parent: Scope | undefined;
  /** Function scopes: local names and, when known, their types. */
  readonly locals: Map<string, NameRef | undefined> | undefined;
  /** Index of the class whose methods (or nested functions of methods) run here, -1 if none. */
  readonly classSym: number;
  /** An initialiser (`__init__` …): `self.x = …` declares a field. */
  readonly initialiser: boolean;
  /** Inside a test class. */
  readonly inTestClass: boolean;
  /** `kind:name` → symbol index, to keep the first of repeated definitions. */
  readonly defined: Map<string, number>;
}

/** The scope of a class or function `name` (symbol `sym`) defined in `parent`. */
function innerScope(parent: Scope, kind: 'class' | 'function', sym: number, name: string, rest: Pick<Scope, 'locals' | 'classSym' | 'initialiser' | 'inTestClass'>): Scope {
  return { kind, sym, names: [...parent.names, name], parent, ...rest, defined: new Map() };
}

interface AttributeChain {
  /** Identifier segments from the root to the last attribute, when the root is an identifier. */
  readonly segments: string[];
  /** The root expression when it is not an identifier (`foo()`, `x[0]`, `super()`). */
  readonly root: SyntaxNode | undefined;
}

const PYTHON_COMMENT_OPENERS: readonly string[] = Object.freeze(['#']);

class PythonExtractor {
  readonly symbols: SymbolBuilder[] = [];
  readonly references: Reference[] = [];
  readonly imports: ImportDecl[] = [];
  private readonly referenceKeys = new Set<string>();
  private readonly fileIsTest: boolean;
  private readonly moduleNames = new Set<string>();
  /** Class symbol index → its body scope, so initialisers can declare fields on it. */
  private readonly classScopes = new Map<number, Scope>();

  private readonly commentScan: CommentScan;

  constructor(
    private readonly source: string,
    private readonly path: string,
    root: SyntaxNode,
  ) {
    this.fileIsTest = isPythonTestFile(path);
    this.commentScan = { root, openers: PYTHON_COMMENT_OPENERS };
  }

  run(root: SyntaxNode): void {
    this.collectModuleNames(root);
    const scope: Scope = {
      kind: 'module',
      sym: -1,
      names: [],
      parent: undefined,
      locals: undefined,
      classSym: -1,
      initialiser: false,
      inTestClass: false,
      defined: new Map(),
    };
    this.walkChildren(root, scope);
  }

  // ---------------------------------------------------------------- walk

  private walkChildren(node: SyntaxNode, scope: Scope): void {
    for (const child of node.namedChildren) if (child) this.walk(child, scope);
  }

  private walk(node: SyntaxNode, scope: Scope): void {
    switch (node.type) {
      case 'class_definition':
        this.defineClass(node, scope, [], node);
        return;
      case 'function_definition':
        this.defineFunction(node, scope, [], node);
        return;
      case 'decorated_definition':
        this.defineDecorated(node, scope);
        return;
      case 'import_statement':
        this.addImport(node);
        return;
      case 'import_from_statement':
        this.addFromImport(node);
        return;
      case 'future_import_statement':
      case 'comment':
      case 'pass_statement':
      case 'integer':
      case 'float':
      case 'true':
      case 'false':
      case 'none':
      case 'ellipsis':
      case 'global_statement':
      case 'nonlocal_statement':
      case 'type':
      case 'escape_sequence':
        return;
      case 'expression_statement':
        this.walkChildren(node, scope);
        return;
      case 'assignment':
        this.handleAssignment(node, scope);
        return;
      case 'augmented_assignment': {
        this.walkField(node, 'right', scope);
        const left = node.childForFieldName('left');
        if (left) this.walkTarget(left, scope, undefined);
        return;
      }
      case 'type_alias_statement':
        this.defineTypeAlias(node, scope);
        return;
      case 'call':
        this.handleCall(node, scope);
        return;
      case 'attribute':
        this.handleAttribute(node, scope);
        return;
      case 'identifier':
        this.handleIdentifier(node.text, node.startPosition.row + 1, scope);
        return;
      case 'raise_statement':
        this.handleRaise(node, scope);
        return;
      case 'except_clause':
        this.handleExcept(node, scope);
        return;
      case 'string':
        for (const child of node.namedChildren) if (child?.type === 'interpolation') this.walkChildren(child, scope);
        return;
      case 'concatenated_string':
        this.walkChildren(node, scope);
        return;
      case 'keyword_argument':
        this.walkField(node, 'value', scope);
        return;
      case 'lambda':
        this.handleLambda(node, scope);
        return;
      case 'list_comprehension':
      case 'set_comprehension':
      case 'dictionary_comprehension':
      case 'generator_expression':
        this.handleComprehension(node, scope);
        return;
      case 'for_statement':
        this.walkField(node, 'right', scope);
        this.bindField(node, 'left', scope);
        this.walkField(node, 'body', scope);
        this.walkField(node, 'alternative', scope);
        return;
      case 'as_pattern': {
        const first = node.namedChildren[0];
        if (first) this.walk(first, scope);
        this.bindField(node, 'alias', scope);
        return;
      }
      case 'named_expression':
        this.walkField(node, 'value', scope);
        this.bindField(node, 'name', scope);
        return;
      default:
        this.walkChildren(node, scope);
    }
  }

  /** Walks the child in `field`, if there is one. */
  private walkField(node: SyntaxNode, field: string, scope: Scope): void {
    const child = node.childForFieldName(field);
    if (child) this.walk(child, scope);
  }

  /** Binds the names that the target in `field` (a loop variable, a walrus, an `as`) assigns, if there is one. */
  private bindField(node: SyntaxNode, field: string, scope: Scope): void {
    const child = node.childForFieldName(field);
    if (child) this.bindTargets(child, scope, undefined);
  }

  // ---------------------------------------------------------- definitions

  private defineDecorated(node: SyntaxNode, scope: Scope): void {
    const decorators: SyntaxNode[] = [];
    for (const child of node.namedChildren) if (child?.type === 'decorator') decorators.push(child);
    const definition = node.childForFieldName('definition');
    if (!definition) {
      this.walkChildren(node, scope);
      return;
    }
    if (definition.type === 'class_definition') this.defineClass(definition, scope, decorators, node);
    else if (definition.type === 'function_definition') this.defineFunction(definition, scope, decorators, node);
    else this.walk(definition, scope);
  }

  private defineClass(node: SyntaxNode, scope: Scope, decoratorNodes: readonly SyntaxNode[], outer: SyntaxNode): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return this.walkChildren(node, scope);
    const name = nameNode.text;
    const supertypes: SupertypeRef[] = [];
    const superclasses = node.childForFieldName('superclasses');
    let kind: NodeKind = 'class';
    let testCase = false;
    if (superclasses) {
      for (const arg of superclasses.namedChildren) {
        if (!arg || arg.type === 'keyword_argument' || arg.type === 'comment') continue;
        const target = arg.type === 'subscript' ? arg.childForFieldName('value') : arg;
        const ref = target ? nameRefOf(target) : undefined;
        if (!ref) continue;
        if (ENUM_BASES.has(ref.name)) kind = 'enum';
        else if (PROTOCOL_BASES.has(ref.name) && kind === 'class') kind = 'interface';
        if (TEST_CASE_BASES.has(ref.name)) testCase = true;
        // Typing scaffolding, not a parent worth an edge.
        if (SCAFFOLD_BASES.has(ref.name)) continue;
        supertypes.push({ ...ref, relation: 'extends' });
      }
    }
    const body = node.childForFieldName('body');
    const inTestClass = scope.inTestClass || testCase || /^Test/.test(name);
    const decorators = this.decoratorRefs(decoratorNodes).refs;
    const index = this.addSymbol(scope, {
      ...this.definitionSymbol(scope, name, kind, node, outer, this.fileIsTest || inTestClass),
      ...(supertypes.length > 0 ? { supertypes } : {}),
      ...(decorators.length > 0 ? { decorators } : {}),
    });
    if (superclasses) for (const arg of superclasses.namedChildren) if (arg?.type === 'keyword_argument') this.walk(arg, scope);
    if (!body) return;
    const classScope = innerScope(scope, 'class', index, name, { locals: undefined, classSym: index, initialiser: false, inTestClass });
    this.classScopes.set(index, classScope);
    this.walkChildren(body, classScope);
  }

  private defineFunction(node: SyntaxNode, scope: Scope, decoratorNodes: readonly SyntaxNode[], outer: SyntaxNode): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return this.walkChildren(node, scope);
    const name = nameNode.text;
    const inClass = scope.kind === 'class';
    const { refs: decorators, isProperty, isStatic, overrides } = this.decoratorRefs(decoratorNodes);
    let kind: NodeKind = 'function';
    if (inClass) kind = name === '__init__' ? 'constructor' : isProperty ? 'property' : 'method';
    const locals = new Map<string, NameRef | undefined>();
    const typeHints: NameRef[] = [];
    const parameters = node.childForFieldName('parameters');
    if (parameters) this.collectParameters(parameters, locals, typeHints);
    const returnType = node.childForFieldName('return_type');
    if (returnType) collectTypeRefs(returnType, typeHints);
    // A property reads like a field: its return annotation is the type calls go through.
    const valueType = kind === 'property' && returnType ? receiverTypeOf(returnType) : undefined;
    const body = node.childForFieldName('body');
    const index = this.addSymbol(scope, {
      ...this.definitionSymbol(scope, name, kind, node, outer, this.fileIsTest || scope.inTestClass || /^test(?:_|[A-Z0-9]|$)/.test(name)),
      ...(decorators.length > 0 ? { decorators } : {}),
      ...(typeHints.length > 0 ? { typeHints: dedupeRefs(typeHints) } : {}),
      ...(overrides ? { overrides: true } : {}),
      ...(valueType ? { valueType } : {}),
    });
    if (!body) return;
    if (inClass && !isStatic) {
      // The first parameter is the instance (or class); the core resolves it through `selfNames`.
      const first = firstParameterName(parameters);
      if (first) locals.set(first, undefined);
    }
    const functionScope = innerScope(scope, 'function', index, name, {
      locals,
      classSym: inClass ? scope.sym : scope.classSym,
      initialiser: inClass && INITIALISERS.has(name),
      inTestClass: scope.inTestClass,
    });
    if (parameters) {
      // Default values are expressions worth walking (they often name constants).
      for (const parameter of parameters.namedChildren) {
        const value = parameter?.childForFieldName('value');
        if (value) this.walk(value, functionScope);
      }
    }
    this.walkChildren(body, functionScope);
  }

  private defineTypeAlias(node: SyntaxNode, scope: Scope): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    const name = left?.text.split('[')[0]?.trim();
    if (!name || scope.kind === 'function') return;
    const typeHints: NameRef[] = [];
    if (right) collectTypeRefs(right, typeHints);
    this.addSymbol(scope, this.statementSymbol(scope, name, 'type_alias', node, '', this.fileIsTest, typeHints));
  }

  private collectParameters(parameters: SyntaxNode, locals: Map<string, NameRef | undefined>, typeHints: NameRef[]): void {
    for (const parameter of parameters.namedChildren) {
      if (!parameter) continue;
      let nameNode: SyntaxNode | null = null;
      let typeNode: SyntaxNode | null = null;
      switch (parameter.type) {
        case 'identifier':
          nameNode = parameter;
          break;
        case 'default_parameter':
          nameNode = parameter.childForFieldName('name');
          break;
        case 'typed_parameter':
        case 'typed_default_parameter':
          nameNode = parameter.childForFieldName('name') ?? parameter.namedChildren[0] ?? null;
          typeNode = parameter.childForFieldName('type');
          break;
        case 'list_splat_pattern':
        case 'dictionary_splat_pattern':
          nameNode = parameter.namedChildren[0] ?? null;
          break;
        default:
          continue;
      }
      if (nameNode && (nameNode.type === 'list_splat_pattern' || nameNode.type === 'dictionary_splat_pattern')) {
        nameNode = nameNode.namedChildren[0] ?? null;
      }
      if (!nameNode || nameNode.type !== 'identifier') continue;
      let declared: NameRef | undefined;
      if (typeNode) {
        collectTypeRefs(typeNode, typeHints);
        declared = receiverTypeOf(typeNode);
      }
      locals.set(nameNode.text, declared);
    }
  }

  private decoratorRefs(nodes: readonly SyntaxNode[]): { refs: NameRef[]; isProperty: boolean; isStatic: boolean; overrides: boolean } {
    const refs: NameRef[] = [];
    let isProperty = false;
    let isStatic = false;
    let overrides = false;
    for (const decorator of nodes) {
      let expression = decorator.namedChildren[0];
      if (expression?.type === 'call') expression = expression.childForFieldName('function');
      if (!expression) continue;
      const ref = nameRefOf(expression);
      if (!ref) continue;
      if (PROPERTY_DECORATORS.has(ref.name)) isProperty = true;
      if (ref.name === 'staticmethod') isStatic = true;
      if (ref.qualifier.length === 1 && (ref.name === 'setter' || ref.name === 'getter' || ref.name === 'deleter')) {
        // `@name.setter` belongs to the property `name`; it is not a decorator of its own.
        isProperty = true;
        continue;
      }
      if (OVERRIDE_DECORATORS.has(ref.name)) {
        overrides = true;
        continue;
      }
      if (KIND_DECORATORS.has(ref.name) && (ref.qualifier.length === 0 || TYPING_MODULES.has(ref.qualifier[0]!) || ref.qualifier[0] === 'functools')) continue;
      refs.push(ref);
    }
    return { refs, isProperty, isStatic, overrides };
  }

  /** A class or function defined in `scope`: its header is the signature, its docstring the doc. */
  private definitionSymbol(scope: Scope, name: string, kind: NodeKind, node: SyntaxNode, outer: SyntaxNode, isTest: boolean): SymbolBuilder {
    const body = node.childForFieldName('body');
    return {
      name,
      kind,
      scope: scope.names,
      startLine: outer.startPosition.row + 1,
      endLine: node.endPosition.row + 1,
      signature: signatureText(this.source, node.startIndex, body ? body.startIndex : node.endIndex, this.commentScan),
      doc: body ? docstringOf(body) : '',
      isTest,
      parent: scope.sym,
      exported: isPublicName(name) && scope.kind !== 'function',
    };
  }

  /** A name a statement (an assignment, a `type` alias) defines in `scope`: its first line is the signature. */
  private statementSymbol(scope: Scope, name: string, kind: NodeKind, statement: SyntaxNode, doc: string, isTest: boolean, typeHints: readonly NameRef[]): SymbolBuilder {
    return {
      name,
      kind,
      scope: scope.names,
      startLine: statement.startPosition.row + 1,
      endLine: statement.endPosition.row + 1,
      signature: firstLineOf(this.source, statement.startIndex, statement.endIndex, this.commentScan),
      doc,
      isTest,
      parent: scope.sym,
      exported: isPublicName(name),
      ...(typeHints.length > 0 ? { typeHints: dedupeRefs(typeHints) } : {}),
    };
  }

  private addSymbol(scope: Scope, symbol: SymbolBuilder): number {
    const key = `${symbol.kind}:${symbol.name}`;
    const existing = scope.defined.get(key);
    if (existing !== undefined) {
      // A redefinition (property setter, conditional def): one symbol spanning both.
      const first = this.symbols[existing]!;
      first.endLine = Math.max(first.endLine, symbol.endLine);
      if (!first.doc && symbol.doc) first.doc = symbol.doc;
      return existing;
    }
    this.symbols.push(symbol);
    const index = this.symbols.length - 1;
    scope.defined.set(key, index);
    return index;
  }

  // ---------------------------------------------------------- assignments

  private handleAssignment(node: SyntaxNode, scope: Scope): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    const typeNode = node.childForFieldName('type');
    if (right) this.walk(right, scope);
    if (!left) return;
    let declared: NameRef | undefined;
    const typeHints: NameRef[] = [];
    if (typeNode) {
      collectTypeRefs(typeNode, typeHints);
      declared = receiverTypeOf(typeNode);
    }
    const inferred = declared ?? (right ? this.inferValueType(right, scope) : undefined);
    if (scope.kind === 'function') {
      this.walkTarget(left, scope, inferred, typeHints);
      return;
    }
    if (left.type !== 'identifier') {
      // Tuple targets at module/class level still define each name.
      for (const target of identifiersOf(left)) this.defineVariable(target, node, scope, undefined, [], right);
      if (left.type === 'attribute' || left.type === 'subscript') this.walk(left, scope);
      return;
    }
    this.defineVariable(left, node, scope, inferred, typeHints, right, typeNode);
  }

  private defineVariable(
    nameNode: SyntaxNode,
    statement: SyntaxNode,
    scope: Scope,
    valueType: NameRef | undefined,
    typeHints: NameRef[],
    right: SyntaxNode | null,
    typeNode?: SyntaxNode | null,
  ): void {
    const name = nameNode.text;
    if (name === '__all__' || name === '__slots__' || name === '_') return;
    let kind: NodeKind;
    const isTypeAlias = typeNode ? /\bTypeAlias\b/.test(typeNode.text) : false;
    if (isTypeAlias) kind = 'type_alias';
    else if (right?.type === 'lambda') kind = scope.kind === 'class' ? 'method' : 'function';
    else if (scope.kind === 'class') kind = this.symbols[scope.sym]?.kind === 'enum' ? 'constant' : 'field';
    else kind = /^_*[A-Z][A-Z0-9_]*$/.test(name) ? 'constant' : 'variable';
    this.addSymbol(scope, {
      ...this.statementSymbol(scope, name, kind, statement, attributeDocstring(statement), this.fileIsTest || scope.inTestClass, typeHints),
      ...(valueType && kind !== 'type_alias' ? { valueType } : {}),
    });
  }

  /** Assignment targets inside a function: locals, and `self.x` fields. */
  private walkTarget(target: SyntaxNode, scope: Scope, valueType: NameRef | undefined, typeHints: readonly NameRef[] = []): void {
    switch (target.type) {
      case 'identifier':
        scope.locals?.set(target.text, valueType);
        return;
      case 'attribute': {
        const chain = attributeChain(target);
        if (!chain.root && chain.segments.length === 2 && this.isSelf(chain.segments[0]!, scope)) {
          const field = chain.segments[1]!;
          if (scope.initialiser && scope.classSym >= 0) this.defineField(field, target, scope, valueType, typeHints);
          this.addReference(scope, { name: field, qualifier: [chain.segments[0]!], kind: 'field', line: target.startPosition.row + 1 });
          return;
        }
        const object = target.childForFieldName('object');
        if (object) this.walk(object, scope);
        return;
      }
      case 'subscript':
        this.walkChildren(target, scope);
        return;
      default:
        for (const child of target.namedChildren) if (child) this.walkTarget(child, scope, undefined);
    }
  }

  private defineField(name: string, target: SyntaxNode, scope: Scope, valueType: NameRef | undefined, typeHints: readonly NameRef[]): void {
    const classSymbol = this.symbols[scope.classSym];
    if (!classSymbol) return;
    const classScope = this.classScopes.get(scope.classSym);
    if (!classScope) return;
    if (classScope.defined.has(`field:${name}`) || classScope.defined.has(`property:${name}`) || classScope.defined.has(`method:${name}`)) {
      // Declared at class level already; an initialiser's value type refines an unknown one.
      const existing = classScope.defined.get(`field:${name}`);
      if (existing !== undefined && valueType && !this.symbols[existing]!.valueType) this.symbols[existing]!.valueType = valueType;
      return;
    }
    const statement = target.parent?.type === 'assignment' ? target.parent : target;
    this.addSymbol(classScope, {
      ...this.statementSymbol(classScope, name, 'field', statement, attributeDocstring(statement), this.fileIsTest || classScope.inTestClass, typeHints),
      ...(valueType ? { valueType } : {}),
    });
  }

  /** The type a right-hand side evidently has: a constructor-looking call or a typed local. */
  private inferValueType(right: SyntaxNode, scope: Scope): NameRef | undefined {
    if (right.type === 'call') {
      const fn = right.childForFieldName('function');
      const ref = fn ? nameRefOf(fn) : undefined;
      if (ref && /^_*[A-Z]/.test(ref.name) && !BUILTIN_EXCEPTIONS.has(ref.name)) return ref;
      return undefined;
    }
    if (right.type === 'identifier') return lookupLocal(scope, right.text);
    return undefined;
  }

  private bindTargets(target: SyntaxNode, scope: Scope, valueType: NameRef | undefined): void {
    if (!scope.locals) return;
    if (target.type === 'identifier') {
      scope.locals.set(target.text, valueType);
      return;
    }
    if (target.type === 'attribute' || target.type === 'subscript') {
      this.walk(target, scope);
      return;
    }
    for (const child of target.namedChildren) if (child) this.bindTargets(child, scope, undefined);
  }

  // ---------------------------------------------------------- references

  private handleCall(node: SyntaxNode, scope: Scope): void {
    const fn = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    const line = node.startPosition.row + 1;
    if (fn?.type === 'identifier') {
      const name = fn.text;
      const local = isLocal(scope, name);
      if (local) {
        // Calling a local: `cls(...)` constructs the enclosing class; other locals are opaque.
        if (name === 'cls' && scope.classSym >= 0) this.addReference(scope, { name: 'cls', qualifier: [], kind: 'new', line });
      } else if (!BUILTIN_FUNCTIONS.has(name) || this.moduleNames.has(name)) {
        this.addReference(scope, { name, qualifier: [], kind: 'call', line });
      } else if ((name === 'isinstance' || name === 'issubclass') && args) {
        const types = args.namedChildren[1];
        if (types) this.addTypeUses(types, scope);
      }
    } else if (fn?.type === 'attribute') {
      const chain = attributeChain(fn);
      const name = chain.segments[chain.segments.length - 1];
      if (name) {
        if (chain.root) {
          const qualifier = [rootLabel(chain.root), ...chain.segments.slice(0, -1)];
          const receiverType = chain.segments.length === 1 ? constructedType(chain.root) : undefined;
          this.addReference(scope, { name, qualifier, kind: 'call', line, ...(receiverType ? { receiverType } : {}) });
          if (chain.root.type !== 'call' || !isSuperCall(chain.root)) this.walk(chain.root, scope);
        } else {
          const qualifier = chain.segments.slice(0, -1);
          const head = qualifier[0]!;
          if (!this.isSelf(head, scope) && isLocal(scope, head)) {
            const receiverType = qualifier.length === 1 ? lookupLocal(scope, head) : undefined;
            this.addReference(scope, { name, qualifier, kind: 'call', line, ...(receiverType ? { receiverType } : {}) });
          } else if (this.isSelf(head, scope) || !BUILTIN_VALUES.has(head) || this.moduleNames.has(head)) {
            this.addReference(scope, { name, qualifier, kind: 'call', line });
            // `self.store.put()` also reads the field `store`.
            if (qualifier.length >= 2 && this.isSelf(head, scope)) this.addReference(scope, { name: qualifier[1]!, qualifier: [head], kind: 'field', line });
          }
        }
      }
    } else if (fn) {
      this.walk(fn, scope);
    }
    if (args) this.walk(args, scope);
  }

  private handleAttribute(node: SyntaxNode, scope: Scope): void {
    const chain = attributeChain(node);
    if (chain.root) {
      this.walk(chain.root, scope);
      return;
    }
    const [head, second] = chain.segments;
    if (!head || !second) return;
    const line = node.startPosition.row + 1;
    if (this.isSelf(head, scope)) {
      this.addReference(scope, { name: second, qualifier: [head], kind: 'field', line });
      // `self.store.size`: the core follows `store`'s value type to the second field.
      const third = chain.segments[2];
      if (third) this.addReference(scope, { name: third, qualifier: [head, second], kind: 'field', line });
      return;
    }
    if (isLocal(scope, head)) {
      const receiverType = lookupLocal(scope, head);
      if (receiverType) this.addReference(scope, { name: second, qualifier: [head], kind: 'field', receiverType, line });
      return;
    }
    if (BUILTIN_VALUES.has(head) && !this.moduleNames.has(head)) return;
    const name = chain.segments[chain.segments.length - 1]!;
    this.addReference(scope, { name, qualifier: chain.segments.slice(0, -1), kind: 'value', line });
  }

  private handleIdentifier(name: string, line: number, scope: Scope): void {
    if (isLocal(scope, name)) return;
    if (BUILTIN_VALUES.has(name) && !this.moduleNames.has(name)) return;
    this.addReference(scope, { name, qualifier: [], kind: 'value', line });
  }

  private handleRaise(node: SyntaxNode, scope: Scope): void {
    const raised = node.namedChildren[0];
    if (raised) {
      const target = raised.type === 'call' ? raised.childForFieldName('function') : raised;
      const ref = target ? nameRefOf(target) : undefined;
      if (ref && !(ref.qualifier.length === 0 && (BUILTIN_EXCEPTIONS.has(ref.name) || isLocal(scope, ref.name)))) {
        this.addReference(scope, { ...ref, kind: 'raise', line: node.startPosition.row + 1 });
      }
      if (raised.type === 'call') {
        const args = raised.childForFieldName('arguments');
        if (args) this.walk(args, scope);
      } else if (!ref) {
        this.walk(raised, scope);
      }
    }
    this.walkField(node, 'cause', scope);
  }

  private handleExcept(node: SyntaxNode, scope: Scope): void {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'block') {
        this.walk(child, scope);
      } else if (child.type === 'as_pattern') {
        const first = child.namedChildren[0];
        if (first) this.addTypeUses(first, scope);
        this.bindField(child, 'alias', scope);
      } else {
        this.addTypeUses(child, scope);
      }
    }
  }

  /** `except (A, b.B)`, `isinstance(x, T)`: each named type is a type use. */
  private addTypeUses(node: SyntaxNode, scope: Scope): void {
    if (node.type === 'tuple' || node.type === 'parenthesized_expression') {
      for (const child of node.namedChildren) if (child) this.addTypeUses(child, scope);
      return;
    }
    const ref = nameRefOf(node);
    if (!ref) return this.walk(node, scope);
    if (ref.qualifier.length === 0 && (BUILTIN_VALUES.has(ref.name) || isLocal(scope, ref.name))) return;
    this.addReference(scope, { ...ref, kind: 'type', line: node.startPosition.row + 1 });
  }

  private handleLambda(node: SyntaxNode, scope: Scope): void {
    const locals = new Map<string, NameRef | undefined>();
    const parameters = node.childForFieldName('parameters');
    if (parameters) for (const name of identifiersOf(parameters)) locals.set(name.text, undefined);
    this.walkField(node, 'body', nestedScope(scope, locals));
  }

  private handleComprehension(node: SyntaxNode, scope: Scope): void {
    const inner = nestedScope(scope, new Map());
    // Loop variables are bound before the element expression that precedes them in the text.
    for (const child of node.namedChildren) {
      if (child?.type !== 'for_in_clause') continue;
      this.walkField(child, 'right', inner);
      this.bindField(child, 'left', inner);
    }
    for (const child of node.namedChildren) if (child && child.type !== 'for_in_clause') this.walk(child, inner);
  }

  private isSelf(name: string, scope: Scope): boolean {
    return scope.classSym >= 0 && (name === 'self' || name === 'cls');
  }

  private addReference(scope: Scope, reference: Omit<Reference, 'from'>): void {
    const from = scope.sym;
    const key = `${from}\0${reference.kind}\0${reference.qualifier.join('.')}\0${reference.name}\0${reference.receiverType ? refKey(reference.receiverType) : ''}`;
    if (this.referenceKeys.has(key)) return;
    this.referenceKeys.add(key);
    this.references.push({ ...reference, from });
  }

  // ---------------------------------------------------------- imports

  private addImport(node: SyntaxNode): void {
    const line = node.startPosition.row + 1;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'dotted_name') {
        const source = child.text;
        const top = source.split('.')[0]!;
        // `import a.b` binds `a` and loads `a.b`: record both so `a.b.f()` resolves.
        if (top !== source) this.imports.push({ source, names: [], line });
        this.imports.push({ source: top, names: [], moduleAlias: top, line });
      } else if (child.type === 'aliased_import') {
        const name = child.childForFieldName('name');
        const alias = child.childForFieldName('alias');
        if (name && alias) this.imports.push({ source: name.text, names: [], moduleAlias: alias.text, line });
      }
    }
  }

  private addFromImport(node: SyntaxNode): void {
    const moduleNode = node.childForFieldName('module_name');
    if (!moduleNode) return;
    const source = moduleNode.text.replace(/\s+/g, '');
    const names: { imported: string; local: string }[] = [];
    for (const child of node.namedChildren) {
      if (!child || child.id === moduleNode.id) continue;
      if (child.type === 'wildcard_import') names.push({ imported: '*', local: '*' });
      else if (child.type === 'dotted_name') names.push({ imported: child.text, local: child.text });
      else if (child.type === 'aliased_import') {
        const name = child.childForFieldName('name');
        const alias = child.childForFieldName('alias');
        if (name && alias) names.push({ imported: name.text, local: alias.text });
      }
    }
    this.imports.push({ source, names, line: node.startPosition.row + 1 });
  }

  /** Names bound at module level, so a module-level `open` or `id` shadows the builtin. */
  private collectModuleNames(root: SyntaxNode): void {
    const visit = (node: SyntaxNode): void => {
      for (const child of node.namedChildren) {
        if (!child) continue;
        switch (child.type) {
          case 'function_definition':
          case 'class_definition': {
            const name = child.childForFieldName('name');
            if (name) this.moduleNames.add(name.text);
            break;
          }
          case 'decorated_definition': {
            const name = child.childForFieldName('definition')?.childForFieldName('name');
            if (name) this.moduleNames.add(name.text);
            break;
          }
          case 'expression_statement': {
            const assignment = child.namedChildren[0];
            const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : null;
            if (left) for (const id of identifiersOf(left)) this.moduleNames.add(id.text);
            break;
          }
          case 'import_from_statement':
            for (const name of child.namedChildren) {
              if (name?.type === 'aliased_import') {
                const alias = name.childForFieldName('alias');
                if (alias) this.moduleNames.add(alias.text);
              } else if (name?.type === 'dotted_name' && name.id !== child.childForFieldName('module_name')?.id) {
                this.moduleNames.add(name.text);
              }
            }
            break;
          case 'if_statement':
          case 'try_statement':
          case 'with_statement':
          case 'block':
          case 'else_clause':
          case 'elif_clause':
          case 'except_clause':
          case 'finally_clause':
            visit(child);
            break;
        }
      }
    };
    visit(root);
  }
}

// -------------------------------------------------------------- helpers

function nestedScope(scope: Scope, locals: Map<string, NameRef | undefined>): Scope {
  return {
    kind: 'function',
    sym: scope.sym,
    names: scope.names,
    parent: scope,
    locals,
    classSym: scope.classSym,
    initialiser: false,
    inTestClass: scope.inTestClass,
    defined: scope.defined,
  };
}

function isLocal(scope: Scope, name: string): boolean {
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    if (s.kind === 'module') return false;
    if (s.kind === 'function' && s.locals?.has(name)) return true;
  }
  return false;
}

function lookupLocal(scope: Scope, name: string): NameRef | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    if (s.kind === 'module') return undefined;
    if (s.kind === 'function' && s.locals?.has(name)) return s.locals.get(name);
  }
  return undefined;
}

function attributeChain(node: SyntaxNode): AttributeChain {
  const segments: string[] = [];
  let current: SyntaxNode | null = node;
  while (current?.type === 'attribute') {
    const attribute = current.childForFieldName('attribute');
    segments.push(attribute ? attribute.text : '?');
    current = current.childForFieldName('object');
  }
  if (current?.type === 'identifier') {
    segments.push(current.text);
    segments.reverse();
    return { segments, root: undefined };
  }
  segments.reverse();
  return { segments, root: current ?? undefined };
}

/** Qualifier segment for an expression receiver: `super` for `super()`, `?` otherwise. */
function rootLabel(root: SyntaxNode): string {
  return isSuperCall(root) ? 'super' : '?';
}

function isSuperCall(node: SyntaxNode): boolean {
  return node.type === 'call' && node.childForFieldName('function')?.text === 'super';
}

/** `Foo(...).m()`: the receiver is evidently a `Foo`. */
function constructedType(root: SyntaxNode): NameRef | undefined {
  if (root.type !== 'call' || isSuperCall(root)) return undefined;
  const fn = root.childForFieldName('function');
  const ref = fn ? nameRefOf(fn) : undefined;
  return ref && /^_*[A-Z]/.test(ref.name) ? ref : undefined;
}

/** A dotted name as a NameRef, or undefined for anything more complex. */
function nameRefOf(node: SyntaxNode): NameRef | undefined {
  if (node.type === 'identifier') return { name: node.text, qualifier: [] };
  if (node.type === 'attribute' || node.type === 'dotted_name') {
    const chain = node.type === 'attribute' ? attributeChain(node) : { segments: node.text.split('.'), root: undefined };
    if (chain.root || chain.segments.length === 0) return undefined;
    return { name: chain.segments[chain.segments.length - 1]!, qualifier: chain.segments.slice(0, -1) };
  }
  return undefined;
}

function identifiersOf(node: SyntaxNode): SyntaxNode[] {
  if (node.type === 'identifier') return [node];
  const out: SyntaxNode[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'identifier') out.push(child);
    else if (child.type === 'pattern_list' || child.type === 'tuple_pattern' || child.type === 'list_pattern' || child.type === 'list_splat_pattern' || child.type === 'parenthesized_expression' || child.type === 'tuple' || child.type === 'list') {
      out.push(...identifiersOf(child));
    } else if (child.type === 'default_parameter' || child.type === 'typed_parameter' || child.type === 'typed_default_parameter') {
      const name = child.childForFieldName('name') ?? child.namedChildren[0];
      if (name?.type === 'identifier') out.push(name);
    }
  }
  return out;
}

function firstParameterName(parameters: SyntaxNode | null): string | undefined {
  const first = parameters?.namedChildren[0];
  if (!first) return undefined;
  if (first.type === 'identifier') return first.text;
  const name = first.childForFieldName('name') ?? first.namedChildren[0];
  return name?.type === 'identifier' ? name.text : undefined;
}

function isPublicName(name: string): boolean {
  return !name.startsWith('_') || (name.startsWith('__') && name.endsWith('__'));
}

function refKey(ref: NameRef): string {
  return [...ref.qualifier, ref.name].join('.');
}

function dedupeRefs(refs: readonly NameRef[]): NameRef[] {
  const seen = new Set<string>();
  const out: NameRef[] = [];
  for (const ref of refs) {
    const key = refKey(ref);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ref);
  }
  return out;
}

function isBuiltinType(ref: NameRef): boolean {
  if (!BUILTIN_TYPES.has(ref.name)) return false;
  return ref.qualifier.length === 0 || TYPING_MODULES.has(ref.qualifier[0]!);
}

/** Every project-meaningful type named in an annotation: `Optional[List[Store]]` → `Store`. */
function collectTypeRefs(node: SyntaxNode, out: NameRef[]): void {
  switch (node.type) {
    case 'identifier':
    case 'attribute':
    case 'dotted_name': {
      const ref = nameRefOf(node);
      if (ref && !isBuiltinType(ref)) out.push(ref);
      return;
    }
    case 'string': {
      const content = node.namedChildren.find((child) => child?.type === 'string_content');
      // Only forward references: `"Order"`, `"Optional[app.Flask]"` — not prose in metadata.
      if (content && TYPE_EXPRESSION_TEXT.test(content.text)) for (const ref of typeRefsInText(content.text)) out.push(ref);
      return;
    }
    case 'generic_type':
    case 'subscript': {
      const base = node.type === 'subscript' ? node.childForFieldName('value') : node.namedChildren[0];
      const baseRef = base ? nameRefOf(base) : undefined;
      if (baseRef?.name === 'Annotated' || baseRef?.name === 'Literal') {
        // Annotated[T, metadata...]: only T is a type; Literal[...] holds values.
        if (baseRef.name === 'Annotated') {
          const params = node.type === 'subscript' ? node.childForFieldName('subscript') : node.namedChildren[1];
          const first = params?.type === 'type_parameter' ? params.namedChildren[0] : params;
          if (first) collectTypeRefs(first, out);
        }
        return;
      }
      for (const child of node.namedChildren) if (child) collectTypeRefs(child, out);
      return;
    }
    case 'none':
    case 'integer':
    case 'float':
    case 'true':
    case 'false':
    case 'comment':
    case 'call':
    case 'keyword_argument':
      return;
    default:
      for (const child of node.namedChildren) if (child) collectTypeRefs(child, out);
  }
}

/** Text a string annotation must look like to be read as a forward reference. */
const TYPE_EXPRESSION_TEXT = /^\s*[A-Za-z_][\w.]*(?:\s*[\[\],|]\s*[A-Za-z_]?[\w.]*)*\s*\]*\s*$/;

/** A forward-reference annotation such as `"Optional[app.Flask]"`, read leniently. */
function typeRefsInText(text: string): NameRef[] {
  const out: NameRef[] = [];
  for (const token of text.split(/[^A-Za-z0-9_.]+/)) {
    if (!token || !/^[A-Za-z_]/.test(token)) continue;
    const segments = token.split('.').filter(Boolean);
    const ref = { name: segments[segments.length - 1]!, qualifier: segments.slice(0, -1) };
    if (!isBuiltinType(ref) && ref.name !== 'None') out.push(ref);
  }
  return out;
}

/**
 * The single type a value annotated this way has, for resolving calls through it:
 * `Store`, `Optional[Store]`, `Store | None`, `"Store"`. Containers give none.
 */
function receiverTypeOf(node: SyntaxNode): NameRef | undefined {
  switch (node.type) {
    case 'type':
    case 'parenthesized_expression': {
      const inner = node.namedChildren[0];
      return inner ? receiverTypeOf(inner) : undefined;
    }
    case 'identifier':
    case 'attribute': {
      const ref = nameRefOf(node);
      return ref && !isBuiltinType(ref) ? ref : undefined;
    }
    case 'string': {
      const content = node.namedChildren.find((child) => child?.type === 'string_content');
      if (!content) return undefined;
      const text = content.text.trim().replace(/^(?:typing\.|t\.)?Optional\[(.*)\]$/, '$1').replace(/\s*\|\s*None$/, '');
      if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(text)) return undefined;
      const segments = text.split('.');
      const ref = { name: segments[segments.length - 1]!, qualifier: segments.slice(0, -1) };
      return isBuiltinType(ref) ? undefined : ref;
    }
    case 'generic_type':
    case 'subscript': {
      const base = node.type === 'subscript' ? node.childForFieldName('value') : node.namedChildren[0];
      const baseRef = base ? nameRefOf(base) : undefined;
      if (!baseRef) return undefined;
      if (baseRef.name === 'Optional' || baseRef.name === 'Annotated' || baseRef.name === 'Final' || baseRef.name === 'ClassVar') {
        const params = node.type === 'subscript' ? node.childForFieldName('subscript') : node.namedChildren[1];
        const first = params?.type === 'type_parameter' ? params.namedChildren[0] : params;
        return first ? receiverTypeOf(first) : undefined;
      }
      return isBuiltinType(baseRef) ? undefined : baseRef;
    }
    case 'binary_operator': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (right?.type === 'none' && left) return receiverTypeOf(left);
      if (left?.type === 'none' && right) return receiverTypeOf(right);
      return undefined;
    }
    default:
      return undefined;
  }
}

function docstringOf(body: SyntaxNode): string {
  const first = body.namedChildren[0];
  if (first?.type !== 'expression_statement') return '';
  const string = first.namedChildren[0];
  if (string?.type !== 'string' || first.namedChildren.length !== 1) return '';
  return stringText(string);
}

/** PEP 257 attribute docstring: a string statement right after the assignment. */
function attributeDocstring(statement: SyntaxNode): string {
  const holder = statement.parent?.type === 'expression_statement' ? statement.parent : statement;
  const next = holder.nextNamedSibling;
  if (next?.type !== 'expression_statement' || next.namedChildren.length !== 1) return '';
  const string = next.namedChildren[0];
  return string?.type === 'string' ? stringText(string) : '';
}

function stringText(string: SyntaxNode): string {
  let text = '';
  for (const child of string.namedChildren) if (child?.type === 'string_content' || child?.type === 'escape_sequence') text += child.text;
  return cleanDoc(text);
}

/** `test_*.py`, `*_test.py`, `conftest.py`, or anything under a `test`/`tests` directory. */
export function isPythonTestFile(path: string): boolean {
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1);
  if (/^test_.*\.pyi?$/.test(base) || /_test\.pyi?$/.test(base) || base === 'conftest.py' || base === 'tests.py') return true;
  return /(^|\/)tests?\//.test(path);
}

/** Dotted module path of a file: `src/flask/app.py` → `flask.app`, `pkg/__init__.py` → `pkg`. */
export function pythonModulePath(path: string): string {
  let module = path.replace(/\.pyi?$/, '').replace(/\/__init__$/, '');
  if (module.startsWith('src/')) module = module.slice(4);
  return module.split('/').join('.');
}

function moduleFiles(base: string, project: ProjectLayout): string[] {
  for (const candidate of [`${base}/__init__.py`, `${base}.py`, `${base}/__init__.pyi`, `${base}.pyi`]) {
    if (project.hasFile(candidate)) return [candidate];
  }
  return [];
}

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function joinPath(dir: string, rest: string): string {
  if (!dir) return rest;
  if (!rest) return dir;
  return `${dir}/${rest}`;
}

/**
 * Resolve a Python import: relative dots from the importing file's package; absolute names
 * from the root, `src/`, or the shallowest directory that holds the package.
 */
function resolvePythonImport(decl: ImportDecl, fromFile: string, project: ProjectLayout): ResolvedImport {
  const source = decl.source;
  if (source.startsWith('.')) {
    const dots = /^\.+/.exec(source)![0].length;
    let dir = dirname(fromFile);
    for (let i = 1; i < dots; i++) {
      if (!dir) return { files: [] };
      dir = dirname(dir);
    }
    const rest = source.slice(dots).split('.').filter(Boolean).join('/');
    if (!rest) {
      const init = [`${joinPath(dir, '__init__.py')}`, `${joinPath(dir, '__init__.pyi')}`].find((f) => project.hasFile(f));
      return { files: init ? [init] : [] };
    }
    return { files: moduleFiles(joinPath(dir, rest), project) };
  }
  const segments = source.split('.').filter(Boolean);
  if (segments.length === 0) return { files: [] };
  const rel = segments.join('/');
  for (const root of ['', 'src/']) {
    const files = moduleFiles(root + rel, project);
    if (files.length > 0) return { files };
  }
  const top = segments[0]!;
  if (!STDLIB_MODULES.has(top) && project.filesEndingWith) {
    // A package under some other source root (`lib/`, `python/`, `packages/x/`): take the
    // shallowest match, so `tests/fixtures/flask/` never shadows the real package.
    const candidates = [
      ...project.filesEndingWith(`${rel}/__init__.py`),
      ...project.filesEndingWith(`${rel}.py`),
    ].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
    // Test trees often hold importable helper packages; only tests may import from them.
    const best = candidates.find((file) => isPythonTestFile(fromFile) || !isPythonTestFile(file.slice(0, file.length - rel.length)));
    if (best) return { files: [best] };
  }
  return { files: [], external: top };
}

function depth(path: string): number {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return count;
}

/**
 * The Python language module (`.py`, `.pyi`).
 *
 * @example
 * ```ts
 * const parser = await createParser('python');
 * const extraction = withTree(parser, source, (tree) => pythonLanguage.extract(tree.rootNode, source, 'pkg/app.py'));
 * ```
 */
export const pythonLanguage: LanguageModule = Object.freeze({
  id: 'python' as const,
  version: VERSION,
  extensions: Object.freeze(['.py', '.pyi']),
  grammarFor: () => 'python' as const,
  isTestFile: isPythonTestFile,
  selfNames: Object.freeze(['self', 'cls']),
  superNames: Object.freeze(['super']),
  extract(root: SyntaxNode, source: string, path: string): FileExtraction {
    const extractor = new PythonExtractor(source, path, root);
    extractor.run(root);
    return {
      path,
      language: 'python',
      symbols: extractor.symbols as readonly SymbolDef[],
      references: extractor.references,
      imports: extractor.imports,
      namespace: pythonModulePath(path),
      syntaxErrors: countSyntaxErrors(root),
    };
  },
  resolveImport: resolvePythonImport,
});

