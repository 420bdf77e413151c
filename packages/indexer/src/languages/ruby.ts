/**
 * Ruby support: one pass over a tree-sitter-ruby tree produces the file's definitions, the
 * names it uses and its requires (see `./types.ts` for the contract).
 *
 * Qualified names follow the constant path. Every member of a class or module (method,
 * attribute, constant, alias) has ONE scope entry, the full constant path joined with `::`
 * (`process` in `module Jekyll; class Site` → scope `['Jekyll::Site']`, QN
 * `lib/jekyll/site.rb.Jekyll::Site.process`). A class or module itself has its terminal name,
 * an empty scope and `localName` = its full path (`Site`, `[]`, `Jekyll::Site`), so its QN
 * `lib/jekyll/site.rb.Jekyll::Site` is the prefix of its members'. `class A::B` inside
 * `module C` is `C::A::B`; `class ::D` is `D`. A class reopened in the same file is one symbol;
 * reopened in several files it is one symbol per file.
 *
 * Other choices: `def self.m` and methods inside `class << self` are `method`s whose signature
 * reads `def self.m`; top-level `def` is a `function`; `attr_reader`/`attr_writer`/
 * `attr_accessor` give a `property` per name; `define_method(:m)` and `alias`/`alias_method`
 * give `method`s (an alias also calls its original). Calls made in a class body with no
 * receiver (`before_action :x`, `has_many :posts`, `validates ...`) are `decorators` of the
 * class, and the method names given to callback DSLs (`before_*`, `after_*`, `around_*`,
 * `validate`) are calls from it. `@ivar` reads and writes are `field` references
 * (name without `@`, qualifier `['self']`); a call through one (`@store.put`) has qualifier
 * `['self', 'store']` and, when the file assigns `@store = Store.new`, receiver type `Store`.
 */
import type { NodeKind } from '@knowing/graph';
import type { Node } from 'web-tree-sitter';
import { countSyntaxErrors, MAX_DOC_CHARS, normalizeRelativePath, truncate } from './common.js';
import type { CommentScan, MutableSymbol } from './common.js';
import { addReference, declarationSignature, lineEnd, named } from './extractor-helpers.js';
import type { FileExtraction, ImportDecl, LanguageModule, NameRef, ProjectLayout, Reference, ReferenceKind, ResolvedImport, SupertypeRef } from './types.js';

/** Core and standard-library constants: never defined by the repository. */
const RUBY_BUILTIN_CONSTANTS = new Set(
  (
    'Object Kernel BasicObject Module Class Comparable Enumerable Enumerator String Symbol Integer Float Numeric ' +
    'Array Hash Set Range Regexp MatchData Proc Method UnboundMethod NilClass TrueClass FalseClass Time Date ' +
    'DateTime File Dir IO StringIO Pathname URI JSON YAML Psych ERB CGI Struct OpenStruct Process Signal Thread ' +
    'Mutex Queue ConditionVariable Fiber GC ObjectSpace Marshal Math Random Encoding Errno ENV ARGV ARGF STDIN ' +
    'STDOUT STDERR RUBY_VERSION RUBY_PLATFORM RUBY_ENGINE Gem Logger Benchmark Timeout SecureRandom Digest ' +
    'Base64 Zlib Shellwords Open3 FileUtils Tempfile Forwardable Singleton Rational Complex BigDecimal Warning ' +
    'Ractor Data Etc Socket Net OptionParser PP Ripper Coverage Monitor Observable Delegator SimpleDelegator ' +
    'RSpec Minitest Test ' +
    '__FILE__ __LINE__ __dir__'
  ).split(' '),
);

/** Builtin exceptions: raising one says little about the code and would make a hub node. */
const RUBY_BUILTIN_EXCEPTIONS = new Set(
  (
    'Exception StandardError RuntimeError ArgumentError TypeError NameError NoMethodError KeyError IndexError ' +
    'IOError EOFError ScriptError LoadError NotImplementedError SecurityError StopIteration RangeError ' +
    'FloatDomainError FrozenError ZeroDivisionError Interrupt SignalException SystemExit SystemCallError ' +
    'EncodingError FiberError ThreadError RegexpError LocalJumpError NoMatchingPatternError'
  ).split(' '),
);

/** Kernel / Module methods called without a receiver: not references to repository code. */
const KERNEL_METHODS = new Set(
  (
    'puts print p pp require require_relative load autoload raise fail lambda proc loop format sprintf printf ' +
    'sleep rand srand exit exit! abort at_exit warn catch throw block_given? binding caller freeze frozen? ' +
    'respond_to? send __send__ public_send instance_variable_get instance_variable_set instance_variable_defined? ' +
    'instance_variables is_a? kind_of? instance_of? nil? then tap yield_self itself class dup clone method ' +
    'methods define_method define_singleton_method attr_reader attr_writer attr_accessor attr include extend ' +
    'prepend private protected public module_function private_class_method public_class_method ' +
    'private_constant alias_method gets system exec spawn fork trap open Integer Float String Array Hash Rational ' +
    'Complex __method__ __dir__ object_id hash inspect to_s equal? eql? instance_eval instance_exec class_eval ' +
    'class_exec module_eval singleton_class require_dependency using refine attr_internal'
  ).split(' '),
);

/** Methods of core classes: called on a receiver of unknown type they would resolve by name only. */
const CORE_METHODS = new Set(
  (
    'each each_with_index each_with_object map flat_map collect select filter reject find detect inject reduce ' +
    'sum count sort sort_by group_by partition zip take drop first last include? any? all? none? empty? size ' +
    'length to_a to_h to_s to_sym to_i to_f to_proc join split strip chomp downcase upcase gsub sub start_with? ' +
    'end_with? match? scan push pop shift unshift concat compact flatten uniq reverse keys values key? merge ' +
    'dup freeze frozen? tap then send public_send is_a? kind_of? respond_to? nil? inspect class instance_of? ' +
    'equal? eql? hash == != =~ << + - * / % [] []= ! each_pair each_key each_value transform_values ' +
    'transform_keys delete_if keep_if min max min_by max_by sort! map! select! reject! uniq! compact! ' +
    'gsub! sub! strip! encode force_encoding bytes chars lines unpack pack ljust rjust center format between? ' +
    'succ pred times upto downto step abs round floor ceil zero? positive? negative? odd? even?'
  ).split(' '),
);

/** RSpec / Minitest DSL: in test files these are framework calls, not repository code. */
const TEST_DSL = new Set(
  (
    'describe context it specify example before after around let let! subject expect allow is_expected ' +
    'allow_any_instance_of expect_any_instance_of receive and_return and_raise eq eql be be_a be_an be_nil ' +
    'be_truthy be_falsey match include raise_error change have_attributes instance_double double spy ' +
    'assert assert_equal assert_nil assert_raises assert_includes assert_match refute refute_equal refute_nil ' +
    'setup teardown should should_not shared_examples shared_context it_behaves_like include_examples ' +
    'skip pending focus xit xdescribe to not_to to_not'
  ).split(' '),
);

const VISIBILITY_KEYWORDS = new Set(['private', 'protected', 'public', 'module_function']);
const CALLBACK_DSL = /^(before|after|around|skip_before|skip_after|skip_around|prepend_before|prepend_after|append_before|append_after)_|^validate$/;
const ALL_CAPS = /^[A-Z][A-Z0-9_]*$/;
const MAGIC_COMMENT = /^\s*(frozen_string_literal|encoding|coding|warn_indent|shareable_constant_value|typed|rubocop:|:nodoc:)/;
/** Receivers that are literals: calls on them are never repository methods worth an edge. */
const LITERAL_RECEIVERS = new Set(['string', 'array', 'hash', 'integer', 'float', 'simple_symbol', 'delimited_symbol', 'regex', 'string_array', 'symbol_array', 'rational', 'complex', 'true', 'false', 'nil', 'heredoc_beginning', 'chained_string']);

type Visibility = 'public' | 'private' | 'protected';

/** The class or module being walked. */
interface Container {
  /** Full constant path, `Jekyll::Site`. */
  readonly path: string;
  /** The same path as a name reference (`Site` with qualifier `['Jekyll']`). */
  readonly ref: NameRef;
  readonly index: number;
  superclass: NameRef | undefined;
}

interface PendingComment {
  readonly startIndex: number;
  readonly endIndex: number;
}

function isRubyTestFile(path: string): boolean {
  const segments = path.split('/');
  const base = segments[segments.length - 1] ?? '';
  if (/_(spec|test)\.rb$/.test(base) || /^test_.*\.rb$/.test(base)) return true;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i];
    if (segment === 'spec' || segment === 'test' || segment === 'tests' || segment === 'features') return true;
  }
  return false;
}

function refKey(from: number, kind: ReferenceKind, name: string, qualifier: readonly string[], receiverType: NameRef | undefined): string {
  const receiver = receiverType ? `${receiverType.qualifier.join('::')}:${receiverType.name}` : '';
  return `${from}|${kind}|${qualifier.join('.')}|${name}|${receiver}`;
}

/** `Foo`, `Foo::Bar`, `::Foo` as segments; undefined for anything else. */
function constantSegments(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.type === 'constant') return [node.text];
  if (node.type === 'scope_resolution') {
    const scope = node.childForFieldName('scope');
    const name = node.childForFieldName('name');
    if (!name || name.type !== 'constant') return undefined;
    if (!scope) return [name.text];
    const head = constantSegments(scope);
    return head ? [...head, name.text] : undefined;
  }
  return undefined;
}

function isTopLevelPath(node: Node): boolean {
  // `class ::Foo` starts from the top level whatever the lexical nesting.
  return node.type === 'scope_resolution' && !node.childForFieldName('scope');
}

function toRef(segments: readonly string[]): NameRef {
  return { name: segments[segments.length - 1] ?? '', qualifier: segments.slice(0, -1) };
}

/** `:name`, `"name"`, `'name'` → `name`; undefined for dynamic strings and other nodes. */
function symbolName(node: Node): string | undefined {
  if (node.type === 'simple_symbol') return node.text.replace(/^:/, '');
  if (node.type === 'string' || node.type === 'delimited_symbol') {
    const parts = named(node);
    if (parts.length === 1 && parts[0]?.type === 'string_content') return parts[0].text;
    if (parts.length === 0) return undefined;
  }
  return undefined;
}

/** A string literal without interpolation (`'a/b'`, `"a/b"`). */
function literalString(node: Node | undefined): string | undefined {
  if (!node || node.type !== 'string') return undefined;
  const parts = named(node);
  if (parts.length === 1 && parts[0]?.type === 'string_content') return parts[0].text;
  return undefined;
}

/** `=begin` opens a block comment only at the start of a line; the tree tells which ones do. */
const RUBY_COMMENT_OPENERS: readonly string[] = Object.freeze(['#', '=begin']);

class RubyFileExtractor {
  readonly symbols: MutableSymbol[] = [];
  readonly references: Reference[] = [];
  readonly imports: ImportDecl[] = [];

  private readonly seen = new Set<string>();
  private readonly comments = new Map<number, PendingComment>();
  /** Symbols by parent, scope, name and kind: a redefinition or reopening merges into the first. */
  private readonly symbolKeys = new Map<string, number>();
  private readonly fileIsTest: boolean;
  private from = -1;
  private container: Container | undefined;
  private visibility: Visibility = 'public';
  /** Inside `class << self`. */
  private singleton = false;
  /** Inside a method body (not directly in a class body). */
  private inMethod = false;
  private methodName: string | undefined;
  private locals = new Map<string, NameRef | undefined>();
  /** `@ivar` → type, per class path, from `@ivar = Foo.new`. */
  private readonly ivarTypes = new Map<string, Map<string, NameRef>>();

  private readonly commentScan: CommentScan;

  constructor(
    private readonly source: string,
    path: string,
    root: Node,
  ) {
    this.fileIsTest = isRubyTestFile(path);
    this.commentScan = { root, openers: RUBY_COMMENT_OPENERS };
  }

  // ---- walking --------------------------------------------------------------------------

  visit(node: Node): void {
    switch (node.type) {
      case 'comment':
        this.comment(node);
        return;
      case 'class':
      case 'module':
        this.classOrModule(node);
        return;
      case 'singleton_class':
        this.singletonClass(node);
        return;
      case 'method':
      case 'singleton_method':
        this.method(node);
        return;
      case 'call':
        this.call(node);
        return;
      case 'identifier':
        this.bareIdentifier(node);
        return;
      case 'constant':
      case 'scope_resolution':
        this.constantUse(node);
        return;
      case 'instance_variable':
      case 'class_variable':
        this.ivarUse(node);
        return;
      case 'assignment':
      case 'operator_assignment':
        this.assignment(node);
        return;
      case 'super':
        this.superCall(node);
        return;
      case 'alias':
        this.alias(node);
        return;
      case 'block':
      case 'do_block':
      case 'lambda':
        this.block(node);
        return;
      case 'method_parameters':
      case 'block_parameters':
      case 'lambda_parameters':
        this.parameters(node);
        return;
      case 'for': {
        const pattern = node.childForFieldName('pattern');
        if (pattern) this.bindTargets(pattern, undefined);
        this.visitOptional(node.childForFieldName('value'));
        this.visitOptional(node.childForFieldName('body'));
        return;
      }
      case 'rescue':
        this.rescue(node);
        return;
      case 'pair': {
        const key = node.childForFieldName('key');
        if (key && key.type !== 'hash_key_symbol' && key.type !== 'simple_symbol') this.visit(key);
        this.visitOptional(node.childForFieldName('value'));
        return;
      }
      case 'simple_symbol':
      case 'hash_key_symbol':
      case 'string_content':
      case 'escape_sequence':
      case 'global_variable':
      case 'self':
      case 'nil':
      case 'true':
      case 'false':
      case 'integer':
      case 'float':
      case 'character':
      case 'rational':
      case 'complex':
      case 'heredoc_end':
      case 'heredoc_beginning':
        return;
      default:
        for (const child of named(node)) this.visit(child);
    }
  }

  private visitOptional(node: Node | null): void {
    if (node) this.visit(node);
  }

  private comment(node: Node): void {
    const start = node.startIndex;
    if (this.source[start] !== '#') return;
    // A comment after code on the same line documents that code, not the next definition.
    for (let i = start - 1; i >= 0; i--) {
      const ch = this.source[i];
      if (ch === '\n') break;
      if (ch !== ' ' && ch !== '\t') return;
    }
    this.comments.set(node.startPosition.row, { startIndex: start, endIndex: node.endIndex });
  }

  // ---- definitions ----------------------------------------------------------------------

  private classOrModule(node: Node): void {
    const nameNode = node.childForFieldName('name');
    const written = constantSegments(nameNode);
    if (!nameNode || !written) {
      for (const child of named(node)) this.visit(child);
      return;
    }
    const isModule = node.type === 'module';
    const prefix = this.container && !isTopLevelPath(nameNode) ? this.container.path.split('::') : [];
    const segments = [...prefix, ...written];
    const path = segments.join('::');
    const name = segments[segments.length - 1] ?? '';

    let superclass: NameRef | undefined;
    const supertypes: SupertypeRef[] = [];
    const superNode = node.childForFieldName('superclass');
    if (superNode) {
      let expression = superNode.namedChild(0);
      if (expression?.type === 'element_reference') expression = expression.childForFieldName('object') ?? expression.namedChild(0);
      const superSegments = constantSegments(expression);
      if (superSegments) {
        superclass = toRef(superSegments);
        supertypes.push({ ...superclass, relation: 'extends' });
      }
    }

    const signatureEnd = superNode?.endIndex ?? nameNode.endIndex;
    const index = this.addSymbol(node, {
      name,
      kind: isModule ? 'module' : 'class',
      scope: [],
      localName: path === name ? undefined : path,
      exported: true,
      isTest: this.fileIsTest,
      signature: this.signature(node.startIndex, signatureEnd),
      supertypes,
    });

    const saved = {
      from: this.from,
      container: this.container,
      visibility: this.visibility,
      singleton: this.singleton,
      inMethod: this.inMethod,
      methodName: this.methodName,
      locals: this.locals,
    };
    // A reopening without `< Base` keeps the superclass given where the class was first opened.
    const declared = this.symbols[index]?.supertypes?.find((s) => s.relation === 'extends');
    this.container = { path, ref: toRef(segments), index, superclass: superclass ?? (declared ? { name: declared.name, qualifier: declared.qualifier } : undefined) };
    this.from = index;
    this.visibility = 'public';
    this.singleton = false;
    this.inMethod = false;
    this.methodName = undefined;
    this.locals = new Map();
    try {
      if (superNode) {
        // `class Mig < ActiveRecord::Migration[7.0]`, `class A < Struct.new(:x)`: the rest is code.
        const expression = superNode.namedChild(0);
        if (expression && !constantSegments(expression)) {
          if (expression.type === 'element_reference') for (const arg of named(expression).slice(1)) this.visit(arg);
          else this.visit(expression);
        }
      }
      for (const child of named(node)) {
        if (child.id === nameNode.id || child.id === superNode?.id) continue;
        if (child.type === 'body_statement') this.classBody(child);
        else this.visit(child);
      }
    } finally {
      this.from = saved.from;
      this.container = saved.container;
      this.visibility = saved.visibility;
      this.singleton = saved.singleton;
      this.inMethod = saved.inMethod;
      this.methodName = saved.methodName;
      this.locals = saved.locals;
    }
  }

  /** Statements of a class body; bare `private` / `protected` / `public` switch visibility. */
  private classBody(body: Node): void {
    for (const statement of named(body)) {
      if (statement.type === 'identifier' && VISIBILITY_KEYWORDS.has(statement.text)) {
        this.visibility = statement.text === 'module_function' ? 'public' : (statement.text as Visibility);
        continue;
      }
      this.visit(statement);
    }
  }

  private singletonClass(node: Node): void {
    const value = node.childForFieldName('value');
    const saved = { singleton: this.singleton, visibility: this.visibility };
    this.singleton = value?.type === 'self';
    this.visibility = 'public';
    try {
      const body = node.childForFieldName('body') ?? named(node).find((c) => c.type === 'body_statement');
      if (body) this.classBody(body);
    } finally {
      this.singleton = saved.singleton;
      this.visibility = saved.visibility;
    }
  }

  private method(node: Node, forcedVisibility?: Visibility): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const name = nameNode.text;
    const object = node.childForFieldName('object');
    let scopePath = this.container?.path;
    if (object && object.type !== 'self') {
      // `def Foo.bar`: a method of Foo wherever it is written.
      const segments = constantSegments(object);
      if (segments) scopePath = segments.join('::');
    }
    const isSingleton = node.type === 'singleton_method' || this.singleton;
    const parameters = node.childForFieldName('parameters');
    let signature = this.signature(node.startIndex, parameters?.endIndex ?? nameNode.endIndex);
    if (this.singleton && node.type === 'method') signature = signature.replace(/^def\s+/, 'def self.');
    const visibility = forcedVisibility ?? (isSingleton && !this.singleton ? 'public' : this.visibility);
    const index = this.addSymbol(node, {
      name,
      kind: scopePath !== undefined || isSingleton ? 'method' : 'function',
      scope: scopePath !== undefined ? [scopePath] : [],
      exported: visibility === 'public',
      isTest: this.fileIsTest || name.startsWith('test_'),
      signature,
    });
    this.walkBody(index, name, () => {
      if (parameters) this.visit(parameters);
      for (const child of named(node)) {
        if (child.id === nameNode.id || child.id === parameters?.id || child.id === object?.id) continue;
        this.visit(child);
      }
    });
  }

  /** Walk a method-like body with its own locals. */
  private walkBody(index: number, name: string, walk: () => void): void {
    const saved = { from: this.from, inMethod: this.inMethod, methodName: this.methodName, locals: this.locals };
    this.from = index;
    this.inMethod = true;
    this.methodName = name;
    this.locals = new Map();
    try {
      walk();
    } finally {
      this.from = saved.from;
      this.inMethod = saved.inMethod;
      this.methodName = saved.methodName;
      this.locals = saved.locals;
    }
  }

  /** A member of the current container; the signature is the first line of `statement`. */
  private member(node: Node, name: string, kind: NodeKind, visibility: Visibility, statement: Node = node): number {
    const path = this.container?.path;
    return this.addSymbol(node, {
      name,
      kind,
      scope: path !== undefined ? [path] : [],
      exported: visibility === 'public',
      isTest: this.fileIsTest,
      signature: this.signature(statement.startIndex, this.lineEnd(statement.startIndex, statement.endIndex)),
    });
  }

  private alias(node: Node): void {
    const alias = node.childForFieldName('name');
    const original = node.childForFieldName('alias');
    if (!alias || !original || !this.container) return;
    const index = this.member(node, alias.text.replace(/^:/, ''), 'method', this.visibility);
    this.withFrom(index, () => this.addRef('call', original.text.replace(/^:/, ''), [], this.container?.ref, node));
  }

  private withFrom(index: number, walk: () => void): void {
    const saved = this.from;
    this.from = index;
    try {
      walk();
    } finally {
      this.from = saved;
    }
  }

  // ---- calls ----------------------------------------------------------------------------

  private call(node: Node, forcedVisibility?: Visibility): void {
    const receiver = node.childForFieldName('receiver');
    const methodNode = node.childForFieldName('method');
    const args = node.childForFieldName('arguments');
    const block = node.childForFieldName('block');
    const argList = args ? named(args) : [];
    if (!methodNode) {
      for (const child of named(node)) this.visit(child);
      return;
    }
    if (methodNode.type === 'super') {
      this.superCall(node);
      if (args) this.visit(args);
      if (block) this.visit(block);
      return;
    }
    const method = methodNode.text;
    if (!receiver) {
      if (this.receiverlessCall(node, method, argList, block, forcedVisibility)) return;
    } else {
      this.receiverCall(node, receiver, method);
    }
    for (const arg of argList) this.visit(arg);
    if (block) this.visit(block);
  }

  /** Calls without a receiver; returns true when it walked the arguments itself. */
  private receiverlessCall(node: Node, method: string, args: readonly Node[], block: Node | null, forcedVisibility?: Visibility): boolean {
    const inClassBody = this.container !== undefined && !this.inMethod;
    switch (method) {
      case 'require':
      case 'require_relative':
      case 'load':
      case 'require_dependency': {
        const source = literalString(args[0]);
        if (source !== undefined && method !== 'load') {
          const relative = method === 'require_relative' && !source.startsWith('.') ? `./${source}` : source;
          this.imports.push({ source: relative.replace(/\.rb$/, ''), names: [], line: node.startPosition.row + 1 });
        }
        return true;
      }
      case 'autoload': {
        const constant = args[0] ? symbolName(args[0]) : undefined;
        const source = literalString(args[1]);
        if (source !== undefined) {
          const names = constant ? [{ imported: constant, local: constant }] : [];
          this.imports.push({ source: source.replace(/\.rb$/, ''), names, line: node.startPosition.row + 1 });
        }
        return true;
      }
      case 'raise':
      case 'fail':
        this.raise(args);
        if (block) this.visit(block);
        return true;
      case 'include':
      case 'extend':
      case 'prepend':
        if (!inClassBody) break;
        for (const arg of args) {
          const segments = constantSegments(arg);
          if (segments) this.addSupertype({ ...toRef(segments), relation: 'includes' });
          else if (arg.type !== 'self') this.visit(arg);
        }
        return true;
      case 'attr_reader':
      case 'attr_writer':
      case 'attr_accessor':
      case 'attr':
        if (!inClassBody) break;
        for (const arg of args) {
          const name = symbolName(arg);
          if (name) this.member(node, name, 'property', forcedVisibility ?? this.visibility);
        }
        return true;
      case 'define_method':
      case 'define_singleton_method': {
        const name = args[0] ? symbolName(args[0]) : undefined;
        if (!name || !this.container) break;
        const index = this.member(node, name, 'method', forcedVisibility ?? this.visibility);
        this.walkBody(index, name, () => {
          for (const arg of args.slice(1)) this.visit(arg);
          if (block) this.visit(block);
        });
        return true;
      }
      case 'alias_method': {
        const alias = args[0] ? symbolName(args[0]) : undefined;
        const original = args[1] ? symbolName(args[1]) : undefined;
        if (!alias || !original || !this.container) break;
        const index = this.member(node, alias, 'method', forcedVisibility ?? this.visibility);
        this.withFrom(index, () => this.addRef('call', original, [], this.container?.ref, node));
        return true;
      }
      case 'private':
      case 'protected':
      case 'public':
      case 'private_class_method':
      case 'public_class_method':
      case 'private_constant':
      case 'module_function':
        this.visibilityCall(method, args);
        return true;
      default:
        break;
    }
    if (inClassBody && !KERNEL_METHODS.has(method) && !(this.fileIsTest && TEST_DSL.has(method))) {
      // A DSL call in the class body: it configures the class, like a decorator.
      this.addDecorator({ name: method, qualifier: [] });
      if (CALLBACK_DSL.test(method)) {
        for (const arg of args) {
          const callback = symbolName(arg);
          if (callback) this.addRef('call', callback, [], this.container?.ref, arg);
        }
      }
      return false;
    }
    if (this.fileIsTest && TEST_DSL.has(method)) return false;
    if (method === 'new' && this.container) {
      // `new(...)` inside a class method constructs the class itself.
      this.addRef('new', this.container.ref.name, this.container.ref.qualifier, undefined, node);
      return false;
    }
    if (!KERNEL_METHODS.has(method) && !this.locals.has(method)) this.addRef('call', method, [], this.container?.ref, node);
    return false;
  }

  private receiverCall(node: Node, receiver: Node, method: string): void {
    if (this.fileIsTest && TEST_DSL.has(method)) {
      this.visit(receiver);
      return;
    }
    const segments = constantSegments(receiver);
    if (segments) {
      const root = segments[0] ?? '';
      if (RUBY_BUILTIN_CONSTANTS.has(root)) return;
      const last = segments[segments.length - 1] ?? '';
      if (ALL_CAPS.test(last) && last.length > 1) {
        // `PATTERN.match?(x)`: a use of the constant; the method belongs to its (unknown) value.
        this.constantUse(receiver);
        if (!CORE_METHODS.has(method)) this.addRef('call', method, segments, undefined, node);
        return;
      }
      if (method === 'new') this.addRef('new', segments[segments.length - 1] ?? '', segments.slice(0, -1), undefined, node);
      else this.addRef('call', method, segments, undefined, node);
      return;
    }
    switch (receiver.type) {
      case 'self':
        this.addRef('call', method, ['self'], this.container?.ref, node);
        return;
      case 'identifier': {
        const name = receiver.text;
        if (this.locals.has(name)) {
          const type = this.locals.get(name);
          if (type || !CORE_METHODS.has(method)) this.addRef('call', method, [name], type, node);
        } else {
          // `reader.go`: `reader` is itself a call on self.
          this.bareIdentifier(receiver);
          if (!CORE_METHODS.has(method)) this.addRef('call', method, [name], undefined, node);
        }
        return;
      }
      case 'instance_variable':
      case 'class_variable': {
        const field = receiver.text.replace(/^@@?/, '');
        this.ivarUse(receiver);
        const type = this.container ? this.ivarTypes.get(this.container.path)?.get(field) : undefined;
        if (type || !CORE_METHODS.has(method)) this.addRef('call', method, ['self', field], type, node);
        return;
      }
      case 'call': {
        const chain = this.callChain(receiver);
        if (chain && !CORE_METHODS.has(method)) this.addRef('call', method, chain, undefined, node);
        // `?` stands for a receiver that has no name.
        else if (!chain && !CORE_METHODS.has(method)) this.addRef('call', method, ['?'], undefined, node);
        this.visit(receiver);
        return;
      }
      default:
        if (!LITERAL_RECEIVERS.has(receiver.type) && !CORE_METHODS.has(method)) this.addRef('call', method, ['?'], undefined, node);
        this.visit(receiver);
    }
  }

  /** `site.config` (no arguments) as `['site', 'config']`; undefined for other expressions. */
  private callChain(node: Node): string[] | undefined {
    switch (node.type) {
      case 'identifier':
      case 'self':
        return [node.text];
      case 'constant':
      case 'scope_resolution':
        return constantSegments(node);
      case 'instance_variable':
        return ['self', node.text.slice(1)];
      case 'call': {
        if (node.childForFieldName('arguments') || node.childForFieldName('block')) return undefined;
        const receiver = node.childForFieldName('receiver');
        const method = node.childForFieldName('method');
        if (!receiver || !method) return undefined;
        const head = this.callChain(receiver);
        return head ? [...head, method.text] : undefined;
      }
      default:
        return undefined;
    }
  }

  private visibilityCall(method: string, args: readonly Node[]): void {
    const visibility: Visibility = method === 'protected' ? 'protected' : method === 'private' || method === 'private_class_method' || method === 'private_constant' ? 'private' : 'public';
    if (args.length === 0) {
      if (method === 'private' || method === 'protected' || method === 'public') this.visibility = visibility;
      else if (method === 'module_function') this.visibility = 'public';
      return;
    }
    for (const arg of args) {
      if (arg.type === 'method' || arg.type === 'singleton_method') this.method(arg, visibility);
      else if (arg.type === 'call') this.call(arg, visibility);
      else {
        const name = symbolName(arg);
        if (name) this.setVisibility(name, visibility);
        else if (arg.type === 'array') for (const element of named(arg)) {
          const elementName = symbolName(element);
          if (elementName) this.setVisibility(elementName, visibility);
        }
        else this.visit(arg);
      }
    }
  }

  /** `private :a` after `def a`: the member defined earlier in this container. */
  private setVisibility(name: string, visibility: Visibility): void {
    const path = this.container?.path;
    if (path === undefined) return;
    for (let i = this.symbols.length - 1; i >= 0; i--) {
      const symbol = this.symbols[i];
      if (symbol && symbol.name === name && symbol.scope.length === 1 && symbol.scope[0] === path) {
        symbol.exported = visibility === 'public';
        return;
      }
    }
  }

  private raise(args: readonly Node[]): void {
    const first = args[0];
    if (first) {
      let target = constantSegments(first);
      if (!target && first.type === 'call' && first.childForFieldName('method')?.text === 'new') {
        target = constantSegments(first.childForFieldName('receiver'));
        const newArgs = first.childForFieldName('arguments');
        if (newArgs) this.visit(newArgs);
      } else if (!target) this.visit(first);
      if (target && !RUBY_BUILTIN_EXCEPTIONS.has(target[target.length - 1] ?? '') && !RUBY_BUILTIN_CONSTANTS.has(target[0] ?? '')) {
        this.addRef('raise', target[target.length - 1] ?? '', target.slice(0, -1), undefined, first);
      }
    }
    for (const arg of args.slice(1)) this.visit(arg);
  }

  private superCall(node: Node): void {
    if (!this.methodName) return;
    this.addRef('call', this.methodName, ['super'], this.container?.superclass, node);
  }

  // ---- other uses -----------------------------------------------------------------------

  private bareIdentifier(node: Node): void {
    const name = node.text;
    if (this.locals.has(name) || KERNEL_METHODS.has(name) || VISIBILITY_KEYWORDS.has(name)) return;
    if (this.fileIsTest && TEST_DSL.has(name)) return;
    // Not a local: a method call on self with no arguments.
    this.addRef('call', name, [], this.container?.ref, node);
  }

  private constantUse(node: Node): void {
    const segments = constantSegments(node);
    if (!segments) {
      for (const child of named(node)) this.visit(child);
      return;
    }
    const name = segments[segments.length - 1] ?? '';
    if (RUBY_BUILTIN_CONSTANTS.has(segments[0] ?? '') || (segments.length === 1 && RUBY_BUILTIN_EXCEPTIONS.has(name))) return;
    this.addRef(ALL_CAPS.test(name) && name.length > 1 ? 'value' : 'type', name, segments.slice(0, -1), undefined, node);
  }

  private ivarUse(node: Node): void {
    if (!this.container) return;
    this.addRef('field', node.text.replace(/^@@?/, ''), ['self'], this.container.ref, node);
  }

  private assignment(node: Node): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (left?.type === 'constant' && !this.inMethod) {
      if (right && this.classConstructor(node, left.text, right)) return;
      // `VERSION = "1.0"`, `Point = Struct.new(:x)`: a constant of the enclosing namespace.
      const index = this.member(node, left.text, 'constant', 'public');
      const type = this.constructedType(right);
      const symbol = this.symbols[index];
      if (type && symbol) symbol.valueType = type;
      if (right) this.withFrom(index, () => this.visit(right));
      return;
    }
    if (right) this.visit(right);
    if (left) this.bindTargets(left, this.constructedType(right));
  }

  /**
   * `Point = Struct.new(:x) do ... end`, `Error = Class.new(Base) { ... }`: a class whose body
   * is the block. Returns false when the right-hand side is not such a constructor.
   */
  private classConstructor(node: Node, name: string, right: Node): boolean {
    if (right.type !== 'call') return false;
    const block = right.childForFieldName('block');
    const receiver = constantSegments(right.childForFieldName('receiver'))?.join('::');
    const method = right.childForFieldName('method')?.text;
    const isConstructor = (receiver === 'Struct' || receiver === 'Class') && method === 'new';
    if (!isConstructor && !(receiver === 'Data' && method === 'define')) return false;
    if (!block && receiver !== 'Class') return false;
    const args = right.childForFieldName('arguments');
    const segments = [...(this.container ? this.container.path.split('::') : []), name];
    const path = segments.join('::');
    const baseSegments = receiver === 'Class' ? constantSegments(args?.namedChild(0)) : undefined;
    const superclass = baseSegments ? toRef(baseSegments) : undefined;
    const index = this.addSymbol(node, {
      name,
      kind: 'class',
      scope: [],
      localName: path === name ? undefined : path,
      exported: true,
      isTest: this.fileIsTest,
      signature: this.signature(node.startIndex, this.lineEnd(node.startIndex, block?.startIndex ?? node.endIndex)),
      supertypes: superclass ? [{ ...superclass, relation: 'extends' }] : [],
    });
    const saved = { from: this.from, container: this.container, visibility: this.visibility, locals: this.locals };
    this.container = { path, ref: toRef(segments), index, superclass };
    this.from = index;
    this.visibility = 'public';
    this.locals = new Map();
    try {
      // Struct members are attributes of the class.
      for (const arg of args ? named(args) : []) {
        const member = symbolName(arg);
        if (member && receiver !== 'Class') {
          const index = this.member(arg, member, 'property', 'public', node);
          const symbol = this.symbols[index];
          if (symbol) symbol.doc = '';
        }
      }
      if (block) {
        const body = block.childForFieldName('body');
        for (const child of named(block)) {
          if (child.id === body?.id && (child.type === 'body_statement' || child.type === 'block_body')) this.classBody(child);
          else this.visit(child);
        }
      }
    } finally {
      this.from = saved.from;
      this.container = saved.container;
      this.visibility = saved.visibility;
      this.locals = saved.locals;
    }
    return true;
  }

  /** Assignment targets: locals, `@ivars` (field writes, typed by `Foo.new`), `obj.attr =` writes. */
  private bindTargets(target: Node, type: NameRef | undefined): void {
    switch (target.type) {
      case 'identifier':
        if (!this.locals.has(target.text) || type) this.locals.set(target.text, type ?? this.locals.get(target.text));
        return;
      case 'instance_variable':
      case 'class_variable': {
        this.ivarUse(target);
        if (type && this.container) {
          let types = this.ivarTypes.get(this.container.path);
          if (!types) this.ivarTypes.set(this.container.path, (types = new Map()));
          types.set(target.text.replace(/^@@?/, ''), type);
        }
        return;
      }
      case 'call': {
        // `obj.name = v` writes attribute `name`.
        const receiver = target.childForFieldName('receiver');
        const method = target.childForFieldName('method');
        if (receiver && method) {
          const chain = this.callChain(receiver);
          const receiverType = receiver.type === 'self' ? this.container?.ref : receiver.type === 'identifier' ? this.locals.get(receiver.text) : undefined;
          if (chain) this.addRef('field', method.text, chain, receiverType, target);
          if (receiver.type !== 'self') this.visit(receiver);
        }
        return;
      }
      case 'left_assignment_list':
      case 'destructured_left_assignment':
      case 'rest_assignment':
      case 'destructured_parameter':
        for (const child of named(target)) this.bindTargets(child, undefined);
        return;
      default:
        this.visit(target);
    }
  }

  /** `Foo.new(...)` / `Foo::Bar.new` → the class; undefined for anything else. */
  private constructedType(node: Node | null): NameRef | undefined {
    if (node?.type !== 'call' || node.childForFieldName('method')?.text !== 'new') return undefined;
    const segments = constantSegments(node.childForFieldName('receiver'));
    if (!segments || RUBY_BUILTIN_CONSTANTS.has(segments[0] ?? '')) return undefined;
    return toRef(segments);
  }

  private block(node: Node): void {
    // Block and lambda parameters join the enclosing locals: shadowing is rare and harmless here.
    for (const child of named(node)) this.visit(child);
  }

  private parameters(node: Node): void {
    for (const parameter of named(node)) {
      switch (parameter.type) {
        case 'identifier':
          this.locals.set(parameter.text, undefined);
          break;
        case 'optional_parameter':
        case 'keyword_parameter': {
          const name = parameter.childForFieldName('name');
          if (name) this.locals.set(name.text, undefined);
          this.visitOptional(parameter.childForFieldName('value'));
          break;
        }
        case 'splat_parameter':
        case 'hash_splat_parameter':
        case 'block_parameter': {
          const name = parameter.childForFieldName('name');
          if (name) this.locals.set(name.text, undefined);
          break;
        }
        case 'destructured_parameter':
          this.bindTargets(parameter, undefined);
          break;
        default:
          break;
      }
    }
  }

  private rescue(node: Node): void {
    const exceptions = node.childForFieldName('exceptions');
    let first: NameRef | undefined;
    for (const exception of exceptions ? named(exceptions) : []) {
      const segments = constantSegments(exception);
      if (segments) first ??= toRef(segments);
      this.visit(exception);
    }
    const variable = node.childForFieldName('variable');
    const name = variable?.namedChild(0);
    if (name?.type === 'identifier') {
      const builtin = first && (RUBY_BUILTIN_EXCEPTIONS.has(first.name) || RUBY_BUILTIN_CONSTANTS.has(first.qualifier[0] ?? first.name));
      this.locals.set(name.text, builtin ? undefined : first);
    }
    this.visitOptional(node.childForFieldName('body'));
  }

  // ---- output ---------------------------------------------------------------------------

  private addSupertype(supertype: SupertypeRef): void {
    const symbol = this.container ? this.symbols[this.container.index] : undefined;
    if (!symbol) return;
    const list = [...(symbol.supertypes ?? [])];
    if (!list.some((s) => s.relation === supertype.relation && s.name === supertype.name && s.qualifier.join('::') === supertype.qualifier.join('::'))) list.push(supertype);
    symbol.supertypes = list;
  }

  private addDecorator(decorator: NameRef): void {
    const symbol = this.container ? this.symbols[this.container.index] : undefined;
    if (!symbol) return;
    if (symbol.decorators?.some((d) => d.name === decorator.name)) return;
    symbol.decorators = [...(symbol.decorators ?? []), decorator];
  }

  private addRef(kind: ReferenceKind, name: string, qualifier: readonly string[], receiverType: NameRef | undefined, at: Node): void {
    addReference(this.references, this.seen, refKey(this.from, kind, name, qualifier, receiverType), this.from, kind, name, qualifier, receiverType, at);
  }

  private addSymbol(
    node: Node,
    init: {
      name: string;
      kind: NodeKind;
      scope: readonly string[];
      localName?: string | undefined;
      exported: boolean;
      isTest: boolean;
      signature: string;
      supertypes?: SupertypeRef[];
    },
  ): number {
    const startRow = node.startPosition.row;
    const endLine = node.endPosition.row + 1;
    const key = `${this.from}\u0000${init.localName ?? init.scope.join('\u0000')}\u0000${init.name}\u0000${init.kind}`;
    const existing = this.symbolKeys.get(key);
    const previous = existing === undefined ? undefined : this.symbols[existing];
    if (existing !== undefined && previous) {
      // Reopened class, redefined method: one qualified name stays one symbol.
      previous.endLine = Math.max(previous.endLine, endLine);
      previous.exported ||= init.exported;
      if (!previous.doc) previous.doc = this.docBefore(startRow);
      for (const supertype of init.supertypes ?? []) {
        if (!previous.supertypes?.some((s) => s.relation === supertype.relation && s.name === supertype.name)) previous.supertypes = [...(previous.supertypes ?? []), supertype];
      }
      return existing;
    }
    const symbol: MutableSymbol = {
      name: init.name,
      kind: init.kind,
      scope: init.scope,
      startLine: startRow + 1,
      endLine,
      signature: init.signature,
      doc: this.docBefore(startRow),
      isTest: init.isTest,
      parent: this.from,
      exported: init.exported,
    };
    if (init.localName !== undefined) symbol.localName = init.localName;
    if (init.supertypes?.length) symbol.supertypes = init.supertypes;
    this.symbols.push(symbol);
    this.symbolKeys.set(key, this.symbols.length - 1);
    return this.symbols.length - 1;
  }

  private lineEnd(start: number, limit: number): number {
    return lineEnd(this.source, start, limit);
  }

  private signature(start: number, end: number): string {
    return declarationSignature(this.source, start, end, false, this.commentScan);
  }

  /** Contiguous `#` comment lines ending on the line above the definition. */
  private docBefore(startRow: number): string {
    const lines: string[] = [];
    for (let row = startRow - 1; ; row--) {
      const comment = this.comments.get(row);
      if (!comment) break;
      const line = this.source.slice(comment.startIndex, comment.endIndex).replace(/^#+ ?/, '').trimEnd();
      lines.unshift(line);
    }
    const kept = lines.filter((line) => !MAGIC_COMMENT.test(line));
    while (kept.length > 0 && kept[0]?.trim() === '') kept.shift();
    while (kept.length > 0 && kept[kept.length - 1]?.trim() === '') kept.pop();
    return truncate(kept.join('\n'), MAX_DOC_CHARS);
  }
}

/**
 * Where a require points. `require_relative` (source `./x`, `../x`) is relative to the file;
 * `require 'a/b'` is looked up on the load paths a repository can have: `<dir>/a/b.rb` and
 * `<dir>/lib/a/b.rb` for the requiring file's directory and each of its ancestors (so a gem in
 * a monorepo finds its own `lib/`), then any `lib/a/b.rb` in the repository. Otherwise it is
 * external, named by its first segment (`active_support/core_ext` → `active_support`).
 */
function resolveRubyImport(decl: ImportDecl, fromFile: string, project: ProjectLayout): ResolvedImport {
  const source = decl.source;
  const withExtension = (path: string) => (path.endsWith('.rb') ? path : `${path}.rb`);
  const fromDir = fromFile.includes('/') ? fromFile.slice(0, fromFile.lastIndexOf('/')) : '';
  if (source.startsWith('./') || source.startsWith('../')) {
    const target = normalizeRelativePath(fromDir ? `${fromDir}/${source}` : source);
    if (target !== undefined) {
      const file = withExtension(target);
      if (project.hasFile(file)) return { files: [file] };
      if (project.hasFile(target)) return { files: [target] };
    }
    return { files: [] };
  }
  const relative = withExtension(source);
  let dir: string | undefined = fromDir;
  while (dir !== undefined) {
    const prefix = dir ? `${dir}/` : '';
    for (const candidate of [`${prefix}${relative}`, `${prefix}lib/${relative}`]) if (project.hasFile(candidate)) return { files: [candidate] };
    dir = dir ? (dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '') : undefined;
  }
  const anywhere = project.filesEndingWith?.(`lib/${relative}`) ?? [];
  if (anywhere.length > 0 && anywhere[0] !== undefined) return { files: [anywhere[0]] };
  return { files: [], external: source.split('/')[0] ?? source };
}

/**
 * Ruby: classes, modules, methods (instance, singleton, `define_method`, aliases), attributes,
 * constants; calls, constructions, constant uses, `@ivar` accesses; requires.
 *
 * @example
 * ```ts
 * const parser = await createParser(rubyLanguage.grammarFor('site.rb'));
 * const extraction = withTree(parser, source, (tree) => rubyLanguage.extract(tree.rootNode, source, 'lib/jekyll/site.rb'));
 * ```
 */
export const rubyLanguage: LanguageModule = {
  id: 'ruby',
  version: '2',
  extensions: ['.rb', '.rake', '.gemspec', '.ru'],
  grammarFor: () => 'ruby',
  isTestFile: isRubyTestFile,
  selfNames: ['self'],
  superNames: ['super'],
  extract(root: Node, source: string, path: string): FileExtraction {
    const extractor = new RubyFileExtractor(source, path, root);
    extractor.visit(root);
    return {
      path,
      language: 'ruby',
      symbols: extractor.symbols,
      references: extractor.references,
      imports: extractor.imports,
      namespace: '',
      syntaxErrors: countSyntaxErrors(root),
    };
  },
  resolveImport: resolveRubyImport,
};
