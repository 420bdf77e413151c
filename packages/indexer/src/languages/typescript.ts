/**
 * TypeScript (and, through {@link createScriptLanguage}, JavaScript) extraction.
 *
 * One walk over the tree with a switch on node type. Declarations are handled by dedicated
 * methods that read the few fields they need; everything else falls through to a generic
 * descent over named children. A stack of frames carries what the walk needs to attribute and
 * type references: the innermost definition (the edge source), the class `this` stands for,
 * typed locals (for receiver types and shadowing) and type parameters (left out of type hints).
 *
 * The core resolves names; this module only records them as written, with two conventions the
 * core's resolver relies on: a default export, and a local exported under another name, are
 * described as re-exports from the file itself (`{ source: './cart.ts', names: [{ imported:
 * 'cart', local: 'default' }], reexport: true }`), and `receiverType` is the type of a
 * qualifier's head (`s.put()` with `s: Store`), never of `this`/`super`, which the core resolves
 * through the enclosing class.
 *
 * The TypeScript and JavaScript grammars share node names (the TS grammar extends the JS one);
 * the differences this module copes with are the class name node (`type_identifier` vs
 * `identifier`), class fields (`public_field_definition.name` vs `field_definition.property`),
 * class heritage (an `extends_clause` vs the bare expression) and where decorators hang.
 */
import type { NodeKind } from '@knowing/graph';
import type { Language, Node } from 'web-tree-sitter';
import type { GrammarName } from '../parser.js';
import { C_COMMENT_OPENERS, MAX_SIGNATURE_CHARS, cleanDoc, countSyntaxErrors, signatureText, sliceWithoutComments, truncate } from './common.js';
import type { CommentScan } from './common.js';
import type { SymbolBuilder } from './common.js';
import type {
  FileExtraction,
  ImportDecl,
  LanguageModule,
  NameRef,
  ProjectLayout,
  Reference,
  ReferenceKind,
  ResolvedImport,
  SupertypeRef,
  SymbolDef,
} from './types.js';

// ---------------------------------------------------------------------------------------------
// Module definitions

/**
 * Version of what `extract` returns, shared by the TypeScript and JavaScript modules. Bump it
 * whenever extraction output changes: the core re-extracts cached files of a new version.
 */
export const SCRIPT_EXTRACTION_VERSION = '3';

/** What distinguishes the TypeScript module from the JavaScript one. */
export interface ScriptLanguageOptions {
  readonly id: 'typescript' | 'javascript';
  readonly extensions: readonly string[];
  grammarFor(path: string): GrammarName;
}

/**
 * Build a TS/JS language module. Both languages share extraction and import resolution; only
 * the id, the extensions and the grammar choice differ.
 */
export function createScriptLanguage(options: ScriptLanguageOptions): LanguageModule {
  const { id, extensions, grammarFor } = options;
  return {
    id,
    version: SCRIPT_EXTRACTION_VERSION,
    extensions,
    grammarFor,
    isTestFile: isScriptTestFile,
    selfNames: ['this'],
    superNames: ['super'],
    extract(root, source, path) {
      return new ScriptExtractor(source, path, id, root).run(root);
    },
    resolveImport: resolveScriptImport,
  };
}

/**
 * TypeScript: `.ts`, `.mts`, `.cts` parse with the `typescript` grammar, `.tsx` with `tsx`
 * (the plain TS grammar rejects JSX; the TSX grammar rejects `<T>expr` casts).
 *
 * @example
 * ```ts
 * const parser = await createParser(typescriptLanguage.grammarFor('src/app.tsx'));
 * const extraction = withTree(parser, source, (tree) => typescriptLanguage.extract(tree.rootNode, source, 'src/app.tsx'));
 * ```
 */
export const typescriptLanguage: LanguageModule = createScriptLanguage({
  id: 'typescript',
  extensions: ['.ts', '.mts', '.cts', '.tsx'],
  grammarFor: (path) => (path.toLowerCase().endsWith('.tsx') ? 'tsx' : 'typescript'),
});

/** `*.test.ts`, `*.spec.js`, `*.e2e-spec.ts`, `*_test.ts`, or anything under `__tests__/`, `test/`, `tests/`, `spec/`, `e2e/`. */
export function isScriptTestFile(path: string): boolean {
  return TEST_FILE_NAME.test(path) || TEST_DIRECTORY.test(path);
}

const TEST_FILE_NAME = /(?:\.(?:test|spec|e2e|e2e-spec)|_test)\.[cm]?[jt]sx?$/i;
const TEST_DIRECTORY = /(?:^|\/)(?:__tests__|__test__|tests?|spec|e2e)\//;

// ---------------------------------------------------------------------------------------------
// Tables

/**
 * Types named in annotations that are never project symbols: primitives, the standard
 * library's containers and utility types. Their type arguments are still looked into, which
 * is how `Promise<User[]>` yields `User`.
 */
const BUILTIN_TYPES: ReadonlySet<string> = new Set([
  'string', 'number', 'boolean', 'any', 'unknown', 'void', 'never', 'object', 'symbol', 'bigint', 'undefined', 'null',
  'Promise', 'PromiseLike', 'Array', 'ReadonlyArray', 'Record', 'Partial', 'Required', 'Readonly', 'Pick', 'Omit',
  'Exclude', 'Extract', 'NonNullable', 'ReturnType', 'Parameters', 'InstanceType', 'ConstructorParameters', 'Awaited',
  'ThisType', 'ThisParameterType', 'OmitThisParameter', 'NoInfer', 'Uppercase', 'Lowercase', 'Capitalize', 'Uncapitalize',
  'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'ReadonlyMap', 'ReadonlySet', 'Iterable', 'Iterator', 'IterableIterator',
  'AsyncIterable', 'AsyncIterator', 'AsyncIterableIterator', 'Generator', 'AsyncGenerator', 'ArrayLike', 'PropertyKey',
  'Function', 'Object', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Date', 'RegExp', 'Error', 'TypeError',
  'RangeError', 'SyntaxError', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Uint8Array', 'Int8Array',
  'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
  'BigUint64Array', 'Uint8ClampedArray', 'TemplateStringsArray', 'JSON', 'Math', 'Console', 'Intl',
]);

/** Node.js core modules, imported with or without the `node:` prefix; all map to the external package `node`. */
const NODE_BUILTINS: ReadonlySet<string> = new Set([
  'assert', 'async_hooks', 'buffer', 'child_process', 'cluster', 'console', 'constants', 'crypto', 'dgram',
  'diagnostics_channel', 'dns', 'domain', 'events', 'fs', 'http', 'http2', 'https', 'inspector', 'module', 'net', 'os',
  'path', 'perf_hooks', 'process', 'punycode', 'querystring', 'readline', 'repl', 'stream', 'string_decoder', 'sys',
  'timers', 'tls', 'trace_events', 'tty', 'url', 'util', 'v8', 'vm', 'wasi', 'worker_threads', 'zlib',
]);

/** Global functions and constructors of JavaScript runtimes: calls to them lead nowhere in the repository. */
const GLOBAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'Array', 'ArrayBuffer', 'BigInt', 'Boolean', 'DataView', 'Date', 'Error', 'EvalError', 'Function', 'Map', 'Number',
  'Object', 'Promise', 'Proxy', 'RangeError', 'ReferenceError', 'RegExp', 'Set', 'String', 'Symbol', 'SyntaxError',
  'TypeError', 'URIError', 'WeakMap', 'WeakRef', 'WeakSet', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
  'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
  'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'AbortController', 'Headers', 'Request', 'Response',
  'FormData', 'Blob', 'Event', 'EventTarget', 'CustomEvent', 'parseInt', 'parseFloat', 'isNaN', 'isFinite',
  'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI', 'setTimeout', 'clearTimeout', 'setInterval',
  'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'structuredClone', 'fetch', 'atob', 'btoa',
  'require', 'eval', 'alert',
  // Test-runner globals (Jest, Mocha, Jasmine) when a test file does not import them.
  'describe', 'it', 'test', 'expect', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'before', 'after', 'xit',
  'xdescribe', 'fit', 'fdescribe',
]);

/** Global objects whose methods are runtime APIs (`console.log`, `Object.assign`, `JSON.parse`). */
const GLOBAL_OBJECTS: ReadonlySet<string> = new Set([
  'console', 'Math', 'JSON', 'Object', 'Array', 'Promise', 'Number', 'String', 'Reflect', 'Symbol', 'Date', 'Intl',
  'BigInt', 'Atomics', 'process', 'globalThis', 'window', 'document', 'navigator', 'Buffer', 'URL', 'localStorage',
  'sessionStorage', 'performance', 'crypto', 'module', 'exports', 'jest', 'vi', 'describe', 'it', 'test', 'expect',
]);

/** Call wrappers whose function argument is the real definition: `const Button = memo((p) => …)`. */
const FUNCTION_WRAPPERS: ReadonlySet<string> = new Set([
  'memo', 'forwardRef', 'observer', 'lazy', 'debounce', 'throttle', 'once', 'memoize', 'curry',
]);

/** Node types that are type syntax; met outside a declaration's own signature they become `type` references. */
const TYPE_NODES: ReadonlySet<string> = new Set([
  'type_annotation', 'type_arguments', 'type_identifier', 'nested_type_identifier', 'generic_type', 'union_type',
  'intersection_type', 'array_type', 'tuple_type', 'object_type', 'function_type', 'constructor_type',
  'parenthesized_type', 'conditional_type', 'lookup_type', 'index_type_query', 'readonly_type',
  'type_predicate_annotation', 'asserts_annotation', 'type_parameters', 'optional_type', 'rest_type', 'infer_type',
  'mapped_type_clause', 'type_query', 'literal_type', 'predefined_type', 'template_literal_type', 'this_type',
  'opting_type_annotation', 'omitting_type_annotation', 'adding_type_annotation',
]);

/** Leaves and subtrees with nothing to extract. */
const SKIPPED_NODES: ReadonlySet<string> = new Set([
  'comment', 'string', 'number', 'regex', 'true', 'false', 'null', 'undefined', 'this', 'super',
  'property_identifier', 'private_property_identifier', 'statement_identifier', 'shorthand_property_identifier_pattern',
  'hash_bang_line', 'html_comment', 'jsx_text', 'jsx_closing_element', 'empty_statement', 'debugger_statement',
  'escape_sequence', 'string_fragment', 'meta_property', 'import', 'index_signature', 'accessibility_modifier',
  'override_modifier',
]);

const LITERAL_NODES: ReadonlySet<string> = new Set([
  'number', 'string', 'template_string', 'true', 'false', 'null', 'undefined', 'regex', 'object', 'array',
]);

/** Callees that define a property by name: `Object.defineProperty`, `__defineGetter__`, a local `defineGetter` helper. */
const DEFINE_PROPERTY_CALLEE = /define_?(?:getter|setter|property)/i;

const FUNCTION_VALUES: ReadonlySet<string> = new Set([
  'arrow_function', 'function_expression', 'function', 'generator_function',
]);

const MEMBER_KINDS: ReadonlySet<NodeKind> = new Set(['method', 'constructor', 'property', 'field', 'constant']);

// ---------------------------------------------------------------------------------------------
// Extraction state

/** Bookkeeping kept beside each symbol, not emitted. */
interface SymbolMeta {
  /** `scope` plus `name`: the scope of the symbol's members. */
  readonly path: readonly string[];
  /** Members: exported exactly when the container is (and the member is not private). */
  readonly inheritsExport: boolean;
  readonly isPrivate: boolean;
  hintKeys?: Set<string>;
}

interface ClassInfo {
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

interface PendingField {
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly signature: string;
  readonly valueType: NameRef | undefined;
}

/** One lexical level of the walk. */
interface Frame {
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
interface DeclContext {
  readonly exported: boolean;
  readonly isDefault: boolean;
  /** The outermost node of the statement (an `export_statement`, say): doc, start line and signature start. */
  readonly outer: Node;
  readonly decorators: readonly Node[];
}

interface ImportBinding {
  readonly source: string;
  /** `default`, a name, or `*` for a namespace import. */
  readonly imported: string;
  /** The declaration that binds it. */
  readonly decl: ImportDecl;
}

interface FunctionParts {
  name: Node | null;
  params: Node | null;
  returnType: Node | null;
  body: Node | null;
  typeParams: Node | null;
}

interface Flattened {
  readonly segments: string[];
  /** Sub-expressions the flattening could not name (call arguments, subscripts); the walk visits them. */
  readonly pending: Node[];
}

const EMPTY: readonly string[] = Object.freeze([]);

/** Fields this module reads. Looked up by id: `childForFieldName` scans the grammar's field list on every call. */
const FIELD_NAMES = [
  'alias', 'arguments', 'body', 'function', 'key', 'left', 'name', 'parameter', 'pattern', 'right', 'source', 'type',
  'type_arguments', 'type_parameters', 'value',
] as const;
type FieldName = (typeof FIELD_NAMES)[number];
type FieldIds = Readonly<Record<FieldName, number>>;
const fieldIdCache = new WeakMap<Language, FieldIds>();

function fieldIdsOf(language: Language): FieldIds {
  let ids = fieldIdCache.get(language);
  if (!ids) {
    const table: Partial<Record<FieldName, number>> = {};
    for (const name of FIELD_NAMES) table[name] = language.fieldIdForName(name) ?? -1;
    ids = table as FieldIds;
    fieldIdCache.set(language, ids);
  }
  return ids;
}

class ScriptExtractor {
  private readonly symbols: SymbolBuilder[] = [];
  private readonly meta: SymbolMeta[] = [];
  private readonly symbolByKey = new Map<string, number>();
  /** File-level symbols by name (first wins). */
  private readonly topLevel = new Map<string, number>();
  private readonly references: Reference[] = [];
  private readonly referenceKeys = new Set<string>();
  /** Identifier uses kept only if the name turns out to be imported or defined at file level. */
  private readonly valueCandidates = new Set<Reference>();
  /** Calls of JavaScript globals, kept only if the file imports or defines the name after all. */
  private readonly globalCandidates = new Set<Reference>();
  private readonly imports: ImportDecl[] = [];
  private readonly importBindings = new Map<string, ImportBinding>();
  private readonly moduleAliases = new Set<string>();
  private readonly localExports: { local: string; exported: string; line: number }[] = [];
  private readonly selfReexports = new Set<string>();
  /** ES5 constructor candidates by symbol index, and the functions that received prototype members. */
  private readonly constructorFunctions = new Map<number, ClassInfo>();
  private readonly prototypeOwners = new Set<number>();
  private readonly selfSource: string;
  private readonly isTest: boolean;
  private readonly isDeclarationFile: boolean;
  private defaultNameCache: string | undefined;
  private fieldIds: FieldIds | undefined;

  private readonly commentScan: CommentScan;

  constructor(
    private readonly src: string,
    private readonly path: string,
    private readonly language: 'typescript' | 'javascript',
    root: Node,
  ) {
    this.commentScan = { root, openers: C_COMMENT_OPENERS };
    const slash = path.lastIndexOf('/');
    this.selfSource = './' + path.slice(slash + 1);
    this.isTest = isScriptTestFile(path);
    this.isDeclarationFile = /\.d\.[cm]?ts$/i.test(path);
  }

  run(root: Node): FileExtraction {
    this.fieldIds = fieldIdsOf(root.tree.language);
    const moduleFrame: Frame = {
      def: -1,
      thisType: undefined,
      cls: undefined,
      parent: undefined,
      moduleLevel: true,
      ambient: this.isDeclarationFile,
      locals: undefined,
      typeParams: undefined,
    };
    this.visitChildren(root, moduleFrame);
    this.finishExports();
    return {
      path: this.path,
      language: this.language,
      symbols: this.symbols.map(freezeSymbol),
      references:
        this.valueCandidates.size === 0 && this.globalCandidates.size === 0 ? this.references : this.references.filter((ref) => this.keepReference(ref)),
      imports: this.imports,
      namespace: '',
      syntaxErrors: countSyntaxErrors(root),
    };
  }

  // -------------------------------------------------------------------------------------------
  // The walk

  private visitChildren(node: Node, f: Frame): void {
    for (const child of node.namedChildren) if (child) this.visit(child, f);
  }

  private visit(node: Node, f: Frame): void {
    const type = node.type;
    if (SKIPPED_NODES.has(type)) return;
    if (TYPE_NODES.has(type)) {
      this.typeReferences(node, f);
      return;
    }
    switch (type) {
      case 'identifier':
      case 'shorthand_property_identifier':
        this.useIdentifier(node, f);
        return;
      case 'import_statement':
        this.onImport(node);
        return;
      case 'export_statement':
        this.onExport(node, f);
        return;
      case 'ambient_declaration':
        this.onAmbient(node, f, { exported: false, isDefault: false, outer: node, decorators: EMPTY_NODES });
        return;
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'function_signature':
        this.onFunctionDeclaration(node, f, this.plainContext(node, f));
        return;
      case 'class_declaration':
      case 'abstract_class_declaration':
        this.onClass(node, f, this.plainContext(node, f), undefined);
        return;
      case 'class':
        this.onAnonymousClass(node, f);
        return;
      case 'interface_declaration':
        this.onInterface(node, f, this.plainContext(node, f));
        return;
      case 'type_alias_declaration':
        this.onTypeAlias(node, f, this.plainContext(node, f));
        return;
      case 'enum_declaration':
        this.onEnum(node, f, this.plainContext(node, f));
        return;
      case 'internal_module':
      case 'module':
        this.onNamespace(node, f, this.plainContext(node, f));
        return;
      case 'lexical_declaration':
      case 'variable_declaration':
        this.onVariables(node, f, this.plainContext(node, f));
        return;
      case 'expression_statement':
        this.onExpressionStatement(node, f);
        return;
      case 'call_expression':
        this.onCall(node, f);
        return;
      case 'new_expression':
        this.onNew(node, f, 'new');
        return;
      case 'throw_statement':
        this.onThrow(node, f);
        return;
      case 'member_expression':
        this.onMember(node, f);
        return;
      case 'assignment_expression':
        this.onAssignment(node, f);
        return;
      case 'arrow_function':
      case 'function_expression':
      case 'function':
      case 'generator_function':
        this.visitFunction(node, this.anonymousFrame(node, f), undefined);
        return;
      case 'method_definition':
        // An object-literal method outside any statically named object.
        this.visitFunction(node, this.childFrame(f, f.def, undefined, f.cls), undefined);
        return;
      case 'jsx_opening_element':
      case 'jsx_self_closing_element':
        this.onJsxElement(node, f);
        return;
      case 'binary_expression':
        this.onBinary(node, f);
        return;
      case 'catch_clause':
        this.onCatch(node, f);
        return;
      case 'for_in_statement':
        this.onForIn(node, f);
        return;
      case 'variable_declarator':
        this.onLocalDeclarator(node, f);
        return;
      case 'pair': {
        const [key, value] = node.namedChildren;
        if (key?.type === 'computed_property_name') this.visitChildren(key, f);
        if (value) this.visit(value, f);
        return;
      }
      case 'decorator':
        this.visitDecoratorArguments(node, f);
        return;
      case 'import_alias':
        return;
      default:
        this.visitChildren(node, f);
    }
  }

  private visitField(node: Node, field: FieldName, f: Frame): void {
    const child = this.field(node, field);
    if (child) this.visit(child, f);
  }

  private plainContext(node: Node, f: Frame): DeclContext {
    return { exported: f.ambient, isDefault: false, outer: node, decorators: EMPTY_NODES };
  }

  // -------------------------------------------------------------------------------------------
  // Frames

  private childFrame(f: Frame, def: number, thisType: NameRef | undefined, cls: ClassInfo | undefined): Frame {
    return { def, thisType, cls, parent: f, moduleLevel: false, ambient: f.ambient, locals: undefined, typeParams: undefined };
  }

  /** A callback or other unnamed function: same edge source; arrows keep `this`, functions lose it. */
  private anonymousFrame(node: Node, f: Frame): Frame {
    const keepsThis = node.type === 'arrow_function';
    return this.childFrame(f, f.def, keepsThis ? f.thisType : undefined, f.cls);
  }

  private declareLocal(f: Frame, name: string, type: NameRef | null): void {
    (f.locals ??= new Map()).set(name, type);
  }

  /** The nearest declaration of `name`: its type (or null) and whether it is module-level. */
  private lookupLocal(name: string, f: Frame): { type: NameRef | null; moduleLevel: boolean } | undefined {
    for (let frame: Frame | undefined = f; frame; frame = frame.parent) {
      const hit = frame.locals?.get(name);
      if (hit !== undefined) return { type: hit, moduleLevel: frame.moduleLevel && frame.def === -1 };
    }
    return undefined;
  }

  private isTypeParameter(name: string, f: Frame, own: ReadonlySet<string> | undefined): boolean {
    if (own?.has(name)) return true;
    for (let frame: Frame | undefined = f; frame; frame = frame.parent) if (frame.typeParams?.has(name)) return true;
    return false;
  }

  // -------------------------------------------------------------------------------------------
  // Symbols

  private field(node: Node | null | undefined, name: FieldName): Node | null {
    if (!node) return null;
    const id = this.fieldIds![name];
    return id < 0 ? null : node.childForFieldId(id);
  }

  private text(node: Node): string {
    return this.src.slice(node.startIndex, node.endIndex);
  }

  private scopeOf(f: Frame): readonly string[] {
    return f.def >= 0 ? this.meta[f.def]!.path : EMPTY;
  }

  /**
   * Add a definition, or merge it into an earlier one with the same parent, name and kind
   * (overload signatures and their implementation, getter/setter pairs, declaration merging,
   * redeclared `var`s): one qualified name must stay one symbol.
   */
  private addSymbol(
    init: Omit<SymbolBuilder, 'isTest' | 'doc' | 'signature'> & { doc?: string; signature?: string },
    options: { inheritsExport: boolean; isPrivate?: boolean },
  ): number {
    const key = `${init.parent}\u0000${init.scope.join('\u0000')}\u0000${init.name}\u0000${init.kind}`;
    const existing = this.symbolByKey.get(key);
    if (existing !== undefined) {
      const sym = this.symbols[existing]!;
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
    const index = this.symbols.length;
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
    this.symbols.push(sym);
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

  private addHint(index: number, hint: NameRef): void {
    const meta = this.meta[index]!;
    const key = hint.qualifier.length === 0 ? hint.name : `${hint.qualifier.join('.')}.${hint.name}`;
    const keys = (meta.hintKeys ??= new Set());
    if (keys.has(key)) return;
    keys.add(key);
    (this.symbols[index]!.typeHints ??= []).push(hint);
  }

  /** The `/** … *\/` comment right before `outer` (decorators and blank lines aside). */
  private docFor(outer: Node): string {
    let previous = outer.previousNamedSibling;
    while (previous && previous.type === 'decorator') previous = previous.previousNamedSibling;
    if (!previous || previous.type !== 'comment') return '';
    const start = previous.startIndex;
    if (this.src.charCodeAt(start + 2) !== 42 /* * */ || this.src.charCodeAt(start + 1) !== 42) return '';
    if (previous.endPosition.row < outer.startPosition.row - 2) return '';
    const raw = this.src.slice(start + 3, previous.endIndex);
    const body = raw.endsWith('*/') ? raw.slice(0, -2) : raw;
    return cleanDoc(body.replace(/^[ \t]*\*(?!\/) ?/gm, ''));
  }

  /** Where a declaration's signature starts: after its decorators. */
  private signatureStart(outer: Node): number {
    if (outer.firstNamedChild?.type !== 'decorator') return outer.startIndex;
    for (const child of outer.children) if (child && child.type !== 'decorator' && child.type !== 'comment') return child.startIndex;
    return outer.startIndex;
  }

  private signature(from: number, to: number): string {
    return signatureText(this.src, from, Math.min(to, from + MAX_SIGNATURE_CHARS * 3), this.commentScan);
  }

  /** Signature of a whole declaration without a body (fields, members, aliases), trailing `;` dropped. */
  private wholeSignature(from: number, node: Node): string {
    const end = Math.min(node.endIndex, from + MAX_SIGNATURE_CHARS * 3);
    return truncate(sliceWithoutComments(this.src, from, end, this.commentScan).replace(/\s+/g, ' ').trim().replace(/[;,]$/, ''), MAX_SIGNATURE_CHARS);
  }

  private startLineOf(ctx: DeclContext): number {
    const first = ctx.decorators[0];
    const row = first && first.startIndex < ctx.outer.startIndex ? first.startPosition.row : ctx.outer.startPosition.row;
    return row + 1;
  }

  private defaultName(): string {
    if (this.defaultNameCache !== undefined) return this.defaultNameCache;
    const parts = this.path.split('/');
    let base = (parts[parts.length - 1] ?? '').replace(/(?:\.d)?\.[cm]?[jt]sx?$/i, '');
    if (base === 'index' && parts.length >= 2) base = parts[parts.length - 2]!;
    this.defaultNameCache = /^[A-Za-z_$][\w$]*$/.test(base) && base !== 'index' ? base : 'default';
    return this.defaultNameCache;
  }

  /** Record that `name` (a file-level symbol) is this module's default export. */
  private exportDefaultAs(name: string, line: number): void {
    this.selfReexport(name, 'default', line);
  }

  /** `local` of this file is exported as `exported`: a re-export from the file itself, once per pair. */
  private selfReexport(local: string, exported: string, line: number): void {
    const key = `${local}\u0000${exported}`;
    if (this.selfReexports.has(key)) return;
    this.selfReexports.add(key);
    this.imports.push({ source: this.selfSource, names: [{ imported: local, local: exported }], reexport: true, line });
  }

  // -------------------------------------------------------------------------------------------
  // Types

  /** Collect the non-builtin named types in a type subtree. */
  private collectTypes(node: Node, f: Frame, own: ReadonlySet<string> | undefined, out: NameRef[]): void {
    switch (node.type) {
      case 'type_identifier': {
        const name = this.text(node);
        if (!BUILTIN_TYPES.has(name) && !this.isTypeParameter(name, f, own)) out.push({ name, qualifier: EMPTY });
        return;
      }
      case 'nested_type_identifier': {
        const ref = this.nameRef(node);
        if (ref) out.push(ref);
        return;
      }
      case 'generic_type': {
        const name = this.field(node, 'name');
        if (name) this.collectTypes(name, f, own, out);
        const args = this.field(node, 'type_arguments');
        if (args) this.collectTypes(args, f, own, out);
        return;
      }
      case 'predefined_type':
      case 'literal_type':
      case 'type_query':
      case 'template_literal_type':
      case 'this_type':
      case 'infer_type':
      case 'string':
      case 'number':
      case 'identifier':
      case 'property_identifier':
        return;
      case 'mapped_type_clause': {
        const inner = this.field(node, 'type');
        if (inner) this.collectTypes(inner, f, own, out);
        return;
      }
      default:
        for (const child of node.namedChildren) if (child) this.collectTypes(child, f, own, out);
    }
  }

  private typesOf(node: Node | null, f: Frame, own?: ReadonlySet<string>): NameRef[] {
    if (!node) return [];
    const out: NameRef[] = [];
    this.collectTypes(node, f, own, out);
    return out;
  }

  /** Type syntax outside a declaration's signature: casts, generic arguments, local annotations. */
  private typeReferences(node: Node, f: Frame): void {
    if (node.type === 'type_parameters') {
      this.declareTypeParameters(node, f);
      return;
    }
    const line = node.startPosition.row + 1;
    for (const ref of this.typesOf(node, f)) this.addReference(ref.name, ref.qualifier, 'type', f.def, line, undefined);
  }

  private declareTypeParameters(node: Node | null, f: Frame): Set<string> | undefined {
    if (!node) return undefined;
    let names: Set<string> | undefined;
    for (const param of node.namedChildren) {
      if (param?.type !== 'type_parameter') continue;
      const name = this.field(param, 'name');
      if (name) (names ??= new Set()).add(this.text(name));
    }
    if (names) {
      if (f.typeParams) for (const name of names) f.typeParams.add(name);
      else f.typeParams = names;
    }
    return names;
  }

  /** The type a value of this annotation has, for receivers: `Store | undefined` → `Store`, `Repo<User>` → `Repo`. */
  private mainType(node: Node | null, f: Frame, own?: ReadonlySet<string>): NameRef | undefined {
    if (!node) return undefined;
    switch (node.type) {
      case 'type_annotation':
      case 'parenthesized_type':
      case 'readonly_type':
        return node.firstNamedChild ? this.mainType(node.firstNamedChild, f, own) : undefined;
      case 'type_identifier': {
        const name = this.text(node);
        return BUILTIN_TYPES.has(name) || this.isTypeParameter(name, f, own) ? undefined : { name, qualifier: EMPTY };
      }
      case 'nested_type_identifier':
        return this.nameRef(node);
      case 'generic_type':
        return this.mainType(this.field(node, 'name'), f, own);
      case 'union_type': {
        let found: NameRef | undefined;
        for (const member of node.namedChildren) {
          if (!member || member.type === 'literal_type' || member.type === 'predefined_type') continue;
          if (found) return undefined;
          found = this.mainType(member, f, own);
          if (!found) return undefined;
        }
        return found;
      }
      default:
        return undefined;
    }
  }

  /** The type an initialiser evidently produces: `new Foo()`, `x as Foo`, `<Foo>x`. */
  private initialiserType(value: Node | null, f: Frame): NameRef | undefined {
    if (!value) return undefined;
    switch (value.type) {
      case 'new_expression': {
        const ref = this.nameRef(value.namedChildren[0] ?? null);
        return ref && !(ref.qualifier.length === 0 && BUILTIN_TYPES.has(ref.name)) ? ref : undefined;
      }
      case 'as_expression':
      case 'satisfies_expression':
        return this.mainType(value.lastNamedChild, f);
      case 'type_assertion':
        return this.mainType(value.firstNamedChild?.firstNamedChild ?? null, f);
      case 'await_expression':
      case 'parenthesized_expression':
      case 'non_null_expression':
        return this.initialiserType(value.firstNamedChild, f);
      default:
        return undefined;
    }
  }

  /** An identifier or dotted chain as a name: `a.b.C` → `C` qualified by `['a', 'b']`. */
  private nameRef(node: Node | null): NameRef | undefined {
    if (!node) return undefined;
    const type = node.type;
    switch (type) {
      case 'identifier':
      case 'type_identifier':
      case 'property_identifier':
      case 'private_property_identifier':
        return { name: this.text(node), qualifier: EMPTY };
      case 'this':
      case 'super':
        return { name: type, qualifier: EMPTY };
      case 'member_expression':
      case 'nested_type_identifier':
      case 'nested_identifier': {
        // Named children: object (module), optional `?.`, property (name).
        const children = node.namedChildren;
        const object = children[0] ?? null;
        const property = children.length > 1 ? children[children.length - 1] : undefined;
        const outer = this.nameRef(object);
        if (!outer || !property) return undefined;
        return { name: this.text(property), qualifier: [...outer.qualifier, outer.name] };
      }
      case 'generic_type':
        return this.nameRef(this.field(node, 'name'));
      case 'call_expression':
        return this.nameRef(node.namedChildren[0] ?? null);
      case 'parenthesized_expression':
      case 'non_null_expression':
        return this.nameRef(node.firstNamedChild);
      default:
        return undefined;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Parameters and function bodies

  /**
   * Declare a function's parameters in `frame`; their annotations become `hints` (a
   * definition's signature) or `type` references (a callback's). Default values are walked.
   * Returns the parameter properties of a constructor (`constructor(private s: Store)`).
   */
  private visitParameters(params: Node | null, frame: Frame, hints: NameRef[] | undefined, own: ReadonlySet<string> | undefined): Node[] {
    if (!params) return [];
    const properties: Node[] = [];
    if (params.type !== 'formal_parameters') {
      // `x => …`: a single bare parameter.
      if (params.type === 'identifier') this.declareLocal(frame, this.text(params), null);
      return properties;
    }
    for (const param of params.namedChildren) {
      if (!param) continue;
      switch (param.type) {
        case 'required_parameter':
        case 'optional_parameter': {
          let pattern: Node | null = null;
          let typeNode: Node | null = null;
          let value: Node | null = null;
          let isProperty = false;
          let afterEquals = false;
          for (const child of param.children) {
            if (!child) continue;
            if (afterEquals) {
              value = child;
              break;
            }
            switch (child.type) {
              case 'accessibility_modifier':
              case 'override_modifier':
              case 'readonly':
                isProperty = true;
                break;
              case 'decorator':
                this.visitDecoratorArguments(child, frame);
                break;
              case 'type_annotation':
                typeNode = child;
                break;
              case '=':
                afterEquals = true;
                break;
              case '?':
              case 'comment':
                break;
              default:
                pattern ??= child;
            }
          }
          const declared = this.mainType(typeNode, frame, own) ?? null;
          if (pattern?.type === 'identifier') this.declareLocal(frame, this.text(pattern), declared);
          else if (pattern) for (const name of this.patternNames(pattern)) this.declareLocal(frame, name, null);
          if (typeNode) {
            if (hints) hints.push(...this.typesOf(typeNode, frame, own));
            else this.typeReferences(typeNode, frame);
          }
          if (value) this.visit(value, frame);
          if (isProperty) properties.push(param);
          break;
        }
        case 'identifier':
          this.declareLocal(frame, this.text(param), null);
          break;
        case 'assignment_pattern': {
          for (const name of this.patternNames(param)) this.declareLocal(frame, name, null);
          this.visitField(param, 'right', frame);
          break;
        }
        default:
          for (const name of this.patternNames(param)) this.declareLocal(frame, name, null);
      }
    }
    return properties;
  }

  /** Names bound by a destructuring pattern. */
  private patternNames(pattern: Node): string[] {
    const out: string[] = [];
    const walk = (node: Node): void => {
      switch (node.type) {
        case 'identifier':
        case 'shorthand_property_identifier_pattern':
          out.push(this.text(node));
          return;
        case 'pair_pattern': {
          const value = this.field(node, 'value');
          if (value) walk(value);
          return;
        }
        case 'assignment_pattern':
        case 'object_assignment_pattern': {
          const left = this.field(node, 'left');
          if (left) walk(left);
          return;
        }
        case 'object_pattern':
        case 'array_pattern':
        case 'rest_pattern':
          for (const child of node.namedChildren) if (child) walk(child);
          return;
        default:
          return;
      }
    };
    walk(pattern);
    return out;
  }

  /**
   * Walk a function-like node (declaration, expression, arrow, method) in `frame`: parameters,
   * then the body. Hints from the parameter and return annotations go to `hints` when given.
   */
  private visitFunction(node: Node, frame: Frame, hints: NameRef[] | undefined, own?: ReadonlySet<string>): Node[] {
    const parts = this.functionParts(node);
    if (!own && parts.typeParams) this.declareTypeParameters(parts.typeParams, frame);
    const properties = this.visitParameters(parts.params, frame, hints, own);
    if (parts.returnType) {
      if (hints) hints.push(...this.typesOf(parts.returnType, frame, own));
      else this.typeReferences(parts.returnType, frame);
    }
    if (parts.body) this.visit(parts.body, frame);
    return properties;
  }

  /** Fields of a function-like node without walking it. */
  private functionParts(node: Node): FunctionParts {
    const parts: FunctionParts = { name: null, params: null, returnType: null, body: null, typeParams: null };
    const children = node.namedChildren;
    const isArrow = node.type === 'arrow_function';
    const last = children.length - 1;
    for (let i = 0; i <= last; i++) {
      const child = children[i];
      if (!child) continue;
      if (isArrow && i === last) {
        parts.body = child;
        break;
      }
      switch (child.type) {
        case 'formal_parameters':
          parts.params = child;
          break;
        case 'statement_block':
          if (i === last) parts.body = child;
          break;
        case 'type_annotation':
        case 'type_predicate_annotation':
        case 'asserts_annotation':
          parts.returnType = child;
          break;
        case 'type_parameters':
          parts.typeParams = child;
          break;
        case 'identifier':
          // `x => …` has a bare parameter where other functions have a name.
          if (isArrow) parts.params = child;
          else parts.name ??= child;
          break;
        case 'property_identifier':
        case 'private_property_identifier':
        case 'computed_property_name':
        case 'string':
        case 'number':
          parts.name ??= child;
          break;
        default:
          break;
      }
    }
    return parts;
  }

  /** `name: Type = value` of a variable declarator or class field, from one read of its children. */
  private bindingParts(node: Node): { name: Node | null; type: Node | null; value: Node | null } {
    const parts: { name: Node | null; type: Node | null; value: Node | null } = { name: null, type: null, value: null };
    for (const child of node.namedChildren) {
      if (!child) continue;
      switch (child.type) {
        case 'decorator':
        case 'accessibility_modifier':
        case 'override_modifier':
        case 'comment':
          break;
        case 'type_annotation':
          parts.type = child;
          break;
        default:
          if (parts.name === null) parts.name = child;
          else parts.value = child;
      }
    }
    return parts;
  }

  // -------------------------------------------------------------------------------------------
  // Declarations

  private onFunctionDeclaration(node: Node, f: Frame, ctx: DeclContext, nameOverride?: string): number {
    const nameNode = this.field(node, 'name');
    const name = nameOverride ?? (nameNode ? this.text(nameNode) : this.defaultName());
    const parts = this.functionParts(node);
    const own = this.typeParameterNames(parts.typeParams);
    const scope = this.scopeOf(f);
    const nested = !f.moduleLevel;
    const hints: NameRef[] = [];
    const index = this.addSymbol(
      {
        name,
        kind: 'function',
        scope,
        startLine: this.startLineOf(ctx),
        endLine: node.endPosition.row + 1,
        signature: this.signature(this.signatureStart(ctx.outer), parts.body ? parts.body.startIndex : node.endIndex),
        doc: this.docFor(ctx.outer),
        parent: f.def,
        exported: ctx.exported && !nested,
      },
      { inheritsExport: false },
    );
    const es5 = parts.body && !nested ? this.constructorCandidate(name, index, f) : undefined;
    const frame = this.childFrame(f, index, es5 ? { name, qualifier: EMPTY } : undefined, es5);
    if (own) frame.typeParams = new Set(own);
    this.visitFunction(node, frame, hints, own);
    for (const hint of hints) this.addHint(index, hint);
    if (ctx.isDefault) this.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
    return index;
  }

  /**
   * A capitalised file-level function may be an ES5 constructor (`function Store() { this.items = [] }`
   * plus `Store.prototype.add = …`). Its `this.x` assignments are held back until a prototype
   * assignment confirms it; then it becomes a class with those fields.
   */
  private constructorCandidate(name: string, index: number, f: Frame): ClassInfo | undefined {
    if (f.def !== -1 || !f.moduleLevel) return undefined;
    const first = name.charCodeAt(0);
    if (first < 65 || first > 90) return undefined;
    const cls: ClassInfo = { name, index, declared: new Set(), ctorIndex: index, pending: [] };
    this.constructorFunctions.set(index, cls);
    return cls;
  }

  private typeParameterNames(node: Node | null): Set<string> | undefined {
    if (!node) return undefined;
    let names: Set<string> | undefined;
    for (const param of node.namedChildren) {
      if (param?.type !== 'type_parameter') continue;
      const name = this.field(param, 'name');
      if (name) (names ??= new Set()).add(this.text(name));
    }
    return names;
  }

  private onClass(node: Node, f: Frame, ctx: DeclContext, nameOverride: string | undefined): number {
    let name = nameOverride;
    let typeParams: Node | null = null;
    let heritage: Node | null = null;
    let body: Node | null = null;
    const decorators: Node[] = [...ctx.decorators];
    for (const child of node.namedChildren) {
      if (!child) continue;
      switch (child.type) {
        case 'type_identifier':
        case 'identifier':
          name ??= this.text(child);
          break;
        case 'type_parameters':
          typeParams = child;
          break;
        case 'class_heritage':
          heritage = child;
          break;
        case 'class_body':
          body = child;
          break;
        case 'decorator':
          decorators.push(child);
          break;
        default:
          break;
      }
    }
    name ??= this.defaultName();
    const own = this.typeParameterNames(typeParams);
    const supertypes: SupertypeRef[] = [];
    const heritageExpressions: Node[] = [];
    const heritageTypes: Node[] = [];
    if (heritage) this.readHeritage(heritage, supertypes, heritageExpressions, heritageTypes);
    const index = this.addSymbol(
      {
        name,
        kind: 'class',
        scope: this.scopeOf(f),
        startLine: this.startLineOf({ ...ctx, decorators }),
        endLine: node.endPosition.row + 1,
        signature: this.signature(this.signatureStart(ctx.outer === node ? node : ctx.outer), body ? body.startIndex : node.endIndex),
        doc: this.docFor(ctx.outer),
        parent: f.def,
        exported: ctx.exported && f.moduleLevel,
        supertypes,
        decorators: this.decoratorRefs(decorators),
      },
      { inheritsExport: false },
    );
    const cls: ClassInfo = { name, index, declared: new Set(), ctorIndex: -1 };
    const frame = this.childFrame(f, index, { name, qualifier: EMPTY }, cls);
    if (own) frame.typeParams = new Set(own);
    for (const decorator of decorators) this.visitDecoratorArguments(decorator, frame);
    for (const expression of heritageExpressions) this.visit(expression, frame);
    for (const typeNode of heritageTypes) this.typeReferences(typeNode, frame);
    if (body) this.visitClassBody(body, frame, cls, index);
    if (ctx.isDefault) this.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
    return index;
  }

  /** `class extends Base {}` passed around as a value: walk the body; its members are not symbols. */
  private onAnonymousClass(node: Node, f: Frame): void {
    const frame = this.childFrame(f, f.def, undefined, undefined);
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'class_heritage') {
        const expressions: Node[] = [];
        const types: Node[] = [];
        this.readHeritage(child, [], expressions, types);
        for (const expression of expressions) this.visit(expression, f);
      } else if (child.type === 'class_body') {
        this.visitChildren(child, frame);
      }
    }
  }

  /** Supertypes of a class; expressions worth walking (mixin calls) and generic arguments go to the out lists. */
  private readHeritage(heritage: Node, supertypes: SupertypeRef[], expressions: Node[], types: Node[]): void {
    const addExtends = (value: Node): void => {
      if (value.type === 'call_expression') {
        // `extends Mixin(Base)`: the arguments are the classes inherited from.
        expressions.push(value);
        const args = this.field(value, 'arguments');
        for (const arg of args?.namedChildren ?? []) {
          const ref = arg ? this.nameRef(arg) : undefined;
          if (ref && (arg?.type === 'identifier' || arg?.type === 'member_expression')) supertypes.push({ ...ref, relation: 'extends' });
        }
        return;
      }
      const ref = this.nameRef(value);
      if (ref) supertypes.push({ ...ref, relation: 'extends' });
      else expressions.push(value);
    };
    for (const clause of heritage.namedChildren) {
      if (!clause) continue;
      if (clause.type === 'extends_clause') {
        for (const child of clause.namedChildren) {
          if (!child) continue;
          if (child.type === 'type_arguments') types.push(child);
          else addExtends(child);
        }
      } else if (clause.type === 'implements_clause') {
        for (const child of clause.namedChildren) {
          if (!child) continue;
          const ref = this.nameRef(child);
          if (ref) supertypes.push({ ...ref, relation: 'implements' });
          if (child.type === 'generic_type') {
            const args = this.field(child, 'type_arguments');
            if (args) types.push(args);
          }
        }
      } else {
        // JavaScript: the heritage holds the expression itself.
        addExtends(clause);
      }
    }
  }

  private visitClassBody(body: Node, frame: Frame, cls: ClassInfo, classIndex: number): void {
    const members = body.namedChildren;
    // Declared members first: constructor assignments only declare fields the class does not.
    for (const member of members) {
      if (!member) continue;
      const type = member.type;
      if (type === 'public_field_definition' || type === 'field_definition') {
        const nameNode = this.bindingParts(member).name;
        const name = nameNode ? this.memberName(nameNode) : undefined;
        if (name !== undefined) cls.declared.add(name);
      } else if (type === 'method_definition' || type === 'method_signature' || type === 'abstract_method_signature') {
        const nameNode = this.functionParts(member).name;
        const name = nameNode ? this.memberName(nameNode) : undefined;
        if (name !== undefined) cls.declared.add(name);
        if (name === 'constructor') this.collectParameterProperties(member, cls);
      }
    }
    let pendingDecorators: Node[] = [];
    for (const member of members) {
      if (!member) continue;
      switch (member.type) {
        case 'decorator':
          pendingDecorators.push(member);
          continue;
        case 'method_definition':
        case 'method_signature':
        case 'abstract_method_signature':
          this.onMethod(member, frame, cls, classIndex, pendingDecorators);
          break;
        case 'public_field_definition':
        case 'field_definition':
          this.onField(member, frame, cls, classIndex, pendingDecorators);
          break;
        case 'class_static_block':
          this.visitField(member, 'body', frame);
          break;
        case 'comment':
        case 'index_signature':
          continue;
        default:
          this.visit(member, frame);
      }
      pendingDecorators = [];
    }
  }

  private collectParameterProperties(ctor: Node, cls: ClassInfo): void {
    const params = this.functionParts(ctor).params;
    for (const param of params?.namedChildren ?? []) {
      const type = param?.type;
      if (type !== 'required_parameter' && type !== 'optional_parameter') continue;
      const pattern = this.field(param, 'pattern');
      if (pattern?.type === 'identifier') cls.declared.add(this.text(pattern));
    }
  }

  /** Name of a class/object/interface member; undefined for computed names. */
  private memberName(node: Node): string | undefined {
    switch (node.type) {
      case 'property_identifier':
      case 'private_property_identifier':
      case 'identifier':
      case 'type_identifier':
      case 'number':
        return this.text(node);
      case 'string': {
        const text = this.text(node);
        return text.slice(1, -1);
      }
      default:
        return undefined;
    }
  }

  /** Modifier keywords written before a member's name. */
  private modifiers(node: Node, nameNode: Node | null): {
    accessor: 'get' | 'set' | undefined;
    isPrivate: boolean;
    overrides: boolean;
    isStatic: boolean;
    decorators: Node[];
  } {
    const result = { accessor: undefined as 'get' | 'set' | undefined, isPrivate: false, overrides: false, isStatic: false, decorators: [] as Node[] };
    const stop = nameNode ? nameNode.startIndex : node.endIndex;
    for (const child of node.children) {
      if (!child || child.startIndex >= stop) break;
      switch (child.type) {
        case 'get':
        case 'set':
          result.accessor = child.type;
          break;
        case 'static':
          result.isStatic = true;
          break;
        case 'override_modifier':
          result.overrides = true;
          break;
        case 'accessibility_modifier':
          if (this.text(child) === 'private') result.isPrivate = true;
          break;
        case 'decorator':
          result.decorators.push(child);
          break;
        default:
          break;
      }
    }
    return result;
  }

  private onMethod(node: Node, classFrame: Frame, cls: ClassInfo | undefined, parent: number, siblingDecorators: readonly Node[]): number {
    const parts = this.functionParts(node);
    const nameNode = parts.name;
    const name = nameNode ? this.memberName(nameNode) : undefined;
    const mods = this.modifiers(node, nameNode);
    const decorators = [...siblingDecorators, ...mods.decorators];
    if (name === undefined) {
      // Computed name (`[Symbol.iterator]()`): no symbol; the body still counts for the container.
      if (nameNode) this.visitChildren(nameNode, classFrame);
      this.visitFunction(node, this.childFrame(classFrame, classFrame.def, classFrame.thisType, cls), undefined);
      return -1;
    }
    const own = this.typeParameterNames(parts.typeParams);
    const kind: NodeKind = mods.accessor ? 'property' : name === 'constructor' && cls ? 'constructor' : 'method';
    const signatureOnly = parts.body === null;
    const start = this.signatureStart(node);
    const index = this.addSymbol(
      {
        name,
        kind,
        scope: this.scopeOf(classFrame),
        startLine: (decorators[0] ?? node).startPosition.row + 1,
        endLine: node.endPosition.row + 1,
        signature: signatureOnly ? this.wholeSignature(start, node) : this.signature(start, parts.body!.startIndex),
        doc: this.docFor(node),
        parent,
        exported: false,
        decorators: this.decoratorRefs(decorators),
        overrides: mods.overrides || undefined,
        valueType: mods.accessor === 'get' ? this.mainType(parts.returnType, classFrame, own) : undefined,
      },
      { inheritsExport: true, isPrivate: mods.isPrivate || name.startsWith('#') },
    );
    const frame = this.childFrame(classFrame, index, classFrame.thisType, cls);
    if (own) frame.typeParams = new Set(own);
    if (kind === 'constructor' && cls) cls.ctorIndex = index;
    for (const decorator of decorators) this.visitDecoratorArguments(decorator, frame);
    const hints: NameRef[] = [];
    const properties = this.visitFunction(node, frame, hints, own);
    for (const hint of hints) this.addHint(index, hint);
    if (kind === 'constructor') for (const param of properties) this.onParameterProperty(param, classFrame, parent);
    return index;
  }

  /** `constructor(private readonly store: Store)` declares a field. */
  private onParameterProperty(param: Node, classFrame: Frame, parent: number): void {
    const pattern = this.field(param, 'pattern');
    if (pattern?.type !== 'identifier') return;
    const typeNode = this.field(param, 'type');
    const mods = this.modifiers(param, pattern);
    const decorators = mods.decorators;
    const start = decorators.length > 0 ? this.signatureStart(param) : param.startIndex;
    this.addSymbol(
      {
        name: this.text(pattern),
        kind: 'field',
        scope: this.scopeOf(classFrame),
        startLine: param.startPosition.row + 1,
        endLine: param.endPosition.row + 1,
        signature: this.wholeSignature(start, param),
        parent,
        exported: false,
        decorators: this.decoratorRefs(decorators),
        typeHints: this.typesOf(typeNode, classFrame),
        valueType: this.mainType(typeNode, classFrame),
      },
      { inheritsExport: true, isPrivate: mods.isPrivate },
    );
  }

  private onField(node: Node, classFrame: Frame, cls: ClassInfo, parent: number, siblingDecorators: readonly Node[]): void {
    const binding = this.bindingParts(node);
    const nameNode = binding.name;
    const name = nameNode ? this.memberName(nameNode) : undefined;
    const value = binding.value;
    if (name === undefined) {
      if (nameNode) this.visitChildren(nameNode, classFrame);
      if (value) this.visit(value, classFrame);
      return;
    }
    const mods = this.modifiers(node, nameNode);
    const decorators = [...siblingDecorators, ...mods.decorators];
    const typeNode = binding.type;
    const isFunction = value !== null && FUNCTION_VALUES.has(value.type);
    const start = this.signatureStart(node);
    const startLine = (decorators[0] ?? node).startPosition.row + 1;
    const isPrivate = mods.isPrivate || name.startsWith('#');
    if (isFunction) {
      // `handle = (e) => { … }`: a method in all but syntax.
      const parts = this.functionParts(value);
      const own = this.typeParameterNames(parts.typeParams);
      const index = this.addSymbol(
        {
          name,
          kind: 'method',
          scope: this.scopeOf(classFrame),
          startLine,
          endLine: node.endPosition.row + 1,
          signature: this.signature(start, parts.body ? parts.body.startIndex : node.endIndex),
          doc: this.docFor(node),
          parent,
          exported: false,
          decorators: this.decoratorRefs(decorators),
          overrides: mods.overrides || undefined,
          typeHints: this.typesOf(typeNode, classFrame),
        },
        { inheritsExport: true, isPrivate },
      );
      const frame = this.childFrame(classFrame, index, value.type === 'arrow_function' ? classFrame.thisType : undefined, cls);
      if (own) frame.typeParams = new Set(own);
      for (const decorator of decorators) this.visitDecoratorArguments(decorator, frame);
      const hints: NameRef[] = [];
      this.visitFunction(value, frame, hints, own);
      for (const hint of hints) this.addHint(index, hint);
      return;
    }
    const index = this.addSymbol(
      {
        name,
        kind: 'field',
        scope: this.scopeOf(classFrame),
        startLine,
        endLine: node.endPosition.row + 1,
        signature: this.wholeSignature(start, node),
        doc: this.docFor(node),
        parent,
        exported: false,
        decorators: this.decoratorRefs(decorators),
        overrides: mods.overrides || undefined,
        typeHints: this.typesOf(typeNode, classFrame),
        valueType: this.mainType(typeNode, classFrame) ?? this.initialiserType(value, classFrame),
      },
      { inheritsExport: true, isPrivate },
    );
    const frame = this.childFrame(classFrame, index, classFrame.thisType, cls);
    for (const decorator of decorators) this.visitDecoratorArguments(decorator, frame);
    if (value) this.visit(value, frame);
  }

  private decoratorRefs(decorators: readonly Node[]): NameRef[] | undefined {
    if (decorators.length === 0) return undefined;
    const refs: NameRef[] = [];
    for (const decorator of decorators) {
      const ref = this.nameRef(decorator.firstNamedChild);
      if (ref) refs.push(ref);
    }
    return refs;
  }

  /** `@Module({ providers: [UserService] })`: the arguments are ordinary expressions of the decorated symbol. */
  private visitDecoratorArguments(decorator: Node, f: Frame): void {
    let expression = decorator.firstNamedChild;
    while (expression?.type === 'parenthesized_expression') expression = expression.firstNamedChild;
    if (expression?.type === 'call_expression') {
      const args = this.field(expression, 'arguments');
      if (args) this.visitChildren(args, f);
    }
  }

  private onInterface(node: Node, f: Frame, ctx: DeclContext): number {
    const nameNode = this.field(node, 'name');
    const name = nameNode ? this.text(nameNode) : this.defaultName();
    const own = this.typeParameterNames(this.field(node, 'type_parameters'));
    const body = this.field(node, 'body');
    const supertypes: SupertypeRef[] = [];
    for (const child of node.namedChildren) {
      if (child?.type !== 'extends_type_clause') continue;
      for (const type of child.namedChildren) {
        const ref = type ? this.nameRef(type) : undefined;
        if (ref) supertypes.push({ ...ref, relation: 'extends' });
      }
    }
    const index = this.addSymbol(
      {
        name,
        kind: 'interface',
        scope: this.scopeOf(f),
        startLine: this.startLineOf(ctx),
        endLine: node.endPosition.row + 1,
        signature: this.signature(this.signatureStart(ctx.outer), body ? body.startIndex : node.endIndex),
        doc: this.docFor(ctx.outer),
        parent: f.def,
        exported: ctx.exported && f.moduleLevel,
        supertypes,
      },
      { inheritsExport: false },
    );
    const frame = this.childFrame(f, index, undefined, undefined);
    if (own) frame.typeParams = new Set(own);
    for (const member of body?.namedChildren ?? []) {
      if (!member) continue;
      if (member.type === 'method_signature' || member.type === 'property_signature') this.onSignatureMember(member, frame, index);
    }
    if (ctx.isDefault) this.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
    return index;
  }

  /** Interface members: method signatures → method, property signatures → property. */
  private onSignatureMember(member: Node, frame: Frame, parent: number): void {
    const nameNode = this.field(member, 'name');
    const name = nameNode ? this.memberName(nameNode) : undefined;
    if (name === undefined) return;
    const isMethod = member.type === 'method_signature';
    let hints: NameRef[];
    let valueType: NameRef | undefined;
    if (isMethod) {
      const parts = this.functionParts(member);
      const own = this.typeParameterNames(parts.typeParams);
      hints = [];
      for (const param of parts.params?.namedChildren ?? []) {
        const type = this.field(param, 'type');
        if (type) hints.push(...this.typesOf(type, frame, own));
      }
      hints.push(...this.typesOf(parts.returnType, frame, own));
    } else {
      const type = this.field(member, 'type');
      hints = this.typesOf(type, frame);
      valueType = this.mainType(type, frame);
    }
    this.addSymbol(
      {
        name,
        kind: isMethod ? 'method' : 'property',
        scope: this.scopeOf(frame),
        startLine: member.startPosition.row + 1,
        endLine: member.endPosition.row + 1,
        signature: this.wholeSignature(member.startIndex, member),
        doc: this.docFor(member),
        parent,
        exported: false,
        typeHints: hints,
        valueType,
      },
      { inheritsExport: true },
    );
  }

  private onTypeAlias(node: Node, f: Frame, ctx: DeclContext): void {
    const nameNode = this.field(node, 'name');
    if (!nameNode) return;
    const own = this.typeParameterNames(this.field(node, 'type_parameters'));
    this.addSymbol(
      {
        name: this.text(nameNode),
        kind: 'type_alias',
        scope: this.scopeOf(f),
        startLine: this.startLineOf(ctx),
        endLine: node.endPosition.row + 1,
        signature: this.wholeSignature(ctx.outer.startIndex, node),
        doc: this.docFor(ctx.outer),
        parent: f.def,
        exported: ctx.exported && f.moduleLevel,
        typeHints: this.typesOf(this.field(node, 'value'), f, own),
      },
      { inheritsExport: false },
    );
  }

  private onEnum(node: Node, f: Frame, ctx: DeclContext): void {
    const nameNode = this.field(node, 'name');
    if (!nameNode) return;
    const body = this.field(node, 'body');
    const index = this.addSymbol(
      {
        name: this.text(nameNode),
        kind: 'enum',
        scope: this.scopeOf(f),
        startLine: this.startLineOf(ctx),
        endLine: node.endPosition.row + 1,
        signature: this.signature(ctx.outer.startIndex, body ? body.startIndex : node.endIndex),
        doc: this.docFor(ctx.outer),
        parent: f.def,
        exported: ctx.exported && f.moduleLevel,
      },
      { inheritsExport: false },
    );
    const scope = this.meta[index]!.path;
    for (const member of body?.namedChildren ?? []) {
      if (!member || member.type === 'comment') continue;
      const memberNameNode = member.type === 'enum_assignment' ? this.field(member, 'name') : member;
      const name = memberNameNode ? this.memberName(memberNameNode) : undefined;
      if (name === undefined) continue;
      this.addSymbol(
        {
          name,
          kind: 'constant',
          scope,
          startLine: member.startPosition.row + 1,
          endLine: member.endPosition.row + 1,
          signature: this.wholeSignature(member.startIndex, member),
          doc: this.docFor(member),
          parent: index,
          exported: false,
        },
        { inheritsExport: true },
      );
    }
  }

  /** `namespace A.B {}`, `module M {}`, `declare module 'pkg' {}`. */
  private onNamespace(node: Node, f: Frame, ctx: DeclContext): void {
    const nameNode = this.field(node, 'name');
    const body = this.field(node, 'body');
    const names: string[] = [];
    if (nameNode?.type === 'nested_identifier') {
      const ref = this.nameRef(nameNode);
      if (ref) names.push(...ref.qualifier, ref.name);
    } else if (nameNode?.type === 'string') {
      names.push(this.text(nameNode).slice(1, -1));
    } else if (nameNode) {
      names.push(this.text(nameNode));
    }
    if (names.length === 0) return;
    const ambient = f.ambient || node.type === 'module';
    let frame = f;
    for (const name of names) {
      const index = this.addSymbol(
        {
          name,
          kind: 'module',
          scope: this.scopeOf(frame),
          startLine: this.startLineOf(ctx),
          endLine: node.endPosition.row + 1,
          signature: this.signature(ctx.outer.startIndex, body ? body.startIndex : node.endIndex),
          doc: this.docFor(ctx.outer),
          parent: frame.def,
          exported: (ctx.exported || ambient) && frame.moduleLevel,
        },
        { inheritsExport: false },
      );
      frame = { def: index, thisType: undefined, cls: undefined, parent: frame, moduleLevel: true, ambient, locals: undefined, typeParams: undefined };
    }
    if (body) this.visitChildren(body, frame);
  }

  /** `declare …`: the declaration inside is visible without `export`. */
  private onAmbient(node: Node, f: Frame, ctx: DeclContext): void {
    const ambientFrame: Frame = { ...f, ambient: true };
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'statement_block') {
        // `declare global { … }`: global augmentations live at file level.
        this.visitChildren(child, ambientFrame);
        continue;
      }
      this.visitDeclaration(child, ambientFrame, { ...ctx, exported: true });
    }
  }

  /** A declaration under `export`/`declare`, with its context. */
  private visitDeclaration(node: Node, f: Frame, ctx: DeclContext): void {
    switch (node.type) {
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'function_signature':
        this.onFunctionDeclaration(node, f, ctx);
        return;
      case 'class_declaration':
      case 'abstract_class_declaration':
        this.onClass(node, f, ctx, undefined);
        return;
      case 'interface_declaration':
        this.onInterface(node, f, ctx);
        return;
      case 'type_alias_declaration':
        this.onTypeAlias(node, f, ctx);
        return;
      case 'enum_declaration':
        this.onEnum(node, f, ctx);
        return;
      case 'internal_module':
      case 'module':
        this.onNamespace(node, f, ctx);
        return;
      case 'lexical_declaration':
      case 'variable_declaration':
        this.onVariables(node, f, ctx);
        return;
      case 'ambient_declaration':
        this.onAmbient(node, f, ctx);
        return;
      default:
        this.visit(node, f);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Variables

  private onVariables(node: Node, f: Frame, ctx: DeclContext): void {
    const isConst = node.type === 'lexical_declaration' && node.firstChild?.type === 'const';
    let first = true;
    for (const declarator of node.namedChildren) {
      if (declarator?.type !== 'variable_declarator') continue;
      if (f.moduleLevel) this.onModuleDeclarator(declarator, f, ctx, isConst, first);
      else this.onLocalDeclarator(declarator, f);
      first = false;
    }
  }

  /** `require('x')`, `require('x').y`, `import('x')`, `await import('x')`: the module specifier, else undefined. */
  private moduleLoad(value: Node | null, awaited = false): { source: string; member?: string; dynamic?: boolean } | undefined {
    if (!value) return undefined;
    switch (value.type) {
      case 'await_expression':
        return this.moduleLoad(value.firstNamedChild, true);
      case 'member_expression': {
        const children = value.namedChildren;
        const inner = this.moduleLoad(children[0] ?? null, awaited);
        const property = inner ? children[children.length - 1] : undefined;
        return inner && inner.member === undefined && property ? { ...inner, member: this.text(property) } : undefined;
      }
      case 'call_expression': {
        const children = value.namedChildren;
        const fn = children[0];
        const fnType = fn?.type;
        // `import()` yields a promise: only `await import()` binds the module.
        if (!fn || (fnType === 'import' ? !awaited : !(fnType === 'identifier' && this.text(fn) === 'require'))) return undefined;
        const args = children[children.length - 1];
        const arg = args?.type === 'arguments' ? args.firstNamedChild : null;
        if (arg?.type !== 'string') return undefined;
        return fnType === 'import' ? { source: this.text(arg).slice(1, -1), dynamic: true } : { source: this.text(arg).slice(1, -1) };
      }
      default:
        return undefined;
    }
  }

  /** `const x = require('m')` and friends: an import binding instead of a symbol. Returns false when not a module load. */
  private declareModuleLoad(nameNode: Node, value: Node | null, line: number): boolean {
    const load = this.moduleLoad(value);
    if (!load) return false;
    if (nameNode.type === 'identifier') {
      const local = this.text(nameNode);
      if (load.member !== undefined) this.addImport({ source: load.source, names: [{ imported: load.member, local }], line });
      else if (load.dynamic) this.addImport({ source: load.source, names: [], moduleAlias: local, line });
      else this.addImport(this.commonJsBinding(load.source, local, line));
      return true;
    }
    if (nameNode.type === 'object_pattern' && load.member === undefined) {
      const names: { imported: string; local: string }[] = [];
      for (const child of nameNode.namedChildren) {
        if (!child) continue;
        if (child.type === 'shorthand_property_identifier_pattern') {
          const name = this.text(child);
          names.push({ imported: name, local: name });
        } else if (child.type === 'pair_pattern') {
          const key = this.field(child, 'key');
          const value = this.field(child, 'value');
          if (key && value?.type === 'identifier') names.push({ imported: this.memberName(key) ?? this.text(key), local: this.text(value) });
        } else if (child.type === 'object_assignment_pattern') {
          const left = this.field(child, 'left');
          if (left) names.push({ imported: this.text(left), local: this.text(left) });
        }
      }
      this.addImport({ source: load.source, names, line });
      return true;
    }
    this.addImport({ source: load.source, names: [], line });
    return true;
  }

  /**
   * `const x = require('m')` binds `module.exports`, which is a namespace-like object or a
   * single class/function; which one depends on the other file. By convention a capitalised
   * name is the latter (`const Store = require('./store')` → its default export), anything
   * else a module alias (`const utils = require('./utils'); utils.fmt()`).
   */
  private commonJsBinding(source: string, local: string, line: number): ImportDecl {
    const first = local.charCodeAt(0);
    return first >= 65 && first <= 90
      ? { source, names: [{ imported: 'default', local }], line }
      : { source, names: [], moduleAlias: local, line };
  }

  private onModuleDeclarator(declarator: Node, f: Frame, ctx: DeclContext, isConst: boolean, first: boolean): void {
    const { name: nameNode, type: typeNode, value } = this.bindingParts(declarator);
    if (!nameNode) return;
    const line = declarator.startPosition.row + 1;
    if (this.declareModuleLoad(nameNode, value, line)) return;
    const startLine = first ? this.startLineOf(ctx) : declarator.startPosition.row + 1;
    const doc = this.docFor(ctx.outer);
    const keyword = first ? ctx.outer.startIndex : declarator.startIndex;
    const exported = ctx.exported;
    if (nameNode.type !== 'identifier') {
      // Destructuring at module level: each bound name is a variable.
      for (const name of this.patternNames(nameNode)) {
        this.addSymbol(
          {
            name,
            kind: 'variable',
            scope: this.scopeOf(f),
            startLine,
            endLine: declarator.endPosition.row + 1,
            signature: this.wholeSignature(keyword, declarator),
            doc,
            parent: f.def,
            exported,
          },
          { inheritsExport: false },
        );
      }
      if (value) this.visit(value, f);
      return;
    }
    const name = this.text(nameNode);
    const declaredType = this.mainType(typeNode, f);
    const unwrapped = unwrapValue(value);
    this.declareLocal(f, name, declaredType ?? this.initialiserType(value, f) ?? null);
    if (unwrapped && FUNCTION_VALUES.has(unwrapped.type)) {
      this.defineFunctionValue(unwrapped, name, f, { ...ctx, outer: first ? ctx.outer : declarator }, declarator, typeNode, 'function');
      return;
    }
    if (unwrapped?.type === 'class') {
      this.onClass(unwrapped, f, { ...ctx, outer: first ? ctx.outer : declarator }, name);
      return;
    }
    const wrapped = unwrapped ? this.wrappedFunction(unwrapped, name) : undefined;
    if (wrapped) {
      this.defineFunctionValue(wrapped, name, f, { ...ctx, outer: first ? ctx.outer : declarator }, declarator, typeNode, 'function', unwrapped!);
      return;
    }
    const kind: NodeKind = isConst && isLiteral(unwrapped) ? 'constant' : 'variable';
    const index = this.addSymbol(
      {
        name,
        kind,
        scope: this.scopeOf(f),
        startLine,
        endLine: declarator.endPosition.row + 1,
        signature: this.wholeSignature(keyword, declarator),
        doc,
        parent: f.def,
        exported,
        typeHints: this.typesOf(typeNode, f),
        valueType: declaredType ?? this.initialiserType(value, f),
      },
      { inheritsExport: false },
    );
    if (!value) return;
    const frame = this.childFrame(f, index, undefined, undefined);
    if (isConst && unwrapped?.type === 'object') this.onObjectMembers(unwrapped, frame, index, false);
    else this.visit(value, frame);
  }

  /** `memo((props) => …)`, `forwardRef(function X() {})`: the function a wrapper call defines, if any. */
  private wrappedFunction(value: Node, name: string): Node | undefined {
    if (value.type !== 'call_expression') return undefined;
    const children = value.namedChildren;
    const callee = this.nameRef(children[0] ?? null);
    if (!callee) return undefined;
    const capitalised = /^[A-Z]/.test(name);
    const wrapper = FUNCTION_WRAPPERS.has(callee.name) || /^with[A-Z]/.test(callee.name);
    if (!capitalised && !wrapper) return undefined;
    const args = children[children.length - 1];
    const first = args?.type === 'arguments' ? args.firstNamedChild : null;
    if (!first) return undefined;
    if (FUNCTION_VALUES.has(first.type)) return first;
    // `memo(forwardRef((p, ref) => …))`
    return first.type === 'call_expression' ? this.wrappedFunction(first, name) : undefined;
  }

  /** `memo(Button)`, `withRouter(Page)`: the identifier a wrapper call decorates. */
  private wrappedIdentifier(value: Node): string | undefined {
    if (value.type !== 'call_expression') return undefined;
    const children = value.namedChildren;
    const callee = this.nameRef(children[0] ?? null);
    if (!callee || !(FUNCTION_WRAPPERS.has(callee.name) || /^with[A-Z]/.test(callee.name))) return undefined;
    const args = children[children.length - 1];
    const first = args?.type === 'arguments' ? args.firstNamedChild : null;
    return first?.type === 'identifier' ? this.text(first) : undefined;
  }

  /**
   * A function held by a variable, property or export (`const f = () => …`,
   * `exports.f = function () {}`). `wrapper` is the call around it, walked for its other arguments.
   */
  private defineFunctionValue(
    fn: Node,
    name: string,
    f: Frame,
    ctx: DeclContext,
    declarator: Node | undefined,
    typeNode: Node | null,
    kind: NodeKind,
    wrapper?: Node,
    placement?: { scope: readonly string[]; parent: number; thisType: NameRef | undefined; inheritsExport: boolean },
  ): number {
    const parts = this.functionParts(fn);
    const own = this.typeParameterNames(parts.typeParams);
    const sigStart = this.signatureStart(ctx.outer);
    const bodyStart = parts.body ? parts.body.startIndex : fn.endIndex;
    const nested = !f.moduleLevel && !placement;
    const index = this.addSymbol(
      {
        name,
        kind,
        scope: placement ? placement.scope : this.scopeOf(f),
        startLine: this.startLineOf(ctx),
        endLine: (declarator ?? fn).endPosition.row + 1,
        signature: this.signature(sigStart, bodyStart),
        doc: this.docFor(ctx.outer),
        parent: placement ? placement.parent : f.def,
        exported: ctx.exported && !nested,
        typeHints: this.typesOf(typeNode, f),
      },
      { inheritsExport: placement?.inheritsExport ?? false },
    );
    const es5 = !placement && !nested && fn.type !== 'arrow_function' ? this.constructorCandidate(name, index, f) : undefined;
    const thisType = es5 ? { name, qualifier: EMPTY } : placement ? placement.thisType : fn.type === 'arrow_function' ? f.thisType : undefined;
    const frame = this.childFrame(f, index, thisType, es5 ?? f.cls);
    if (own) frame.typeParams = new Set(own);
    if (wrapper) this.onCall(wrapper, frame, fn);
    const hints: NameRef[] = [];
    this.visitFunction(fn, frame, hints, own);
    for (const hint of hints) this.addHint(index, hint);
    if (ctx.isDefault) this.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
    return index;
  }

  private onLocalDeclarator(declarator: Node, f: Frame): void {
    const { name: nameNode, type: typeNode, value } = this.bindingParts(declarator);
    if (!nameNode) return;
    if (this.declareModuleLoad(nameNode, value, declarator.startPosition.row + 1)) {
      for (const name of this.patternNames(nameNode)) this.declareLocal(f, name, null);
      return;
    }
    if (nameNode.type === 'identifier') {
      const name = this.text(nameNode);
      const unwrapped = unwrapValue(value);
      // Nested definitions are symbols, not locals: calls to them must still be emitted.
      if (!unwrapped || (!FUNCTION_VALUES.has(unwrapped.type) && unwrapped.type !== 'class')) {
        this.declareLocal(f, name, this.mainType(typeNode, f) ?? this.initialiserType(value, f) ?? null);
      }
      if (unwrapped && FUNCTION_VALUES.has(unwrapped.type)) {
        // A nested definition: `const helper = () => …` inside a function.
        this.defineFunctionValue(unwrapped, name, f, { exported: false, isDefault: false, outer: declarator.parent ?? declarator, decorators: EMPTY_NODES }, declarator, typeNode, 'function');
        return;
      }
      if (unwrapped?.type === 'class') {
        this.onClass(unwrapped, f, { exported: false, isDefault: false, outer: declarator.parent ?? declarator, decorators: EMPTY_NODES }, name);
        return;
      }
    } else {
      for (const name of this.patternNames(nameNode)) this.declareLocal(f, name, null);
    }
    if (typeNode) this.typeReferences(typeNode, f);
    if (value) this.visit(value, f);
  }

  /**
   * Function-valued members of an object literal bound to a name (`const api = { get() {} }`,
   * `export default { … }`): methods scoped under the object. Other values are walked.
   */
  private onObjectMembers(object: Node, frame: Frame, owner: number, topLevelFunctions: boolean): void {
    const scope = topLevelFunctions ? EMPTY : this.meta[owner]!.path;
    const thisType = topLevelFunctions ? undefined : { name: this.symbols[owner]!.name, qualifier: EMPTY };
    for (const member of object.namedChildren) {
      if (!member) continue;
      if (member.type === 'method_definition') {
        const nameNode = this.field(member, 'name');
        const name = nameNode ? this.memberName(nameNode) : undefined;
        if (name === undefined) {
          this.visit(member, frame);
          continue;
        }
        const mods = this.modifiers(member, nameNode);
        const parts = this.functionParts(member);
        const own = this.typeParameterNames(parts.typeParams);
        const index = this.addSymbol(
          {
            name,
            kind: mods.accessor ? 'property' : topLevelFunctions ? 'function' : 'method',
            scope,
            startLine: member.startPosition.row + 1,
            endLine: member.endPosition.row + 1,
            signature: this.signature(member.startIndex, parts.body ? parts.body.startIndex : member.endIndex),
            doc: this.docFor(member),
            parent: topLevelFunctions ? -1 : owner,
            exported: topLevelFunctions,
          },
          { inheritsExport: !topLevelFunctions },
        );
        const memberFrame = this.childFrame(frame, index, thisType, undefined);
        if (own) memberFrame.typeParams = new Set(own);
        const hints: NameRef[] = [];
        this.visitFunction(member, memberFrame, hints, own);
        for (const hint of hints) this.addHint(index, hint);
        continue;
      }
      if (member.type === 'pair') {
        const key = this.field(member, 'key');
        const value = unwrapValue(this.field(member, 'value'));
        const name = key ? this.memberName(key) : undefined;
        if (name !== undefined && value && FUNCTION_VALUES.has(value.type)) {
          this.defineFunctionValue(value, name, frame, { exported: topLevelFunctions, isDefault: false, outer: member, decorators: EMPTY_NODES }, member, null, topLevelFunctions ? 'function' : 'method', undefined, {
            scope,
            parent: topLevelFunctions ? -1 : owner,
            thisType: value.type === 'arrow_function' ? undefined : thisType,
            inheritsExport: !topLevelFunctions,
          });
          continue;
        }
        if (topLevelFunctions && name !== undefined && value?.type === 'identifier') {
          this.localExports.push({ local: this.text(value), exported: name, line: member.startPosition.row + 1 });
          continue;
        }
        this.visit(member, frame);
        continue;
      }
      if (topLevelFunctions && member.type === 'shorthand_property_identifier') {
        const name = this.text(member);
        this.localExports.push({ local: name, exported: name, line: member.startPosition.row + 1 });
        continue;
      }
      this.visit(member, frame);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Imports and exports

  private addImport(decl: ImportDecl): void {
    this.imports.push(decl);
    if (decl.reexport) return;
    for (const { imported, local } of decl.names) {
      if (!this.importBindings.has(local)) this.importBindings.set(local, { source: decl.source, imported, decl });
    }
    if (decl.moduleAlias !== undefined) {
      this.moduleAliases.add(decl.moduleAlias);
      if (!this.importBindings.has(decl.moduleAlias)) this.importBindings.set(decl.moduleAlias, { source: decl.source, imported: '*', decl });
    }
  }

  private onImport(node: Node): void {
    const sourceNode = this.field(node, 'source');
    const line = node.startPosition.row + 1;
    const names: { imported: string; local: string }[] = [];
    let moduleAlias: string | undefined;
    let source = sourceNode ? this.text(sourceNode).slice(1, -1) : undefined;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'import_clause') {
        for (const part of child.namedChildren) {
          if (!part) continue;
          switch (part.type) {
            case 'identifier':
              names.push({ imported: 'default', local: this.text(part) });
              break;
            case 'namespace_import': {
              const alias = part.firstNamedChild;
              if (alias) moduleAlias = this.text(alias);
              break;
            }
            case 'named_imports':
              for (const specifier of part.namedChildren) {
                if (specifier?.type !== 'import_specifier') continue;
                const name = this.field(specifier, 'name');
                const alias = this.field(specifier, 'alias');
                if (!name) continue;
                const imported = this.moduleExportName(name);
                names.push({ imported, local: alias ? this.text(alias) : imported });
              }
              break;
            default:
              break;
          }
        }
      } else if (child.type === 'import_require_clause') {
        // `import fs = require('fs')`
        const alias = child.firstNamedChild;
        const requireSource = this.field(child, 'source');
        if (requireSource && alias?.type === 'identifier') {
          this.addImport(this.commonJsBinding(this.text(requireSource).slice(1, -1), this.text(alias), line));
          return;
        }
      }
    }
    if (source === undefined) return;
    const decl: { -readonly [K in keyof ImportDecl]: ImportDecl[K] } = { source, names, line };
    if (moduleAlias !== undefined) decl.moduleAlias = moduleAlias;
    this.addImport(decl);
  }

  /** An export/import specifier name: an identifier, or a string (`export { x as "a-b" }`). */
  private moduleExportName(node: Node): string {
    return node.type === 'string' ? this.text(node).slice(1, -1) : this.text(node);
  }

  private onExport(node: Node, f: Frame): void {
    const line = node.startPosition.row + 1;
    let isDefault = false;
    let hasStar = false;
    const decorators: Node[] = [];
    let source: string | undefined;
    let clause: Node | null = null;
    let namespaceExport: Node | null = null;
    const rest: Node[] = [];
    for (const child of node.children) {
      if (!child) continue;
      switch (child.type) {
        case 'default':
          isDefault = true;
          break;
        case '*':
          hasStar = true;
          break;
        case 'decorator':
          decorators.push(child);
          break;
        case 'string':
          source = this.text(child).slice(1, -1);
          break;
        case 'export_clause':
          clause = child;
          break;
        case 'namespace_export':
          namespaceExport = child;
          break;
        case 'comment':
          break;
        default:
          if (child.isNamed) rest.push(child);
      }
    }
    if (source !== undefined) {
      // `export … from '…'`
      if (namespaceExport) {
        const alias = namespaceExport.firstNamedChild;
        this.imports.push({ source, names: [], moduleAlias: alias ? this.moduleExportName(alias) : '*', reexport: true, line });
      } else if (clause) {
        this.imports.push({ source, names: this.exportSpecifiers(clause), reexport: true, line });
      } else if (hasStar) {
        this.imports.push({ source, names: [{ imported: '*', local: '*' }], reexport: true, line });
      }
      return;
    }
    if (clause) {
      for (const { imported, local } of this.exportSpecifiers(clause)) this.localExports.push({ local: imported, exported: local, line });
      return;
    }
    const ctx: DeclContext = { exported: true, isDefault, outer: node, decorators };
    for (const child of rest) {
      if (this.isDeclarationNode(child)) {
        this.visitDeclaration(child, f, ctx);
        continue;
      }
      if (child.type === 'identifier') {
        // `export default foo;` / `export = Foo;`
        this.localExports.push({ local: this.text(child), exported: 'default', line });
        continue;
      }
      if (isDefault) this.onDefaultExpression(child, f, ctx);
      else this.visit(child, f);
    }
  }

  private isDeclarationNode(node: Node): boolean {
    switch (node.type) {
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'function_signature':
      case 'class_declaration':
      case 'abstract_class_declaration':
      case 'interface_declaration':
      case 'type_alias_declaration':
      case 'enum_declaration':
      case 'internal_module':
      case 'module':
      case 'lexical_declaration':
      case 'variable_declaration':
      case 'ambient_declaration':
        return true;
      default:
        return false;
    }
  }

  /** `export default <expression>`: a symbol named after the file. */
  private onDefaultExpression(value: Node, f: Frame, ctx: DeclContext): void {
    const name = this.defaultName();
    const unwrapped = unwrapValue(value) ?? value;
    if (FUNCTION_VALUES.has(unwrapped.type)) {
      const fnName = unwrapped.type === 'arrow_function' ? undefined : this.field(unwrapped, 'name');
      this.defineFunctionValue(unwrapped, fnName ? this.text(fnName) : name, f, ctx, undefined, null, 'function');
      return;
    }
    if (unwrapped.type === 'class') {
      this.onClass(unwrapped, f, ctx, undefined);
      return;
    }
    const wrapped = this.wrappedFunction(unwrapped, name);
    if (wrapped) {
      this.defineFunctionValue(wrapped, name, f, ctx, undefined, null, 'function', unwrapped);
      return;
    }
    const wrappedName = this.wrappedIdentifier(unwrapped);
    if (wrappedName !== undefined) {
      // `export default memo(Button)`: the default export is Button.
      this.localExports.push({ local: wrappedName, exported: 'default', line: ctx.outer.startPosition.row + 1 });
      this.visit(unwrapped, f);
      return;
    }
    const index = this.addSymbol(
      {
        name,
        kind: unwrapped.type === 'object' || isLiteral(unwrapped) ? 'constant' : 'variable',
        scope: this.scopeOf(f),
        startLine: this.startLineOf(ctx),
        endLine: ctx.outer.endPosition.row + 1,
        signature: this.wholeSignature(this.signatureStart(ctx.outer), ctx.outer),
        doc: this.docFor(ctx.outer),
        parent: f.def,
        exported: true,
        valueType: this.initialiserType(unwrapped, f),
      },
      { inheritsExport: false },
    );
    const frame = this.childFrame(f, index, undefined, undefined);
    if (unwrapped.type === 'object') this.onObjectMembers(unwrapped, frame, index, false);
    else this.visit(value, frame);
    this.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
  }

  private exportSpecifiers(clause: Node): { imported: string; local: string }[] {
    const out: { imported: string; local: string }[] = [];
    for (const specifier of clause.namedChildren) {
      if (specifier?.type !== 'export_specifier') continue;
      const name = this.field(specifier, 'name');
      const alias = this.field(specifier, 'alias');
      if (!name) continue;
      const imported = this.moduleExportName(name);
      out.push({ imported, local: alias ? this.moduleExportName(alias) : imported });
    }
    return out;
  }

  /**
   * Resolve `export { a as b }`, `export default a`, `module.exports = { a }` once every
   * declaration is known: an imported name becomes a re-export of its source, a local one is
   * marked exported (with a self re-export when it is exported under another name). Then
   * members take their container's visibility.
   */
  private finishExports(): void {
    // ES5 classes: a function that received prototype members is a class, with its constructor's fields.
    for (const index of this.prototypeOwners) {
      const sym = this.symbols[index]!;
      if (sym.kind !== 'function') continue;
      sym.kind = 'class';
      const cls = this.constructorFunctions.get(index);
      for (const field of cls?.pending ?? []) this.addField({ ...cls!, pending: undefined }, field);
    }
    // Re-exports of imported names under the same name go right before the import they
    // re-export: a local name is bound by its first declaration, and this one says more.
    const before = new Map<ImportDecl, ImportDecl[]>();
    for (const { local, exported, line } of this.localExports) {
      const binding = this.importBindings.get(local);
      const index = this.topLevel.get(local);
      if (index !== undefined) {
        this.symbols[index]!.exported = true;
        if (exported !== local) this.selfReexport(local, exported, line);
      } else if (binding) {
        const decl: ImportDecl =
          binding.imported === '*'
            ? { source: binding.source, names: [], moduleAlias: exported, reexport: true, line }
            : { source: binding.source, names: [{ imported: binding.imported, local: exported }], reexport: true, line };
        if (exported !== local) this.imports.push(decl);
        else {
          const list = before.get(binding.decl);
          if (list) list.push(decl);
          else before.set(binding.decl, [decl]);
        }
      }
    }
    if (before.size > 0) {
      const ordered: ImportDecl[] = [];
      for (const decl of this.imports) ordered.push(...(before.get(decl) ?? []), decl);
      this.imports.splice(0, this.imports.length, ...ordered);
    }
    for (let i = 0; i < this.symbols.length; i++) {
      const sym = this.symbols[i]!;
      const meta = this.meta[i]!;
      if (sym.parent < 0) continue;
      const parent = this.symbols[sym.parent]!;
      if (meta.inheritsExport && MEMBER_KINDS.has(sym.kind)) sym.exported = parent.exported && !meta.isPrivate;
      else if (meta.inheritsExport) sym.exported = parent.exported;
      else if (parent.kind === 'module') sym.exported &&= parent.exported;
    }
  }

  // -------------------------------------------------------------------------------------------
  // CommonJS and other dynamic definitions

  private onExpressionStatement(node: Node, f: Frame): void {
    const expression = node.firstNamedChild;
    if (!expression) return;
    if (expression.type === 'assignment_expression' && this.onDefiningAssignment(expression, f, node)) return;
    if (expression.type === 'call_expression') {
      if (this.onDefinePropertyCall(expression, f, node)) return;
      this.onInheritsCall(expression);
    }
    this.visit(expression, f);
  }

  /** Segments of a plain dotted target (`module.exports.x`, `Foo.prototype.bar`), else undefined. */
  private plainChain(node: Node): string[] | undefined {
    const ref = this.nameRef(node);
    if (!ref || (node.type !== 'member_expression' && node.type !== 'identifier')) return undefined;
    return [...ref.qualifier, ref.name];
  }

  /**
   * `module.exports = …`, `exports.x = …`, `Foo.prototype.bar = function`, `Foo.prototype = {…}`,
   * `obj.name = () => …`, and chains of them (`a.b = a.c = function () {}`, `exports =
   * module.exports = fn`), where every target receives the innermost value. Returns false when
   * the assignment defines nothing.
   */
  private onDefiningAssignment(assignment: Node, f: Frame, statement: Node): boolean {
    const targets: Node[] = [];
    let value: Node | null = assignment;
    while (value?.type === 'assignment_expression') {
      const left = this.field(value, 'left');
      if (left) targets.push(left);
      value = unwrapValue(this.field(value, 'right'));
    }
    if (!value) return false;
    if (targets.length === 1) return this.defineByAssignment(targets[0]!, value, f, statement);
    const defined = targets.map((target) => this.defineByAssignment(target, value, f, statement));
    if (!defined.includes(true)) return false;
    // The targets that define nothing (`exports` in `exports = module.exports = fn`) are still uses.
    targets.forEach((target, i) => {
      if (!defined[i]) this.visit(target, f);
    });
    return true;
  }

  /** One target of a defining assignment, `left = value` (`value` already unwrapped). */
  private defineByAssignment(left: Node, value: Node, f: Frame, statement: Node): boolean {
    if (left.type !== 'member_expression') return false;
    const target = this.plainChain(left);
    if (!target || target.length < 2) return false;
    return this.definePlacedValue(target, value, f, statement);
  }

  /**
   * `target = value` where `target` is a dotted chain of at least two segments: what an
   * assignment to it defines (see {@link onDefiningAssignment}), also used for
   * `Object.defineProperty(Foo.prototype, 'bar', { value: function () {} })`.
   */
  private definePlacedValue(target: readonly string[], value: Node, f: Frame, statement: Node): boolean {
    const fileLevel = f.def === -1;
    const line = statement.startPosition.row + 1;
    const ctx: DeclContext = { exported: true, isDefault: false, outer: statement, decorators: EMPTY_NODES };
    const moduleExports = target[0] === 'module' && target[1] === 'exports';
    if (fileLevel && moduleExports && target.length === 2) {
      this.onModuleExportsAssignment(value, f, ctx, line);
      return true;
    }
    if (fileLevel && ((moduleExports && target.length === 3) || (target[0] === 'exports' && target.length === 2))) {
      const name = target[target.length - 1]!;
      this.defineExportedValue(name, value, f, ctx, line);
      return true;
    }
    const prototypeAt = target.indexOf('prototype');
    if (prototypeAt === target.length - 1 && prototypeAt > 0 && value.type === 'object') {
      // `Foo.prototype = { a() {}, b: function () {} }`
      const owner = target.slice(0, prototypeAt);
      this.onPrototypeObject(value, owner, f);
      return true;
    }
    if (prototypeAt === 1 && target.length === 2 && value.type === 'call_expression') {
      // `Foo.prototype = Object.create(Base.prototype)`: ES5 inheritance.
      const [callee, args] = value.namedChildren;
      const base = args?.firstNamedChild ?? null;
      const calleeRef = this.nameRef(callee ?? null);
      const baseRef = base?.type === 'member_expression' ? this.nameRef(base) : undefined;
      if (calleeRef?.name === 'create' && calleeRef.qualifier[0] === 'Object' && baseRef?.name === 'prototype' && baseRef.qualifier.length > 0) {
        this.addInheritance(target[0]!, { name: baseRef.qualifier[baseRef.qualifier.length - 1]!, qualifier: baseRef.qualifier.slice(0, -1) });
      }
    }
    if (!FUNCTION_VALUES.has(value.type)) return false;
    if (prototypeAt > 0 && prototypeAt === target.length - 2) {
      const owner = target.slice(0, prototypeAt);
      this.definePlacedFunction(value, target[target.length - 1]!, owner, 'method', f, statement, true);
      return true;
    }
    if (fileLevel && target[0] !== 'this' && target[0] !== 'window' && target[0] !== 'globalThis') {
      const owner = target.slice(0, -1);
      const ownerIndex = owner.length === 1 ? this.topLevel.get(owner[0]!) : undefined;
      const ownerKind = ownerIndex !== undefined ? this.symbols[ownerIndex]!.kind : undefined;
      const kind: NodeKind = ownerKind === 'class' || ownerKind === 'function' ? 'method' : 'function';
      this.definePlacedFunction(value, target[target.length - 1]!, owner, kind, f, statement);
      return true;
    }
    return false;
  }

  /** `util.inherits(Child, Parent)` / `inherits(Child, Parent)`: ES5 inheritance. */
  private onInheritsCall(call: Node): void {
    const [callee, args] = call.namedChildren;
    const calleeRef = this.nameRef(callee ?? null);
    if (calleeRef?.name !== 'inherits' || args?.type !== 'arguments') return;
    const [child, parent] = args.namedChildren;
    const parentRef = parent ? this.nameRef(parent) : undefined;
    if (child?.type === 'identifier' && parentRef) this.addInheritance(this.text(child), parentRef);
  }

  /** Record that the file-level function or class `owner` extends `base`. */
  private addInheritance(owner: string, base: NameRef): void {
    const index = this.topLevel.get(owner);
    if (index === undefined) return;
    const sym = this.symbols[index]!;
    if (sym.kind !== 'function' && sym.kind !== 'class') return;
    (sym.supertypes ??= []).push({ ...base, relation: 'extends' });
    this.prototypeOwners.add(index);
  }

  /** A function placed on an object from outside (`Foo.prototype.bar = …`, `utils.format = …`). */
  private definePlacedFunction(value: Node, name: string, owner: string[], kind: NodeKind, f: Frame, statement: Node, viaPrototype = false): void {
    const ownerIndex = owner.length === 1 ? this.topLevel.get(owner[0]!) : undefined;
    if (viaPrototype && ownerIndex !== undefined) this.prototypeOwners.add(ownerIndex);
    const scope = ownerIndex !== undefined ? this.meta[ownerIndex]!.path : owner;
    const thisType = value.type === 'arrow_function' ? f.thisType : { name: owner[owner.length - 1]!, qualifier: owner.slice(0, -1) };
    this.defineFunctionValue(value, name, f, { exported: false, isDefault: false, outer: statement, decorators: EMPTY_NODES }, statement, null, kind, undefined, {
      scope,
      parent: ownerIndex ?? -1,
      thisType,
      inheritsExport: ownerIndex !== undefined,
    });
  }

  private onPrototypeObject(object: Node, owner: string[], f: Frame): void {
    const ownerIndex = owner.length === 1 ? this.topLevel.get(owner[0]!) : undefined;
    if (ownerIndex !== undefined) this.prototypeOwners.add(ownerIndex);
    const scope = ownerIndex !== undefined ? this.meta[ownerIndex]!.path : owner;
    const thisType: NameRef = { name: owner[owner.length - 1]!, qualifier: owner.slice(0, -1) };
    for (const member of object.namedChildren) {
      if (!member) continue;
      let name: string | undefined;
      let fn: Node | null = null;
      if (member.type === 'method_definition') {
        const key = this.field(member, 'name');
        name = key ? this.memberName(key) : undefined;
        fn = member;
      } else if (member.type === 'pair') {
        const key = this.field(member, 'key');
        name = key ? this.memberName(key) : undefined;
        const value = unwrapValue(this.field(member, 'value'));
        if (value && FUNCTION_VALUES.has(value.type)) fn = value;
      }
      if (name === undefined || !fn) {
        this.visit(member, f);
        continue;
      }
      this.defineFunctionValue(fn, name, f, { exported: false, isDefault: false, outer: member, decorators: EMPTY_NODES }, member, null, 'method', undefined, {
        scope,
        parent: ownerIndex ?? -1,
        thisType: fn.type === 'arrow_function' ? f.thisType : thisType,
        inheritsExport: ownerIndex !== undefined,
      });
    }
  }

  /** `module.exports = …`: the module's default export (and, for an object, its named exports). */
  private onModuleExportsAssignment(value: Node, f: Frame, ctx: DeclContext, line: number): void {
    switch (value.type) {
      case 'identifier':
        this.localExports.push({ local: this.text(value), exported: 'default', line });
        return;
      case 'object':
        this.onObjectMembers(value, f, -1, true);
        return;
      case 'class':
        this.onClass(value, f, { ...ctx, isDefault: true }, undefined);
        return;
      default:
        break;
    }
    if (FUNCTION_VALUES.has(value.type)) {
      const fnName = value.type === 'arrow_function' ? undefined : this.field(value, 'name');
      this.defineFunctionValue(value, fnName ? this.text(fnName) : this.defaultName(), f, { ...ctx, isDefault: true }, undefined, null, 'function');
      return;
    }
    const load = this.moduleLoad(value);
    if (load && load.member === undefined) {
      // `module.exports = require('./impl')`: everything of ./impl is re-exported.
      this.imports.push({ source: load.source, names: [{ imported: '*', local: '*' }], reexport: true, line });
      return;
    }
    this.onDefaultExpression(value, f, { ...ctx, isDefault: true });
  }

  /** `exports.x = …` / `module.exports.x = …`. */
  private defineExportedValue(name: string, value: Node, f: Frame, ctx: DeclContext, line: number): void {
    if (FUNCTION_VALUES.has(value.type)) {
      this.defineFunctionValue(value, name, f, ctx, undefined, null, 'function');
      return;
    }
    if (value.type === 'class') {
      this.onClass(value, f, ctx, name);
      return;
    }
    if (value.type === 'identifier') {
      this.localExports.push({ local: this.text(value), exported: name, line });
      return;
    }
    const load = this.moduleLoad(value);
    if (load) {
      // `exports.plugins = require('./plugins')` re-exports the module itself; `require('./x').y` one name of it.
      if (load.member !== undefined) this.imports.push({ source: load.source, names: [{ imported: load.member, local: name }], reexport: true, line });
      else this.imports.push({ source: load.source, names: [], moduleAlias: name, reexport: true, line });
      return;
    }
    const index = this.addSymbol(
      {
        name,
        kind: isLiteral(value) ? 'constant' : 'variable',
        scope: EMPTY,
        startLine: line,
        endLine: ctx.outer.endPosition.row + 1,
        signature: this.wholeSignature(ctx.outer.startIndex, ctx.outer),
        doc: this.docFor(ctx.outer),
        parent: -1,
        exported: true,
        valueType: this.initialiserType(value, f),
      },
      { inheritsExport: false },
    );
    this.visit(value, this.childFrame(f, index, undefined, undefined));
  }

  /**
   * Properties defined by a call rather than a declaration, on the call's target:
   * `Object.defineProperty(target, 'name', { get() {…} })` (any callee named like
   * `defineProperty`, e.g. `Reflect.defineProperty`), `Object.defineProperties(target, { name:
   * {…} })`, `target.__defineGetter__('name', function () {…})`, and local helpers wrapping them
   * (`defineGetter(target, 'name', function () {…})`: a callee named like `defineGetter`,
   * `defineSetter` or `defineProperty` given a target, a string and a function). A descriptor
   * whose `value` is a function defines what `target.name = function …` would (a method on a
   * prototype); getters, setters and the rest make a property. Returns false when the call
   * defines nothing.
   */
  private onDefinePropertyCall(call: Node, f: Frame, statement: Node): boolean {
    const calleeNode = this.field(call, 'function');
    const callee = this.nameRef(calleeNode);
    if (!callee) return false;
    const args = this.field(call, 'arguments')?.namedChildren.filter((arg): arg is Node => arg !== null && arg.type !== 'comment') ?? [];
    if (callee.name === 'defineProperties' && callee.qualifier.length === 1 && callee.qualifier[0] === 'Object') {
      return this.onDefineProperties(args, f);
    }
    if (!DEFINE_PROPERTY_CALLEE.test(callee.name)) return false;
    // `target.__defineGetter__('name', fn)`: the target is the callee's object.
    const onReceiver = /^__define[GS]etter__$/.test(callee.name);
    const targetNode = onReceiver ? (calleeNode?.type === 'member_expression' ? calleeNode.firstNamedChild : null) : args[0];
    const [keyNode, definitionNode] = onReceiver ? args : args.slice(1);
    const definition = unwrapValue(definitionNode ?? null);
    if (!targetNode || keyNode?.type !== 'string' || !definition) return false;
    const target = this.plainChain(targetNode);
    if (!target) return false;
    const name = this.text(keyNode).slice(1, -1);
    if (definition.type === 'object') return this.defineDescribedProperty(target, name, definition, f, statement);
    if (!FUNCTION_VALUES.has(definition.type)) return false;
    const property = this.defineCalledProperty(target, name, f, statement, this.functionParts(definition).body?.startIndex ?? definition.endIndex);
    if (!property) return false;
    // A local helper (`defineGetter(…)`) is still called; the built-in `__defineGetter__` is not worth an edge.
    if (!onReceiver) this.onCall(call, f, definition);
    this.visitFunction(definition, this.childFrame(f, property.index, property.thisType, undefined), undefined);
    return true;
  }

  /** `Object.defineProperties(target, { a: { get() {…} }, b: { value: function () {…} } })`. */
  private onDefineProperties(args: readonly Node[], f: Frame): boolean {
    const [targetNode, descriptors] = args;
    const target = targetNode ? this.plainChain(targetNode) : undefined;
    if (!target || descriptors?.type !== 'object') return false;
    let defined = false;
    const rest: Node[] = [];
    for (const member of descriptors.namedChildren) {
      if (!member) continue;
      const key = member.type === 'pair' ? this.field(member, 'key') : null;
      const name = key ? this.memberName(key) : undefined;
      const descriptor = unwrapValue(this.field(member, 'value'));
      // Each property spans (and takes its doc comment from) its own entry.
      if (name !== undefined && descriptor?.type === 'object' && this.defineDescribedProperty(target, name, descriptor, f, member)) defined = true;
      else rest.push(member);
    }
    if (defined) for (const member of rest) this.visit(member, f);
    return defined;
  }

  /** `name` on `target`, described by `descriptor` (`{ get() {…} }`, `{ value: function () {…} }`). */
  private defineDescribedProperty(target: readonly string[], name: string, descriptor: Node, f: Frame, statement: Node): boolean {
    for (const member of descriptor.namedChildren) {
      if (member?.type !== 'pair' || this.text(this.field(member, 'key') ?? member) !== 'value') continue;
      const value = unwrapValue(this.field(member, 'value'));
      if (value && FUNCTION_VALUES.has(value.type) && this.definePlacedValue([...target, name], value, f, statement)) return true;
    }
    const property = this.defineCalledProperty(target, name, f, statement, descriptor.startIndex);
    if (!property) return false;
    const { index, thisType } = property;
    const frame = this.childFrame(f, index, thisType, undefined);
    for (const member of descriptor.namedChildren) {
      if (!member) continue;
      if (member.type === 'method_definition') this.visitFunction(member, this.childFrame(frame, index, thisType, undefined), undefined);
      else this.visit(member, frame);
    }
    return true;
  }

  /**
   * The property symbol for `name` defined on `target` by a call: exported on `exports` and
   * `module.exports`, else a member of the target (of `Foo` for `Foo.prototype`). Undefined for
   * `this` and, inside a function, for targets that are not file-level symbols.
   */
  private defineCalledProperty(
    target: readonly string[],
    name: string,
    f: Frame,
    statement: Node,
    signatureEnd: number,
  ): { index: number; thisType: NameRef | undefined } | undefined {
    let scope: readonly string[];
    let parent = -1;
    let exported = false;
    let inheritsExport = false;
    let thisType: NameRef | undefined;
    if ((target.length === 1 && target[0] === 'exports') || (target.length === 2 && target[0] === 'module' && target[1] === 'exports')) {
      scope = EMPTY;
      exported = true;
    } else {
      const viaPrototype = target[target.length - 1] === 'prototype';
      const owner = viaPrototype ? target.slice(0, -1) : target;
      if (owner.length === 0 || owner[0] === 'this') return undefined;
      const ownerIndex = owner.length === 1 ? this.topLevel.get(owner[0]!) : undefined;
      if (viaPrototype && ownerIndex !== undefined) this.prototypeOwners.add(ownerIndex);
      scope = ownerIndex !== undefined ? this.meta[ownerIndex]!.path : owner;
      parent = ownerIndex ?? -1;
      inheritsExport = ownerIndex !== undefined;
      thisType = { name: owner[owner.length - 1]!, qualifier: owner.slice(0, -1) };
    }
    if (f.def !== -1 && parent === -1) return undefined;
    const index = this.addSymbol(
      {
        name,
        kind: 'property',
        scope,
        startLine: statement.startPosition.row + 1,
        endLine: statement.endPosition.row + 1,
        signature: this.signature(statement.startIndex, signatureEnd),
        doc: this.docFor(statement),
        parent,
        exported,
      },
      { inheritsExport },
    );
    return { index, thisType };
  }

  // -------------------------------------------------------------------------------------------
  // References

  private addReference(name: string, qualifier: readonly string[], kind: ReferenceKind, from: number, line: number, receiverType: NameRef | undefined): Reference | undefined {
    const key = `${from}|${kind}|${qualifier.join('.')}|${name}|${line}|${receiverType ? receiverType.name : ''}`;
    if (this.referenceKeys.has(key)) return undefined;
    this.referenceKeys.add(key);
    const ref: { -readonly [K in keyof Reference]: Reference[K] } = { name, qualifier, from, kind, line };
    if (receiverType) ref.receiverType = receiverType;
    this.references.push(ref);
    return ref;
  }

  /** Keep a tentative value reference only if its name is imported or defined at file level. */
  private keepReference(ref: Reference): boolean {
    if (this.valueCandidates.has(ref)) {
      const head = ref.qualifier[0] ?? ref.name;
      return this.importBindings.has(head) || this.topLevel.has(head);
    }
    if (this.globalCandidates.has(ref)) {
      const head = ref.qualifier[0] ?? ref.name;
      return this.importBindings.has(head) || this.topLevel.has(head);
    }
    return true;
  }

  /**
   * A call or construction, unless it cannot lead anywhere: a bare call of a parameter or local
   * (`next()`, `onPress()`), or of a JavaScript global (`new Map()`, `console.log()`,
   * `Object.assign()`) that the file neither imports nor defines.
   */
  private addCall(name: string, qualifier: readonly string[], kind: ReferenceKind, f: Frame, line: number, receiverType: NameRef | undefined): void {
    const head = qualifier[0];
    if (head === undefined) {
      const local = this.lookupLocal(name, f);
      if (local && !local.moduleLevel) return;
      const ref = this.addReference(name, qualifier, kind, f.def, line, receiverType);
      if (ref && GLOBAL_FUNCTIONS.has(name) && !local) this.globalCandidates.add(ref);
      return;
    }
    const ref = this.addReference(name, qualifier, kind, f.def, line, receiverType);
    if (ref && GLOBAL_OBJECTS.has(head) && !this.lookupLocal(head, f)) this.globalCandidates.add(ref);
  }

  private useIdentifier(node: Node, f: Frame): void {
    const name = this.text(node);
    const local = this.lookupLocal(name, f);
    if (local && !local.moduleLevel) return;
    const ref = this.addReference(name, EMPTY, 'value', f.def, node.startPosition.row + 1, undefined);
    if (ref) this.valueCandidates.add(ref);
  }

  /**
   * Name the parts of a callee chain: identifiers and `this`/`super`, and `?` for an
   * expression root (a call result, a subscript, a parenthesised expression) — the same
   * convention as the other language modules, so `a.b().c()` is `c` on `?`. Unnamed
   * sub-expressions are collected in `pending` so the walk still visits them.
   */
  private flatten(node: Node, out: Flattened): void {
    switch (node.type) {
      case 'identifier':
      case 'property_identifier':
      case 'private_property_identifier':
        out.segments.push(this.text(node));
        return;
      case 'this':
      case 'super':
        out.segments.push(node.type);
        return;
      case 'member_expression': {
        // Named children: object, optional `?.`, property.
        const children = node.namedChildren;
        const object = children[0];
        const property = children.length > 1 ? children[children.length - 1] : undefined;
        if (object) this.flatten(object, out);
        out.segments.push(property ? this.text(property) : '?');
        return;
      }
      case 'non_null_expression':
        if (node.firstNamedChild) this.flatten(node.firstNamedChild, out);
        else out.segments.push('?');
        return;
      default:
        out.segments.push('?');
        out.pending.push(node);
    }
  }

  /**
   * The declared or constructed type of the qualifier's head, when it is a typed local,
   * parameter or module variable. The core resolves the remaining segments from there
   * (`s.inner.put()`: `Store` → `inner` → `put`). `this`/`super` get none: the core resolves
   * them through the enclosing class, which is also what makes `super.m()` skip the class's own `m`.
   */
  private receiverType(flat: Flattened, f: Frame): NameRef | undefined {
    const head = flat.segments[0];
    if (head === undefined || head === 'this' || head === 'super') return undefined;
    // An expression root is visited first, so it is the first pending node: `new Foo().m()`, `(x as Foo).m()`.
    if (head === '?') return this.initialiserType(flat.pending[0] ?? null, f);
    return this.lookupLocal(head, f)?.type ?? undefined;
  }

  /** Emit the `this.x` field reference of a chain rooted at `this`. */
  private thisFieldReference(segments: readonly string[], f: Frame, line: number): void {
    const field = segments[1];
    if (segments[0] !== 'this' || field === undefined || field.endsWith(')') || field.endsWith(']') || field === '?') return;
    this.addReference(field, ['this'], 'field', f.def, line, undefined);
  }

  private onCall(node: Node, f: Frame, skipArgument?: Node): void {
    // Named children: the callee, optional type arguments, the arguments (or a template).
    const children = node.namedChildren;
    const fn = children[0] ?? null;
    const args = children.length > 1 ? children[children.length - 1] ?? null : null;
    const line = node.startPosition.row + 1;
    if (fn) {
      switch (fn.type) {
        case 'import': {
          const load = this.moduleLoad(node, true);
          if (load) this.addImport({ source: load.source, names: [], line });
          else if (args) this.visitChildren(args, f);
          return;
        }
        case 'identifier': {
          const name = this.text(fn);
          if (name === 'require') {
            const load = this.moduleLoad(node);
            if (load) {
              this.addImport({ source: load.source, names: [], line });
              return;
            }
          }
          this.addCall(name, EMPTY, 'call', f, line, undefined);
          break;
        }
        case 'super':
          this.addReference('constructor', ['super'], 'call', f.def, line, undefined);
          break;
        case 'member_expression': {
          const flat: Flattened = { segments: [], pending: [] };
          this.flatten(fn, flat);
          const name = flat.segments.pop()!;
          this.addCall(name, flat.segments, 'call', f, line, this.receiverType(flat, f));
          this.thisFieldReference(flat.segments, f, line);
          for (const pending of flat.pending) this.visit(pending, f);
          break;
        }
        default:
          this.visit(fn, f);
      }
    }
    if (children.length > 2) {
      for (let i = 1; i < children.length - 1; i++) {
        const child = children[i];
        if (child?.type === 'type_arguments') this.typeReferences(child, f);
      }
    }
    if (!args) return;
    for (const arg of args.namedChildren) {
      if (!arg) continue;
      if (skipArgument && arg.startIndex <= skipArgument.startIndex && skipArgument.endIndex <= arg.endIndex) {
        // The wrapped definition is walked by its own symbol; a wrapper around it (`memo(forwardRef(fn))`) still is a call.
        if (arg.startIndex === skipArgument.startIndex && arg.type === skipArgument.type) continue;
        if (arg.type === 'call_expression') {
          this.onCall(arg, f, skipArgument);
          continue;
        }
      }
      this.visit(arg, f);
    }
  }

  private onNew(node: Node, f: Frame, kind: ReferenceKind): void {
    const children = node.namedChildren;
    const line = node.startPosition.row + 1;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (!child) continue;
      const type = child.type;
      if (i === 0) {
        const ref = type === 'identifier' || type === 'member_expression' ? this.nameRef(child) : undefined;
        if (!ref) this.visit(child, f);
        else if (kind === 'raise') this.addReference(ref.name, ref.qualifier, kind, f.def, line, undefined);
        else this.addCall(ref.name, ref.qualifier, kind, f, line, undefined);
      } else if (type === 'type_arguments') {
        this.typeReferences(child, f);
      } else if (type === 'arguments') {
        this.visitChildren(child, f);
      }
    }
  }

  private onThrow(node: Node, f: Frame): void {
    let thrown = node.firstNamedChild;
    while (thrown?.type === 'parenthesized_expression') thrown = thrown.firstNamedChild;
    if (thrown?.type === 'new_expression') this.onNew(thrown, f, 'raise');
    else if (thrown) this.visit(thrown, f);
  }

  /** A member read outside call position: `this.x` → field; `config.port` → value use of `config`. */
  private onMember(node: Node, f: Frame): void {
    const flat: Flattened = { segments: [], pending: [] };
    this.flatten(node, flat);
    const line = node.startPosition.row + 1;
    const root = flat.segments[0];
    if (root === 'this') {
      this.thisFieldReference(flat.segments, f, line);
    } else if (root !== undefined && root !== 'super' && root !== '?' && !root.endsWith(')') && !root.endsWith(']')) {
      const local = this.lookupLocal(root, f);
      if (!local || local.moduleLevel) {
        // `ns.X`, `Role.Admin`, `Config.DEFAULT`: the member itself; `config.port`: the object.
        const second = flat.segments[1];
        const first = root.charCodeAt(0);
        const member =
          second !== undefined && second !== '?' && second !== 'prototype' && (this.moduleAliases.has(root) || (first >= 65 && first <= 90));
        const ref = member
          ? this.addReference(second, [root], 'value', f.def, line, undefined)
          : this.addReference(root, EMPTY, 'value', f.def, line, undefined);
        if (ref) this.valueCandidates.add(ref);
      }
    }
    for (const pending of flat.pending) this.visit(pending, f);
  }

  private onAssignment(node: Node, f: Frame): void {
    const [left = null, right = null] = node.namedChildren;
    // `this.store = new Store()` in a constructor declares the field `store` (JavaScript's way).
    const cls = f.cls;
    if (cls && f.def === cls.ctorIndex && f.thisType && right && left?.type === 'member_expression') {
      const parts = left.namedChildren;
      const object = parts[0];
      const property = parts.length > 1 ? parts[parts.length - 1] : undefined;
      if (object?.type === 'this' && property) {
        const name = this.text(property);
        if (!cls.declared.has(name)) {
          cls.declared.add(name);
          this.declareAssignedField(cls, name, node, right, f);
        }
      }
    }
    if (left) this.visit(left, f);
    if (right) this.visit(right, f);
  }

  private declareAssignedField(cls: ClassInfo, name: string, assignment: Node, value: Node, f: Frame): void {
    const field: PendingField = {
      name,
      startLine: assignment.startPosition.row + 1,
      endLine: assignment.endPosition.row + 1,
      signature: this.wholeSignature(assignment.startIndex, assignment),
      valueType: this.initialiserType(value, f),
    };
    if (cls.pending) cls.pending.push(field);
    else this.addField(cls, field);
  }

  private addField(cls: ClassInfo, field: PendingField): void {
    this.addSymbol(
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

  private onJsxElement(node: Node, f: Frame): void {
    const children = node.namedChildren;
    const first = children[0];
    const firstType = first?.type;
    const nameNode = firstType === 'identifier' || firstType === 'member_expression' || firstType === 'nested_identifier' || firstType === 'jsx_namespace_name' ? first! : null;
    if (nameNode) {
      const line = node.startPosition.row + 1;
      if (nameNode.type === 'identifier') {
        const name = this.text(nameNode);
        // Lower-case tags are intrinsic elements (`div`), not components.
        const first = name.charCodeAt(0);
        if (first >= 65 && first <= 90) this.addCall(name, EMPTY, 'call', f, line, undefined);
      } else if (nameNode.type === 'member_expression') {
        const ref = this.nameRef(nameNode);
        if (ref) this.addReference(ref.name, ref.qualifier, 'call', f.def, line, undefined);
      }
    }
    for (const child of children) {
      if (!child || child === nameNode) continue;
      if (child.type === 'jsx_attribute') {
        for (const part of child.namedChildren) if (part && part.type !== 'property_identifier') this.visit(part, f);
      } else {
        this.visit(child, f);
      }
    }
  }

  private onBinary(node: Node, f: Frame): void {
    const [left, right] = node.namedChildren;
    // The operator is the text between the operands; reading it there costs no extra node.
    if (left && right && this.src.slice(left.endIndex, right.startIndex).includes('instanceof')) {
      this.visit(left, f);
      const type = right.type;
      const ref = type === 'identifier' || type === 'member_expression' ? this.nameRef(right) : undefined;
      if (ref) this.addReference(ref.name, ref.qualifier, 'type', f.def, node.startPosition.row + 1, undefined);
      else this.visit(right, f);
      return;
    }
    this.visitChildren(node, f);
  }

  private onCatch(node: Node, f: Frame): void {
    const parameter = this.field(node, 'parameter');
    if (parameter) for (const name of this.patternNames(parameter)) this.declareLocal(f, name, null);
    const type = this.field(node, 'type');
    if (type) this.typeReferences(type, f);
    this.visitField(node, 'body', f);
  }

  private onForIn(node: Node, f: Frame): void {
    const [left, right, body] = node.namedChildren;
    if (left) {
      if (left.type === 'identifier' || left.type === 'object_pattern' || left.type === 'array_pattern') {
        for (const name of this.patternNames(left)) this.declareLocal(f, name, null);
      } else {
        this.visit(left, f);
      }
    }
    if (right) this.visit(right, f);
    if (body) this.visit(body, f);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

const EMPTY_NODES: readonly Node[] = Object.freeze([]);

/** Strip wrappers that do not change what a value is: parentheses, `as const`, `satisfies T`, `!`. */
function unwrapValue(value: Node | null): Node | null {
  let current = value;
  while (current) {
    switch (current.type) {
      case 'parenthesized_expression':
      case 'as_expression':
      case 'satisfies_expression':
      case 'non_null_expression':
        current = current.firstNamedChild;
        continue;
      default:
        return current;
    }
  }
  return null;
}

/** Literal initialisers make a `const` a constant: numbers, strings, objects, arrays, `-1`. */
function isLiteral(value: Node | null): boolean {
  if (!value) return false;
  if (LITERAL_NODES.has(value.type)) return true;
  if (value.type === 'unary_expression') {
    const operand = value.childForFieldName('argument');
    return operand !== null && (operand.type === 'number' || operand.type === 'true' || operand.type === 'false');
  }
  return false;
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

// ---------------------------------------------------------------------------------------------
// Import resolution

const TS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.d.ts'];
/** TypeScript's convention: `./x.js` in a TS import names the source `./x.ts`. */
const EMITTED_TO_SOURCE: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};
/** Where monorepos keep workspace packages, for bare specifiers naming one. */
const WORKSPACE_DIRECTORIES = ['packages', 'apps', 'libs'];

/**
 * Resolve a TS/JS module specifier. Relative specifiers try the path as written, TypeScript's
 * `.js` → `.ts` mapping, every script extension and directory `index` files. `@/x` and `~/x`
 * (the usual `paths` aliases) try the nearest `src/` directory and the root. Bare specifiers
 * naming a workspace package (`packages/<name>/…`) resolve into it; anything else is external:
 * the package name (`@scope/pkg`, `lodash` for `lodash/fp`), or `node` for Node.js core modules.
 */
export function resolveScriptImport(decl: ImportDecl, fromFile: string, project: ProjectLayout): ResolvedImport {
  const specifier = decl.source;
  const fromTs = /\.[cm]?tsx?$/i.test(fromFile);
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const joined = specifier.startsWith('/') ? specifier.slice(1) : `${directoryOf(fromFile)}/${specifier}`;
    const target = normalisePath(joined);
    if (target === undefined) return { files: [] };
    const hit = resolveModulePath(target, project, fromTs);
    return { files: hit === undefined ? [] : [hit] };
  }
  if (specifier.startsWith('@/') || specifier.startsWith('~/')) {
    const rest = specifier.slice(2);
    for (const base of aliasRoots(fromFile)) {
      const target = normalisePath(base ? `${base}/${rest}` : rest);
      const hit = target === undefined ? undefined : resolveModulePath(target, project, fromTs);
      if (hit !== undefined) return { files: [hit] };
    }
    return { files: [] };
  }
  if (specifier.startsWith('node:')) return { files: [], external: 'node' };
  const parts = specifier.split('/');
  const scoped = specifier.startsWith('@') && parts.length >= 2;
  const packageName = scoped ? `${parts[0]}/${parts[1]}` : parts[0]!;
  if (NODE_BUILTINS.has(packageName)) return { files: [], external: 'node' };
  const subpath = parts.slice(scoped ? 2 : 1).join('/');
  const directoryName = scoped ? parts[1]! : parts[0]!;
  for (const workspace of WORKSPACE_DIRECTORIES) {
    const root = `${workspace}/${directoryName}`;
    const candidates = subpath ? [`${root}/src/${subpath}`, `${root}/${subpath}`] : [`${root}/src/index`, `${root}/index`, `${root}/lib/index`];
    for (const candidate of candidates) {
      const hit = resolveModulePath(candidate, project, fromTs);
      if (hit !== undefined) return { files: [hit] };
    }
  }
  return { files: [], external: packageName };
}

function resolveModulePath(target: string, project: ProjectLayout, preferTs: boolean): string | undefined {
  const dot = target.lastIndexOf('.');
  const extension = dot > target.lastIndexOf('/') ? target.slice(dot).toLowerCase() : '';
  const mapped = EMITTED_TO_SOURCE[extension];
  if (mapped) {
    const stem = target.slice(0, dot);
    if (!preferTs && project.hasFile(target)) return target;
    for (const candidate of mapped) if (project.hasFile(stem + candidate)) return stem + candidate;
    if (project.hasFile(target)) return target;
  } else if (extension && project.hasFile(target)) {
    return target;
  }
  const extensions = preferTs ? TS_EXTENSIONS : JS_EXTENSIONS;
  for (const candidate of extensions) if (project.hasFile(target + candidate)) return target + candidate;
  const index = target ? `${target}/index` : 'index';
  for (const candidate of extensions) if (project.hasFile(index + candidate)) return index + candidate;
  return undefined;
}

function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Resolve `.` and `..` segments; undefined when the path leaves the repository. */
function normalisePath(path: string): string | undefined {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else {
      out.push(segment);
    }
  }
  return out.join('/');
}

/** Candidate bases for `@/…` aliases: the nearest enclosing `src` directory, the root's `src`, the root. */
function aliasRoots(fromFile: string): string[] {
  const roots: string[] = [];
  const parts = fromFile.split('/');
  for (let i = parts.length - 2; i >= 0; i--) {
    if (parts[i] === 'src') {
      roots.push(parts.slice(0, i + 1).join('/'));
      break;
    }
  }
  if (!roots.includes('src')) roots.push('src');
  roots.push('');
  return roots;
}
