/**
 * Rust language module.
 *
 * Qualified names: `<file>.<inline modules…>.<name>` for items; methods and associated
 * consts of `impl T` and `impl Trait for T` are `<file>.<modules…>.T.<name>`; trait members
 * `<file>.<modules…>.Trait.<name>`; struct fields `….Struct.<field>`; enum variants
 * `….Enum.<Variant>`; items nested in a function body are scoped under the function.
 * `namespace` is the file's module path (`crate::a::b`), computed from the path relative to
 * the crate root directory (`src/`, or `tests/`, `examples/`, `benches/` for those crates):
 * `lib.rs`/`main.rs` are `crate`, `a/mod.rs` is `crate::a`, `a/b.rs` is `crate::a::b`.
 *
 * Kind choices: `fn new(…) -> Self` (or `-> T`, possibly wrapped in Result/Option/Box/Arc/Rc)
 * in an inherent impl is a `constructor` named `new`; every other fn in an impl or trait is a
 * `method`; enum variants are `constant`s; `static`s are `variable`s; `macro_rules!` macros
 * are `function`s; inline `mod m { … }` blocks are `module`s.
 *
 * `impl Trait for T` is an entry of `FileExtraction.implementations` (T and Trait as written,
 * seen from the file's top level), wherever T is defined: the core emits `implements` T → Trait
 * and derives overrides and inherits. Impls of std traits and blanket impls are left out.
 *
 * References are written as in the source (`a::b::f()` → `f` qualified `['a', 'b']`,
 * `self.index.add()` → `add` qualified `['self', 'index']`); a receiver that is not a plain
 * name is one rendered head segment (`Item::new()`, `store.get()`), so that every later
 * segment is a field name. `receiverType` is the type of the head segment, the type the core
 * navigates from: `self` (the impl type, or the trait in default methods), typed parameters
 * (`&T`, `&mut T`, `Box<T>`, `Arc<T>`, `impl Trait`, `dyn Trait`, a generic's first bound),
 * `let x: T`, `let x = T::new()`/`T { .. }`/`Self::…`, results of this file's functions,
 * `?`/`.unwrap()` of a known Option/Result, `if let Some(x)`. Calls on std receivers (a known
 * `String`, `Vec`, `HashMap`, Option…) and std methods on unknown receivers (`unwrap`,
 * `iter`, `clone`…) are dropped; so are calls of std macros (`println!`, `vec!`, `assert_eq!`,
 * `debug!`…), whose arguments are still scanned for calls. `Err(E::V)` raises `E`.
 *
 * Tests: files in a `tests/` directory, `tests.rs`, `*_test(s).rs`, `#![cfg(test)]` files,
 * `#[cfg(test)]` items and everything inside them, and `#[test]`/`#[tokio::test]`/`#[bench]` fns.
 *
 * Imports are normalised relative to the FILE's module: a `use` or `mod x;` inside an inline
 * `mod m { … }` is rewritten (`self::y` → `self::m::y`, `super::y` → `self::y`), so that
 * `resolveImport` can map it with the file path alone. `mod x;` becomes an import of
 * `self::x` bound to `x`. `resolveImport` walks `crate::`, `self::`, `super::` and bare
 * paths through `x.rs` / `x/mod.rs` files while they exist (the rest names items), adds the
 * file of each imported name that is itself a module, finds workspace crates at
 * `<name>/src/lib.rs` or `crates/<name>/src/lib.rs` (`-`/`_` folded), and names std, core and
 * alloc `std` and any other crate by its name.
 */
import type { Node } from 'web-tree-sitter';
import type { NodeKind } from '@knowing/graph';
import type { FileExtraction, Implementation, ImportDecl, LanguageModule, NameRef, ProjectLayout, Reference, ReferenceKind, ResolvedImport, SupertypeRef } from './types.js';
import { C_COMMENT_OPENERS, collapse, countSyntaxErrors, isNamedNode, MAX_DOC_CHARS, MAX_SIGNATURE_CHARS, ref, sliceWithoutComments } from './common.js';
import type { CommentScan } from './common.js';
import type { Mutable, MutableSymbol as Draft } from './common.js';
import { receiverChain, TypeEnvironment } from './body-walk.js';
import type { ReceiverSyntax } from './body-walk.js';

/** Crates that ship with the compiler. */
const STD_CRATES = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);

/** Standard-library types and traits: never worth a type hint, receiver type or call target. */
const STD_TYPES = new Set([
  'String', 'Vec', 'VecDeque', 'HashMap', 'HashSet', 'BTreeMap', 'BTreeSet', 'BinaryHeap', 'LinkedList',
  'Option', 'Result', 'Box', 'Arc', 'Rc', 'Weak', 'Cell', 'RefCell', 'Mutex', 'RwLock', 'Cow', 'Pin',
  'PhantomData', 'Duration', 'Instant', 'SystemTime', 'Path', 'PathBuf', 'OsString', 'OsStr', 'Fn',
  'FnMut', 'FnOnce', 'Iterator', 'IntoIterator', 'DoubleEndedIterator', 'ExactSizeIterator', 'Default',
  'Clone', 'Copy', 'Debug', 'Display', 'Send', 'Sync', 'Sized', 'Unpin', 'From', 'Into', 'TryFrom',
  'TryInto', 'AsRef', 'AsMut', 'Deref', 'DerefMut', 'Drop', 'PartialEq', 'Eq', 'PartialOrd', 'Ord',
  'Hash', 'Hasher', 'ToString', 'ToOwned', 'Borrow', 'BorrowMut', 'Future', 'Any', 'Formatter',
  'Some', 'None', 'Ok', 'Err', 'AtomicBool', 'AtomicUsize', 'AtomicU64', 'AtomicI64', 'AtomicU32',
]);

/** Modules of std that code names through a `use std::x` (`fmt::Display`, `io::Result`). */
const STD_MODULES = new Set([
  'fmt', 'io', 'mem', 'ptr', 'sync', 'mpsc', 'atomic', 'thread', 'time', 'collections', 'cmp', 'ops',
  'iter', 'hash', 'marker', 'convert', 'env', 'fs', 'path', 'process', 'any', 'borrow', 'cell', 'rc',
  'num', 'ffi', 'os', 'str', 'string', 'vec', 'slice', 'result', 'option', 'net', 'char', 'array',
]);

/** Kinds an `impl` can name as its type or trait. */
const TYPE_DEFINITION_KINDS = new Set<NodeKind>(['struct', 'enum', 'type_alias', 'trait']);

/** Smart pointers a method call sees through (auto-deref). */
const AUTO_DEREF = new Set(['Box', 'Arc', 'Rc', 'Pin', 'Cow']);

/**
 * Internal receiver-type markers, never emitted: `STD_TYPE` is a std type or primitive (its
 * methods are std's, so calls on it are not edges); a value in `WRAPPED` stands for
 * `Option<T>`/`Result<T, _>` and maps to `T`, which `?`, `.unwrap()`, `.expect()` and
 * `if let Some(x)` recover.
 */
const STD_TYPE: NameRef = Object.freeze({ name: '', qualifier: [] });
const WRAPPED = new WeakMap<NameRef, NameRef | undefined>();

function wrapType(inner: NameRef | undefined): NameRef {
  const wrapper: NameRef = { name: '', qualifier: [] };
  WRAPPED.set(wrapper, inner);
  return wrapper;
}

function unwrapType(type: NameRef | undefined): NameRef | undefined {
  return type && WRAPPED.has(type) ? WRAPPED.get(type) : type;
}

/** A std receiver: calls on it go to std. */
function isStdReceiver(type: NameRef | undefined): boolean {
  return type !== undefined && (type === STD_TYPE || WRAPPED.has(type));
}

/** The type as published in `valueType`: wrappers removed, std types dropped. */
function publicType(type: NameRef | undefined): NameRef | undefined {
  let current = type;
  while (current && WRAPPED.has(current)) current = WRAPPED.get(current);
  return current === STD_TYPE ? undefined : current;
}

/** Macros of std and of the ubiquitous logging/error crates: their invocation is not an edge. */
const STD_MACROS = new Set([
  'println', 'print', 'eprintln', 'eprint', 'format', 'format_args', 'write', 'writeln', 'vec', 'assert',
  'assert_eq', 'assert_ne', 'debug_assert', 'debug_assert_eq', 'debug_assert_ne', 'panic', 'unreachable',
  'unimplemented', 'todo', 'matches', 'dbg', 'concat', 'stringify', 'include', 'include_str',
  'include_bytes', 'env', 'option_env', 'cfg', 'line', 'column', 'file', 'module_path', 'compile_error',
  'thread_local', 'debug', 'info', 'warn', 'error', 'trace', 'log', 'bail', 'ensure', 'anyhow',
  'format_err', 'lazy_static', 'try', 'addr_of', 'addr_of_mut', 'const_format', 'ready',
]);

/**
 * Methods of std types (Option, Result, iterators, collections, smart pointers): a call of one
 * on a receiver of unknown type is dropped rather than guessed by name.
 */
const STD_METHODS = new Set([
  'unwrap', 'expect', 'unwrap_or', 'unwrap_or_else', 'unwrap_or_default', 'unwrap_err', 'clone',
  'to_string', 'to_owned', 'into', 'try_into', 'as_ref', 'as_mut', 'as_str', 'as_slice', 'as_bytes',
  'iter', 'iter_mut', 'into_iter', 'map', 'map_err', 'and_then', 'or_else', 'ok', 'err', 'ok_or',
  'ok_or_else', 'filter', 'filter_map', 'flat_map', 'collect', 'len', 'is_empty', 'is_some', 'is_none',
  'is_ok', 'is_err', 'push', 'push_str', 'pop', 'borrow', 'borrow_mut', 'lock', 'enumerate', 'zip',
  'chain', 'rev', 'take', 'skip', 'next', 'count', 'sum', 'fold', 'any', 'all', 'find', 'position',
  'contains', 'contains_key', 'extend', 'chars', 'bytes', 'lines', 'split', 'trim', 'starts_with',
  'ends_with', 'to_vec', 'cloned', 'copied', 'as_deref', 'get_or_insert_with', 'entry', 'or_insert',
  'or_insert_with', 'sort', 'sort_by', 'sort_by_key', 'dedup', 'retain', 'join', 'format', 'fmt',
  'to_lowercase', 'to_uppercase', 'parse', 'eq', 'cmp', 'partial_cmp', 'hash', 'first', 'last',
  'keys', 'values', 'values_mut', 'drain', 'truncate', 'with_capacity', 'capacity', 'reserve',
  'as_ptr', 'deref', 'deref_mut', 'then', 'then_some', 'min', 'max', 'abs',
]);

/** Attributes that are compiler switches or lint settings, not decorators. */
const NOISE_ATTRIBUTES = new Set([
  'doc', 'allow', 'warn', 'deny', 'forbid', 'expect', 'inline', 'cold', 'must_use', 'deprecated', 'cfg',
  'cfg_attr', 'path', 'repr', 'non_exhaustive', 'track_caller', 'no_mangle', 'macro_export', 'macro_use',
  'automatically_derived', 'rustfmt', 'clippy', 'export_name', 'link', 'link_name', 'used', 'ignore',
  'should_panic',
]);

/** Methods of Option/Result that yield the wrapped value. */
const UNWRAPPING_METHODS = new Set(['unwrap', 'expect', 'unwrap_or', 'unwrap_or_else', 'unwrap_or_default', 'unwrap_unchecked']);

/** Constructor-like associated functions whose result is the type they are called on. */
const SELF_RETURNING = /^(new|default|from|from_\w+|with_\w+|new_\w+|open|create|build|connect)$/;

const ALL_CAPS = /^[A-Z][A-Z0-9_]*$/;
const CAPITALISED = /^\p{Lu}/u;

const RUST_RECEIVERS: ReceiverSyntax = {
  memberAccess: 'field_expression',
  object: 'value',
  names: new Set(['self', 'identifier']),
  transparent: new Set(['reference_expression', 'parenthesized_expression', 'unary_expression']),
};

const ITEM_TYPES = new Set([
  'function_item', 'function_signature_item', 'struct_item', 'union_item', 'enum_item', 'trait_item',
  'impl_item', 'type_item', 'const_item', 'static_item', 'mod_item', 'macro_definition', 'use_declaration',
  'extern_crate_declaration', 'foreign_mod_item',
]);

/** `#![…]`: an attribute of the enclosing module, not of the item below it. */
const INNER_ATTRIBUTES: ReadonlySet<string> = new Set(['inner_attribute_item']);

/** `#[cfg(test)]`, `#[cfg(all(test, …))]`, but not `#[cfg(not(test))]`. */
function isCfgTest(args: string): boolean {
  return /\btest\b/.test(args) && !/not\s*\(\s*test\b/.test(args);
}

function refKey(r: NameRef): string {
  return r.qualifier.length === 0 ? r.name : `${r.qualifier.join('::')}::${r.name}`;
}

function isStdPath(qualifier: readonly string[]): boolean {
  const first = qualifier[0];
  if (first === undefined) return false;
  if (STD_CRATES.has(first)) return true;
  return qualifier.length === 1 && (STD_MODULES.has(first) || STD_TYPES.has(first));
}

/** Where the item being extracted sits. */
interface ItemContext {
  /** Scope of the item's own symbol (inline modules, enclosing function for nested items). */
  readonly scope: readonly string[];
  readonly parent: number;
  readonly isTest: boolean;
  /** Inline modules between the file's module and the item (for import normalisation). */
  readonly modules: readonly string[];
}

/** Attributes and doc comments gathered above an item. */
interface Pending {
  docs: string[];
  attributes: { path: NameRef; args: string; value: string }[];
}

interface ImplInfo {
  readonly type: NameRef;
  readonly trait: NameRef;
  readonly line: number;
  readonly scope: readonly string[];
  /** Inline modules around the impl, below the file's module. */
  readonly modules: readonly string[];
}

/** Facts about one function body's walk. */
interface BodyContext {
  from: number;
  selfType: NameRef | undefined;
  typeParams: Map<string, NameRef | undefined>;
  /** Inline modules around the body, below the file's module. */
  modules: readonly string[];
}

class RustExtractor {
  private readonly symbols: Draft[] = [];
  private readonly references: Reference[] = [];
  private readonly imports: Mutable<ImportDecl>[] = [];
  private readonly seen = new Set<string>();
  /** Same-file struct fields (named and tuple `0`, `1`, …) by struct name. */
  private readonly fields = new Map<string, Map<string, NameRef | undefined>>();
  /** Same-file function results: `name` for free functions, `Type::name` for associated ones. */
  private readonly results = new Map<string, NameRef | undefined>();
  private readonly impls: ImplInfo[] = [];
  /** Names of the items declared at the top of the file. */
  private readonly fileItems = new Set<string>();
  private readonly env = new TypeEnvironment((node) => this.computeType(node));
  private body: BodyContext = { from: -1, selfType: undefined, typeParams: new Map(), modules: [] };
  /** Items met inside a function body, extracted once that body is done. */
  private deferred: { node: Node; pending: Pending }[] = [];

  /** Offsets of the words a `visibility_modifier` / `where_clause` starts with (see {@link mayContain}). */
  private visibilityWords: number[] | undefined;
  private whereWords: number[] | undefined;

  private readonly commentScan: CommentScan;

  constructor(
    private readonly source: string,
    /** Module path of the file below `crate` (`['store', 'index']`). */
    private readonly fileModules: readonly string[],
    root: Node,
  ) {
    this.commentScan = { root, openers: C_COMMENT_OPENERS };
  }

  run(root: Node, fileIsTest: boolean): Pick<FileExtraction, 'symbols' | 'references' | 'imports'> & { implementations: Implementation[] } {
    for (const item of root.namedChildren) {
      const type = item?.type;
      const name = item && type !== 'use_declaration' && type !== 'impl_item' ? item.childForFieldName('name') : null;
      if (name) this.fileItems.add(this.text(name));
    }
    this.collectFacts(root, undefined, new Map());
    this.items(root, { scope: [], parent: -1, isTest: fileIsTest, modules: [] });
    return { symbols: this.symbols, references: this.references, imports: this.imports, implementations: this.implementations() };
  }

  // ---------------------------------------------------------------- file facts (pre-pass)

  /** Struct field types and function result types, read before any body is walked. */
  private collectFacts(container: Node, selfType: NameRef | undefined, typeParams: Map<string, NameRef | undefined>): void {
    for (const item of container.namedChildren) {
      if (!item) continue;
      switch (item.type) {
        case 'struct_item':
        case 'union_item': {
          const name = item.childForFieldName('name');
          const body = item.childForFieldName('body');
          if (!name || !body) break;
          const own = this.typeParamsOf(item, typeParams);
          const map = new Map<string, NameRef | undefined>();
          let position = 0;
          for (const child of body.namedChildren) {
            if (!child) continue;
            if (child.type === 'field_declaration') {
              const fieldName = child.childForFieldName('name');
              if (fieldName) map.set(this.text(fieldName), this.receiverTypeOf(child.childForFieldName('type'), undefined, own));
            } else if (body.type === 'ordered_field_declaration_list' && child.type !== 'visibility_modifier' && child.type !== 'attribute_item') {
              map.set(String(position++), this.receiverTypeOf(child, undefined, own));
            }
          }
          this.fields.set(this.text(name), map);
          break;
        }
        case 'function_item':
        case 'function_signature_item': {
          const name = item.childForFieldName('name');
          if (!name) break;
          const own = this.typeParamsOf(item, typeParams);
          const result = this.receiverTypeOf(item.childForFieldName('return_type'), selfType, own);
          this.results.set(selfType ? `${selfType.name}::${this.text(name)}` : this.text(name), result);
          break;
        }
        case 'impl_item': {
          const own = this.typeParamsOf(item, typeParams);
          const type = this.implTarget(item.childForFieldName('type'), own);
          const body = item.childForFieldName('body');
          if (type && body) this.collectFacts(body, type, own);
          break;
        }
        case 'mod_item': {
          const body = item.childForFieldName('body');
          if (body) this.collectFacts(body, undefined, typeParams);
          break;
        }
        default:
          break;
      }
    }
  }

  // ---------------------------------------------------------------- items

  private items(container: Node, ctx: ItemContext): void {
    for (const [child, , pending] of this.annotated(container, INNER_ATTRIBUTES)) this.item(child, ctx, pending);
  }

  /**
   * The children of `container` but comments and attributes, each with the doc comments and
   * attributes written above it. Kinds in `passOver` are skipped without ending the run.
   */
  private *annotated(container: Node, passOver?: ReadonlySet<string>): Generator<[child: Node, type: string, pending: Pending]> {
    let pending: Pending = { docs: [], attributes: [] };
    for (const child of container.namedChildren) {
      if (!child) continue;
      const type = child.type;
      if (type === 'line_comment' || type === 'block_comment') {
        const doc = this.outerDoc(child);
        if (doc !== undefined) pending.docs.push(doc);
      } else if (type === 'attribute_item') {
        this.attribute(child, pending);
      } else if (!passOver?.has(type)) {
        yield [child, type, pending];
        pending = { docs: [], attributes: [] };
      }
    }
  }

  private item(node: Node, ctx: ItemContext, pending: Pending): void {
    switch (node.type) {
      case 'function_item':
      case 'function_signature_item':
        this.functionItem(node, ctx, pending, undefined);
        break;
      case 'struct_item':
      case 'union_item':
        this.structItem(node, ctx, pending);
        break;
      case 'enum_item':
        this.enumItem(node, ctx, pending);
        break;
      case 'trait_item':
        this.traitItem(node, ctx, pending);
        break;
      case 'impl_item':
        this.implItem(node, ctx);
        break;
      case 'type_item': {
        const draft = this.simpleItem(node, ctx, pending, 'type_alias');
        if (draft) {
          const hints = this.typeHintsOf([node.childForFieldName('type')], undefined, this.typeParamsOf(node, new Map()));
          if (hints.length > 0) draft.typeHints = hints;
        }
        break;
      }
      case 'const_item':
      case 'static_item':
        this.valueItem(node, ctx, pending, node.type === 'const_item' ? 'constant' : 'variable', undefined);
        break;
      case 'mod_item':
        this.modItem(node, ctx, pending);
        break;
      case 'macro_definition': {
        const exported = pending.attributes.some((a) => a.path.name === 'macro_export');
        const draft = this.simpleItem(node, ctx, pending, 'function', exported);
        if (draft) draft.signature = `macro_rules! ${draft.name}`;
        break;
      }
      case 'use_declaration':
        this.useDeclaration(node, ctx);
        break;
      case 'extern_crate_declaration': {
        const name = node.childForFieldName('name');
        const alias = node.childForFieldName('alias');
        if (name) {
          const crate = this.text(name);
          this.imports.push({ source: crate, names: [], moduleAlias: alias ? this.text(alias) : crate, line: node.startPosition.row + 1 });
        }
        break;
      }
      case 'foreign_mod_item': {
        const body = node.childForFieldName('body');
        if (body) this.items(body, ctx);
        break;
      }
      case 'macro_invocation':
        this.beginBody(ctx.parent, undefined, new Map(), ctx.modules);
        this.walk(node);
        break;
      default:
        break;
    }
  }

  private hasPub(node: Node): boolean {
    // Most private items have no `pub`/`crate` anywhere in their text: skip reading the type
    // of each child (a call into WASM each).
    this.visibilityWords ??= wordOffsets(this.source, /\b(?:pub|crate)\b/g);
    if (!mayContain(this.visibilityWords, node)) return false;
    return node.namedChildren.some((c) => c?.type === 'visibility_modifier');
  }

  private isTestItem(ctx: ItemContext, pending: Pending): boolean {
    return ctx.isTest || pending.attributes.some((a) => a.path.name === 'test' || a.path.name === 'bench' || a.path.name === 'rstest' || a.path.name === 'test_case' || (a.path.name === 'cfg' && isCfgTest(a.args)));
  }

  private decorators(pending: Pending): NameRef[] {
    const out: NameRef[] = [];
    for (const { path } of pending.attributes) {
      const root = path.qualifier[0] ?? path.name;
      if (NOISE_ATTRIBUTES.has(path.name) || NOISE_ATTRIBUTES.has(root)) continue;
      out.push(path);
    }
    return out;
  }

  private docOf(pending: Pending): string {
    const docs = [...pending.docs];
    for (const attribute of pending.attributes) if (attribute.path.name === 'doc' && attribute.value) docs.push(attribute.value);
    const doc = docs.join('\n').trim();
    return doc.length > MAX_DOC_CHARS ? doc.slice(0, MAX_DOC_CHARS) : doc;
  }

  /** The declaration up to its body (or its end), on one line. */
  private signatureOf(node: Node, body: Node | null): string {
    const end = body ? body.startIndex : node.endIndex;
    const text = sliceWithoutComments(this.source, node.startIndex, Math.min(end, node.startIndex + 4 * MAX_SIGNATURE_CHARS), this.commentScan);
    return collapse(text.replace(/;\s*$/, ''));
  }

  private add(draft: Draft): number {
    this.symbols.push(draft);
    return this.symbols.length - 1;
  }

  private draft(node: Node, name: string, kind: NodeKind, ctx: ItemContext, pending: Pending, exported: boolean, body: Node | null): Draft {
    const draft: Draft = {
      name,
      kind,
      scope: ctx.scope,
      startLine: node.startPosition.row + 1,
      endLine: node.endPosition.row + 1,
      signature: this.signatureOf(node, body),
      doc: this.docOf(pending),
      isTest: this.isTestItem(ctx, pending),
      parent: ctx.parent,
      exported,
    };
    const decorators = this.decorators(pending);
    if (decorators.length > 0) draft.decorators = decorators;
    return draft;
  }

  private simpleItem(node: Node, ctx: ItemContext, pending: Pending, kind: NodeKind, exported = this.hasPub(node)): Draft | undefined {
    const name = node.childForFieldName('name');
    if (!name) return undefined;
    const draft = this.draft(node, this.text(name), kind, ctx, pending, exported, null);
    this.add(draft);
    return draft;
  }

  private functionItem(node: Node, ctx: ItemContext, pending: Pending, owner: { type: NameRef; trait: NameRef | undefined; exported: boolean | undefined; typeParams: Map<string, NameRef | undefined> } | undefined): number {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return -1;
    const name = this.text(nameNode);
    const typeParams = this.typeParamsOf(node, owner?.typeParams ?? new Map());
    const params = node.childForFieldName('parameters');
    const returnType = node.childForFieldName('return_type');
    const body = node.childForFieldName('body');
    const selfType = owner?.type;
    let kind: NodeKind = owner ? 'method' : 'function';
    if (owner && !owner.trait && name === 'new' && !this.hasSelfParameter(params)) {
      const result = publicType(this.receiverTypeOf(returnType, selfType, typeParams));
      if (result && selfType && result.name === selfType.name) kind = 'constructor';
    }
    const draft = this.draft(node, name, kind, ctx, pending, owner?.exported ?? this.hasPub(node), body);
    const hints = this.typeHintsOf([params, returnType], selfType, typeParams);
    if (hints.length > 0) draft.typeHints = hints;
    const index = this.add(draft);
    if (body) {
      const outerDeferred = this.deferred;
      this.deferred = [];
      this.beginBody(index, selfType, typeParams, ctx.modules);
      this.bindParameters(params);
      this.walk(body);
      const nested = this.deferred;
      this.deferred = outerDeferred;
      const inner: ItemContext = { scope: [...draft.scope, name], parent: index, isTest: draft.isTest, modules: ctx.modules };
      for (const item of nested) this.item(item.node, inner, item.pending);
    }
    return index;
  }

  private hasSelfParameter(params: Node | null): boolean {
    return params?.namedChildren.some((p) => p?.type === 'self_parameter') ?? false;
  }

  private structItem(node: Node, ctx: ItemContext, pending: Pending): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const name = this.text(nameNode);
    const body = node.childForFieldName('body');
    const exported = this.hasPub(node);
    const draft = this.draft(node, name, 'struct', ctx, pending, exported, body?.type === 'field_declaration_list' ? body : null);
    const index = this.add(draft);
    if (body?.type !== 'field_declaration_list') return;
    const typeParams = this.typeParamsOf(node, new Map());
    const memberCtx: ItemContext = { scope: [...ctx.scope, name], parent: index, isTest: draft.isTest, modules: ctx.modules };
    for (const [field, type, fieldPending] of this.annotated(body)) {
      if (type !== 'field_declaration') continue;
      const fieldName = field.childForFieldName('name');
      const typeNode = field.childForFieldName('type');
      if (!fieldName) continue;
      const fieldDraft = this.draft(field, this.text(fieldName), 'field', memberCtx, fieldPending, this.hasPub(field), null);
      this.addDeclaredType(fieldDraft, typeNode, undefined, typeParams);
      this.add(fieldDraft);
    }
  }

  private enumItem(node: Node, ctx: ItemContext, pending: Pending): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const name = this.text(nameNode);
    const body = node.childForFieldName('body');
    const exported = this.hasPub(node);
    const draft = this.draft(node, name, 'enum', ctx, pending, exported, body);
    const index = this.add(draft);
    if (!body) return;
    const memberCtx: ItemContext = { scope: [...ctx.scope, name], parent: index, isTest: draft.isTest, modules: ctx.modules };
    for (const [variant, type, variantPending] of this.annotated(body)) {
      if (type !== 'enum_variant') continue;
      const variantName = variant.childForFieldName('name');
      if (variantName) this.add(this.draft(variant, this.text(variantName), 'constant', memberCtx, variantPending, exported, null));
    }
  }

  private traitItem(node: Node, ctx: ItemContext, pending: Pending): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const name = this.text(nameNode);
    const body = node.childForFieldName('body');
    const exported = this.hasPub(node);
    const draft = this.draft(node, name, 'trait', ctx, pending, exported, body);
    const typeParams = this.typeParamsOf(node, new Map());
    const supertypes: SupertypeRef[] = [];
    for (const bound of node.childForFieldName('bounds')?.namedChildren ?? []) {
      const path = bound ? this.typePath(bound) : undefined;
      if (path && !STD_TYPES.has(path.name) && !isStdPath(path.qualifier)) supertypes.push({ ...path, relation: 'extends' });
    }
    if (supertypes.length > 0) draft.supertypes = supertypes;
    const index = this.add(draft);
    if (body) this.members(body, { scope: [...ctx.scope, name], parent: index, isTest: draft.isTest, modules: ctx.modules }, { type: ref(name), trait: undefined, exported, typeParams });
  }

  private implItem(node: Node, ctx: ItemContext): void {
    const typeParams = this.typeParamsOf(node, new Map());
    const traitNode = node.childForFieldName('trait');
    const trait = traitNode ? this.typePath(traitNode) : undefined;
    let type = this.implTarget(node.childForFieldName('type'), typeParams);
    // A blanket impl (`impl<T: X> Trait for T`) has no type of its own: scope it under the trait.
    if (!type && trait) type = ref(trait.name);
    const body = node.childForFieldName('body');
    if (!type) return;
    if (body) {
      this.members(body, { scope: [...ctx.scope, type.name], parent: ctx.parent, isTest: ctx.isTest, modules: ctx.modules }, { type, trait, exported: trait ? true : undefined, typeParams });
    }
    if (trait) this.impls.push({ type, trait, line: node.startPosition.row + 1, scope: ctx.scope, modules: ctx.modules });
  }

  /** Members of a trait or impl body; returns the index of the first function, or -1. */
  private members(body: Node, ctx: ItemContext, owner: { type: NameRef; trait: NameRef | undefined; exported: boolean | undefined; typeParams: Map<string, NameRef | undefined> }): number {
    let first = -1;
    for (const [member, type, pending] of this.annotated(body)) {
      switch (type) {
        case 'function_item':
        case 'function_signature_item': {
          const index = this.functionItem(member, ctx, pending, owner);
          if (first < 0) first = index;
          break;
        }
        case 'const_item':
          this.valueItem(member, ctx, pending, 'constant', owner);
          break;
        case 'macro_invocation':
          this.beginBody(ctx.parent, owner.type, owner.typeParams, ctx.modules);
          this.walk(member);
          break;
        default:
          break;
      }
    }
    return first;
  }

  private valueItem(node: Node, ctx: ItemContext, pending: Pending, kind: NodeKind, owner: { type: NameRef; exported: boolean | undefined; typeParams: Map<string, NameRef | undefined> } | undefined): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const typeNode = node.childForFieldName('type');
    const value = node.childForFieldName('value');
    const typeParams = owner?.typeParams ?? new Map<string, NameRef | undefined>();
    const draft = this.draft(node, this.text(nameNode), kind, ctx, pending, owner?.exported ?? this.hasPub(node), null);
    this.addDeclaredType(draft, typeNode, owner?.type, typeParams);
    const index = this.add(draft);
    if (value) {
      this.beginBody(index, owner?.type, typeParams, ctx.modules);
      this.walk(value);
    }
  }

  /** What the declared type of a field or constant gives its symbol: a value type and type hints. */
  private addDeclaredType(draft: Draft, typeNode: Node | null, selfType: NameRef | undefined, typeParams: Map<string, NameRef | undefined>): void {
    const valueType = publicType(this.receiverTypeOf(typeNode, selfType, typeParams));
    if (valueType) draft.valueType = valueType;
    const hints = this.typeHintsOf([typeNode], selfType, typeParams);
    if (hints.length > 0) draft.typeHints = hints;
  }

  private modItem(node: Node, ctx: ItemContext, pending: Pending): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const name = this.text(nameNode);
    const body = node.childForFieldName('body');
    if (!body) {
      this.imports.push({ source: ['self', ...ctx.modules, name].join('::'), names: [], moduleAlias: name, line: node.startPosition.row + 1 });
      return;
    }
    const draft = this.draft(node, name, 'module', ctx, pending, this.hasPub(node), body);
    // `//!` comments at the top of an inline module document it.
    const inner: string[] = [];
    for (const child of body.namedChildren) {
      if (child?.type !== 'line_comment' && child?.type !== 'block_comment') break;
      const doc = this.innerDoc(child);
      if (doc !== undefined) inner.push(doc);
    }
    if (inner.length > 0 && !draft.doc) draft.doc = inner.join('\n').trim().slice(0, MAX_DOC_CHARS);
    const index = this.add(draft);
    this.items(body, { scope: [...ctx.scope, name], parent: index, isTest: draft.isTest, modules: [...ctx.modules, name] });
  }

  /**
   * `impl Trait for T` blocks as the core's implementations, wherever T is defined. Std traits
   * (Display, From, Iterator…) are left out: they point outside the repository. A blanket impl
   * (`impl<T: X> Trait for T`) implements nothing nameable.
   */
  private implementations(): Implementation[] {
    const out: Implementation[] = [];
    const seen = new Set<string>();
    for (const impl of this.impls) {
      if (STD_TYPES.has(impl.trait.name) || isStdPath(impl.trait.qualifier)) continue;
      const type = this.fromFileTop(impl.type, impl.scope, impl.modules);
      const trait = this.fromFileTop(impl.trait, impl.scope, impl.modules);
      if (refKey(type) === refKey(trait)) continue;
      const key = `${refKey(type)}\0${refKey(trait)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ type, trait, line: impl.line });
    }
    return out;
  }

  /**
   * A name written inside inline modules or a function body, as seen from the file's top
   * level, where the core resolves implementations: a bare name of a type declared in that
   * very scope is reached through it (`Y` in `mod m { impl X for Y {} }` → `m::Y`; a visitor
   * struct declared in `fn f` → `f::Visitor`, `T::f::Visitor` in an `impl T`), and
   * `self::`/`super::` are relative to the inline module (`super::X` in `mod m` → `X`).
   */
  private fromFileTop(name: NameRef, scope: readonly string[], modules: readonly string[]): NameRef {
    const head = name.qualifier[0];
    if (modules.length > 0 && (head === 'self' || head === 'super')) {
      const base = head === 'self' ? modules : modules.slice(0, -1);
      return { name: name.name, qualifier: [...base, ...name.qualifier.slice(1)] };
    }
    if (name.qualifier.length > 0 || scope.length === 0) return name;
    const local = this.symbols.some(
      (symbol) => symbol.name === name.name && TYPE_DEFINITION_KINDS.has(symbol.kind) && symbol.scope.length === scope.length && symbol.scope.every((s, i) => s === scope[i]),
    );
    return local ? { name: name.name, qualifier: [...scope] } : name;
  }

  // ---------------------------------------------------------------- attributes and docs

  private attribute(node: Node, pending: Pending): void {
    const attribute = node.namedChildren.find((c) => c?.type === 'attribute');
    const pathNode = attribute?.namedChildren.find(isNamedNode);
    if (!attribute || !pathNode) return;
    const path = this.pathRef(pathNode);
    if (!path) return;
    const args = attribute.childForFieldName('arguments');
    const value = attribute.childForFieldName('value');
    let doc = '';
    if (value?.type === 'string_literal') doc = this.text(value).slice(1, -1).replace(/\\n/g, '\n').trim();
    pending.attributes.push({ path, args: args ? this.text(args) : '', value: doc });
  }

  /** Outer doc text (`///` lines and `/**` blocks); undefined for ordinary and inner (`//!`) comments. */
  private outerDoc(node: Node): string | undefined {
    const text = this.text(node);
    if (node.type === 'line_comment') {
      if (!text.startsWith('///') || text.startsWith('////')) return undefined;
      return text.slice(3).replace(/^ /, '').trimEnd();
    }
    if (!text.startsWith('/**') || text.startsWith('/***') || text === '/**/') return undefined;
    return this.blockText(text.slice(3, -2));
  }

  private innerDoc(node: Node): string | undefined {
    const text = this.text(node);
    if (node.type === 'line_comment') return text.startsWith('//!') ? text.slice(3).replace(/^ /, '').trimEnd() : undefined;
    return text.startsWith('/*!') ? this.blockText(text.slice(3, -2)) : undefined;
  }

  private blockText(body: string): string {
    return body
      .split('\n')
      .map((line) => line.replace(/^\s*\*? ?/, '').trimEnd())
      .join('\n')
      .trim();
  }

  // ---------------------------------------------------------------- imports

  private useDeclaration(node: Node, ctx: ItemContext): void {
    const argument = node.childForFieldName('argument');
    if (!argument) return;
    const reexport = this.hasPub(node);
    const line = node.startPosition.row + 1;
    const groups = new Map<string, Mutable<ImportDecl>>();
    const emit = (prefixAsWritten: readonly string[], imported: string, local: string): void => {
      let prefix = prefixAsWritten;
      if (imported === 'self') {
        const path = this.normaliseUse(prefix, ctx.modules);
        const alias = local === 'self' ? prefix[prefix.length - 1] ?? '' : local;
        this.imports.push({ source: path, names: [], moduleAlias: alias, ...(reexport ? { reexport } : {}), line });
        return;
      }
      if (prefix.length === 0 && ctx.modules.length === 0 && this.fileItems.has(imported)) {
        // `pub(crate) use my_macro;`: an item of this very module, not a crate.
        prefix = ['self'];
      } else if (prefix.length === 0) {
        // `use serde;` / `use foo as bar;` binds a crate or module as a whole.
        this.imports.push({ source: imported, names: [], moduleAlias: local, ...(reexport ? { reexport } : {}), line });
        return;
      }
      const source = this.normaliseUse(prefix, ctx.modules);
      let decl = groups.get(source);
      if (!decl) {
        decl = { source, names: [], ...(reexport ? { reexport } : {}), line };
        groups.set(source, decl);
        this.imports.push(decl);
      }
      (decl.names as { imported: string; local: string }[]).push({ imported, local });
    };
    this.useTree(argument, [], emit);
  }

  private useTree(node: Node, prefix: readonly string[], emit: (prefix: readonly string[], imported: string, local: string) => void): void {
    switch (node.type) {
      case 'identifier':
      case 'self':
      case 'super':
      case 'crate':
      case 'scoped_identifier': {
        const path = this.pathSegments(node);
        const last = path[path.length - 1];
        if (last !== undefined) emit([...prefix, ...path.slice(0, -1)], last, last);
        return;
      }
      case 'use_as_clause': {
        const pathNode = node.childForFieldName('path');
        const alias = node.childForFieldName('alias');
        if (!pathNode) return;
        const path = this.pathSegments(pathNode);
        const last = path[path.length - 1];
        if (last !== undefined) emit([...prefix, ...path.slice(0, -1)], last, alias ? this.text(alias) : last);
        return;
      }
      case 'use_wildcard': {
        const pathNode = node.namedChildren.find(isNamedNode);
        emit([...prefix, ...(pathNode ? this.pathSegments(pathNode) : [])], '*', '*');
        return;
      }
      case 'scoped_use_list': {
        const pathNode = node.childForFieldName('path');
        const list = node.childForFieldName('list');
        const inner = [...prefix, ...(pathNode ? this.pathSegments(pathNode) : [])];
        if (list) this.useTree(list, inner, emit);
        return;
      }
      case 'use_list':
        for (const child of node.namedChildren) if (child) this.useTree(child, prefix, emit);
        return;
      default:
        return;
    }
  }

  /** Rewrites a path written inside inline modules so that it is relative to the file's module. */
  private normaliseUse(path: readonly string[], modules: readonly string[]): string {
    const head = path[0];
    if (modules.length === 0 || (head !== 'self' && head !== 'super')) return path.join('::');
    const stack = [...modules];
    let i = 0;
    let ups = 0;
    if (head === 'self') i = 1;
    while (path[i] === 'super') {
      if (stack.length > 0) stack.pop();
      else ups++;
      i++;
    }
    const rest = path.slice(i);
    if (ups > 0) return [...Array<string>(ups).fill('super'), ...rest].join('::');
    return ['self', ...stack, ...rest].join('::');
  }

  // ---------------------------------------------------------------- types

  private typeParamsOf(node: Node, outer: Map<string, NameRef | undefined>): Map<string, NameRef | undefined> {
    const list = node.childForFieldName('type_parameters');
    this.whereWords ??= wordOffsets(this.source, /\bwhere\b/g);
    const where = mayContain(this.whereWords, node) ? node.namedChildren.find((c) => c?.type === 'where_clause') : undefined;
    if (!list && !where) return outer;
    const params = new Map(outer);
    for (const param of list?.namedChildren ?? []) {
      if (param?.type === 'type_parameter') {
        const name = param.childForFieldName('name');
        const bound = param.childForFieldName('bounds')?.namedChildren.find(isNamedNode);
        if (name) params.set(this.text(name), bound ? this.boundType(bound) : undefined);
      } else if (param?.type === 'constrained_type_parameter' || param?.type === 'optional_type_parameter') {
        const left = param.childForFieldName('left') ?? param.childForFieldName('name') ?? param.namedChild(0);
        const bound = param.childForFieldName('bounds')?.namedChildren.find(isNamedNode);
        if (left) params.set(this.text(left), bound ? this.boundType(bound) : undefined);
      } else if (param?.type === 'type_identifier') {
        params.set(this.text(param), undefined);
      }
    }
    for (const predicate of where?.namedChildren ?? []) {
      const left = predicate?.childForFieldName('left');
      const bound = predicate?.childForFieldName('bounds')?.namedChildren.find(isNamedNode);
      if (left?.type === 'type_identifier' && bound && params.has(this.text(left)) && params.get(this.text(left)) === undefined) {
        params.set(this.text(left), this.boundType(bound));
      }
    }
    return params;
  }

  private boundType(bound: Node): NameRef | undefined {
    const path = this.typePath(bound);
    return path && !STD_TYPES.has(path.name) && !isStdPath(path.qualifier) ? path : undefined;
  }

  /** The impl's target type name: `Store<T>` → `Store`, `&'a T` → `T`; undefined for a bare type parameter. */
  private implTarget(node: Node | null, typeParams: Map<string, NameRef | undefined>): NameRef | undefined {
    let current = node;
    while (current && (current.type === 'reference_type' || current.type === 'pointer_type')) current = current.childForFieldName('type');
    if (!current) return undefined;
    const path = this.typePath(current);
    if (!path || (path.qualifier.length === 0 && typeParams.has(path.name))) return undefined;
    return path;
  }

  /** A type or trait path as written: `a::B<T>` → `{ name: 'B', qualifier: ['a'] }`. */
  private typePath(node: Node): NameRef | undefined {
    switch (node.type) {
      case 'type_identifier':
      case 'identifier':
        return ref(this.text(node));
      case 'scoped_type_identifier':
      case 'scoped_identifier': {
        const segments = this.pathSegments(node);
        const name = segments.pop();
        return name === undefined ? undefined : ref(name, segments);
      }
      case 'generic_type': {
        const base = node.childForFieldName('type');
        return base ? this.typePath(base) : undefined;
      }
      case 'primitive_type':
        return ref(this.text(node));
      default:
        return undefined;
    }
  }

  /** A path as written: `a::b::c` → `['a', 'b', 'c']`; generic arguments dropped. */
  private pathSegments(node: Node): string[] {
    switch (node.type) {
      case 'scoped_identifier':
      case 'scoped_type_identifier':
      case 'scoped_use_list': {
        const path = node.childForFieldName('path');
        const name = node.childForFieldName('name');
        return [...(path ? this.pathSegments(path) : []), ...(name ? [this.text(name)] : [])];
      }
      case 'generic_type':
      case 'generic_type_with_turbofish': {
        const base = node.childForFieldName('type');
        return base ? this.pathSegments(base) : [];
      }
      case 'bracketed_type': {
        // `<T as Trait>::f` is the trait's function.
        const qualified = node.namedChildren.find(isNamedNode);
        const alias = qualified?.childForFieldName('alias');
        const type = qualified?.childForFieldName('type');
        const chosen = alias ?? type ?? qualified;
        return chosen ? this.pathSegments(chosen) : [];
      }
      default:
        return [this.text(node)];
    }
  }

  /**
   * A path used in an expression, made resolvable without knowing where it was written:
   * `self::Item::new` is `Item::new` (the current module), `super::f` becomes the absolute
   * `crate::…::f` from the file's module path and the inline modules around the code.
   */
  private expressionPath(node: Node): NameRef | undefined {
    const path = this.pathRef(node);
    return path ? this.normalisePath(path) : undefined;
  }

  private normalisePath(path: NameRef): NameRef {
    const head = path.qualifier[0];
    if (head === 'self') return ref(path.name, path.qualifier.slice(1));
    if (head !== 'super') return path;
    const base = [...this.fileModules, ...this.body.modules];
    let i = 0;
    while (path.qualifier[i] === 'super') {
      base.pop();
      i++;
    }
    return ref(path.name, ['crate', ...base, ...path.qualifier.slice(i)]);
  }

  private pathRef(node: Node): NameRef | undefined {
    const segments = this.pathSegments(node);
    const name = segments.pop();
    return name === undefined ? undefined : ref(name, segments);
  }

  /**
   * The type a value of this declared type dispatches methods on: references and smart
   * pointers are seen through; Option/Result become a wrapper of their first argument;
   * `impl Trait`/`dyn Trait` give the trait; a type parameter gives its first non-std bound;
   * std types and primitives give `STD_TYPE`; anything else (tuples of user types, fn types)
   * gives undefined.
   */
  private receiverTypeOf(node: Node | null, selfType: NameRef | undefined, typeParams: Map<string, NameRef | undefined>): NameRef | undefined {
    let current = node;
    for (let depth = 0; current && depth < 8; depth++) {
      switch (current.type) {
        case 'reference_type':
        case 'pointer_type':
          current = current.childForFieldName('type');
          continue;
        case 'abstract_type':
        case 'dynamic_type': {
          const trait = current.childForFieldName('trait') ?? current.namedChildren.find(isNamedNode) ?? null;
          if (trait?.type === 'trait_bounds') current = trait.namedChildren.find(isNamedNode) ?? null;
          else current = trait;
          continue;
        }
        case 'generic_type': {
          const base = current.childForFieldName('type');
          const path = base ? this.typePath(base) : undefined;
          const argument = current.childForFieldName('type_arguments')?.namedChildren.find((c) => c !== null && c.isNamed && c.type !== 'lifetime') ?? null;
          if (path && path.qualifier.length === 0 && AUTO_DEREF.has(path.name)) {
            current = argument;
            continue;
          }
          if (path && path.qualifier.length === 0 && (path.name === 'Option' || path.name === 'Result')) {
            return wrapType(this.receiverTypeOf(argument, selfType, typeParams));
          }
          current = base;
          continue;
        }
        case 'type_identifier': {
          const name = this.text(current);
          if (name === 'Self') return selfType;
          if (typeParams.has(name)) return typeParams.get(name);
          return STD_TYPES.has(name) ? STD_TYPE : ref(name);
        }
        case 'scoped_type_identifier': {
          const path = this.typePath(current);
          if (!path) return undefined;
          if (path.qualifier[0] === 'Self' || (path.qualifier.length > 0 && typeParams.has(path.qualifier[0] ?? ''))) return undefined;
          return isStdPath(path.qualifier) || STD_TYPES.has(path.name) ? STD_TYPE : path;
        }
        case 'primitive_type':
        case 'array_type':
        case 'unit_type':
          return STD_TYPE;
        default:
          return undefined;
      }
    }
    return undefined;
  }

  /** Named, non-std types mentioned in parameter lists, return types or declared types. */
  private typeHintsOf(nodes: readonly (Node | null)[], selfType: NameRef | undefined, typeParams: Map<string, NameRef | undefined>): NameRef[] {
    const out: NameRef[] = [];
    const add = (type: NameRef): void => {
      if (!out.some((t) => refKey(t) === refKey(type))) out.push(type);
    };
    const visit = (node: Node): void => {
      switch (node.type) {
        case 'type_identifier': {
          const name = this.text(node);
          if (name === 'Self') {
            if (selfType) add(selfType);
          } else if (typeParams.has(name)) {
            // `x: T` where `T: Store` is, for a reader, a Store.
            const bound = typeParams.get(name);
            if (bound) add(bound);
          } else if (!STD_TYPES.has(name)) add(ref(name));
          return;
        }
        case 'scoped_type_identifier': {
          const path = this.typePath(node);
          if (!path || path.qualifier[0] === 'Self' || typeParams.has(path.qualifier[0] ?? '')) return;
          if (!isStdPath(path.qualifier) && !STD_TYPES.has(path.name)) add(path);
          return;
        }
        case 'generic_type': {
          const base = node.childForFieldName('type');
          if (base) visit(base);
          const args = node.childForFieldName('type_arguments');
          if (args) visit(args);
          return;
        }
        case 'self_parameter':
        case 'primitive_type':
        case 'lifetime':
        case 'identifier':
        case 'line_comment':
        case 'block_comment':
        case 'attribute_item':
          return;
        case 'parameter': {
          const type = node.childForFieldName('type');
          if (type) visit(type);
          return;
        }
        default:
          for (const child of node.namedChildren) if (child) visit(child);
      }
    };
    for (const node of nodes) if (node) visit(node);
    return out;
  }

  // ---------------------------------------------------------------- bodies

  private beginBody(from: number, selfType: NameRef | undefined, typeParams: Map<string, NameRef | undefined>, modules: readonly string[]): void {
    this.body = { from, selfType, typeParams, modules };
    this.env.reset();
  }

  private bindParameters(params: Node | null): void {
    for (const param of params?.namedChildren ?? []) {
      if (!param) continue;
      if (param.type === 'parameter') {
        const pattern = param.childForFieldName('pattern');
        const typeNode = param.childForFieldName('type');
        if (pattern) this.bindPattern(pattern, this.receiverTypeOf(typeNode, this.body.selfType, this.body.typeParams));
      } else if (param.type !== 'self_parameter') {
        this.bindPattern(param, null);
      }
    }
  }

  /** Binds the names a pattern introduces; only a plain identifier pattern keeps `type`. */
  private bindPattern(node: Node, type: NameRef | null | undefined): void {
    switch (node.type) {
      case 'identifier':
        this.env.bind(this.text(node), type);
        return;
      case 'shorthand_field_identifier':
        this.env.bind(this.text(node), null);
        return;
      case 'mut_pattern':
      case 'ref_pattern': {
        const inner = node.namedChildren.find((c) => c !== null && c.isNamed && c.type !== 'mutable_specifier');
        if (inner) this.bindPattern(inner, type);
        return;
      }
      case 'tuple_struct_pattern':
      case 'struct_pattern': {
        const typeNode = node.childForFieldName('type');
        for (const child of node.namedChildren) if (child && child.id !== typeNode?.id) this.bindPattern(child, null);
        return;
      }
      case 'field_pattern': {
        const pattern = node.childForFieldName('pattern');
        const name = node.childForFieldName('name');
        if (pattern) this.bindPattern(pattern, null);
        else if (name) this.env.bind(this.text(name), null);
        return;
      }
      case 'scoped_identifier':
      case 'scoped_type_identifier':
      case 'type_identifier':
      case 'string_literal':
      case 'integer_literal':
      case 'char_literal':
      case 'boolean_literal':
      case 'float_literal':
      case 'negative_literal':
      case 'range_pattern':
      case 'field_identifier':
        return;
      default:
        for (const child of node.namedChildren) if (child) this.bindPattern(child, null);
    }
  }

  private emit(kind: ReferenceKind, target: NameRef, node: Node, receiverType?: NameRef, dedupe = false): void {
    const from = this.body.from;
    if (dedupe) {
      const key = `${from}|${kind}|${refKey(target)}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    const line = node.startPosition.row + 1;
    this.references.push(
      receiverType
        ? { name: target.name, qualifier: target.qualifier, from, kind, receiverType, line }
        : { name: target.name, qualifier: target.qualifier, from, kind, line },
    );
  }

  private typeReferences(node: Node | null): void {
    if (!node) return;
    for (const type of this.typeHintsOf([node], this.body.selfType, this.body.typeParams)) this.emit('type', type, node);
  }

  /**
   * Uses in a body. `type` is `node.type` when the caller already read it: every read of a
   * node's type is a call into WASM, and bodies are where nearly all nodes are.
   */
  private walk(node: Node, type: string = node.type): void {
    switch (type) {
      case 'call_expression':
        this.call(node);
        return;
      case 'macro_invocation':
        this.macro(node);
        return;
      case 'struct_expression':
        this.structExpression(node);
        return;
      case 'field_initializer': {
        const value = node.childForFieldName('value');
        if (value) this.walk(value);
        return;
      }
      case 'field_expression':
        this.fieldExpression(node);
        return;
      case 'scoped_identifier': {
        const path = this.expressionPath(node);
        if (path && path.qualifier[0] !== 'Self' && !isStdPath(path.qualifier)) this.emit('value', path, node, undefined, true);
        return;
      }
      case 'identifier': {
        const name = this.text(node);
        if (ALL_CAPS.test(name) && !this.env.isBound(name)) this.emit('value', ref(name), node, undefined, true);
        return;
      }
      case 'let_declaration':
        this.letDeclaration(node);
        return;
      case 'let_condition':
        this.letCondition(node);
        return;
      case 'for_expression':
        this.forExpression(node);
        return;
      case 'match_arm':
        this.matchArm(node);
        return;
      case 'closure_expression':
        this.closure(node);
        return;
      case 'block':
        this.block(node);
        return;
      case 'if_expression':
      case 'while_expression': {
        const mark = this.env.mark();
        this.walkChildren(node);
        this.env.restore(mark);
        return;
      }
      case 'type_cast_expression': {
        const value = node.childForFieldName('value');
        if (value) this.walk(value);
        this.typeReferences(node.childForFieldName('type'));
        return;
      }
      case 'generic_function': {
        const fn = node.childForFieldName('function');
        if (fn) this.walk(fn);
        this.typeReferences(node.childForFieldName('type_arguments'));
        return;
      }
      case 'type_identifier':
      case 'scoped_type_identifier':
      case 'generic_type':
      case 'reference_type':
      case 'type_arguments':
        this.typeReferences(node);
        return;
      case 'token_tree':
        this.tokens(node);
        return;
      case 'const_item':
      case 'static_item': {
        // Local consts: walk the value, bind the name.
        const value = node.childForFieldName('value');
        if (value) this.walk(value);
        const name = node.childForFieldName('name');
        if (name) this.env.bind(this.text(name), null);
        return;
      }
      case 'line_comment':
      case 'block_comment':
      case 'string_literal':
      case 'raw_string_literal':
      case 'char_literal':
      case 'integer_literal':
      case 'float_literal':
      case 'boolean_literal':
      case 'self':
      case 'field_identifier':
      case 'primitive_type':
      case 'lifetime':
      case 'label':
      case 'attribute_item':
      case 'inner_attribute_item':
        return;
      default:
        if (ITEM_TYPES.has(type)) {
          this.deferred.push({ node, pending: { docs: [], attributes: [] } });
          return;
        }
        this.walkChildren(node);
    }
  }

  private structExpression(node: Node): void {
    const nameNode = node.childForFieldName('name');
    const target = nameNode ? this.constructed(nameNode) : undefined;
    if (target) this.emit('new', target, node);
    const body = node.childForFieldName('body');
    if (body) this.walk(body);
  }

  private fieldExpression(node: Node): void {
    const value = node.childForFieldName('value');
    const field = node.childForFieldName('field');
    const valueType = value?.type;
    if (valueType === 'self' && field?.type === 'field_identifier') {
      this.emit('field', ref(this.text(field), ['self']), node, this.body.selfType, true);
      return;
    }
    if (value) this.walk(value, valueType);
  }

  private letDeclaration(node: Node): void {
    const value = node.childForFieldName('value');
    const typeNode = node.childForFieldName('type');
    const alternative = node.childForFieldName('alternative');
    if (value) this.walk(value);
    if (alternative) this.walk(alternative);
    this.typeReferences(typeNode);
    const pattern = node.childForFieldName('pattern');
    if (pattern) {
      const declared = typeNode ? this.receiverTypeOf(typeNode, this.body.selfType, this.body.typeParams) : undefined;
      this.bindPattern(pattern, declared ?? (value ? this.env.typeOf(value) : undefined));
    }
  }

  private letCondition(node: Node): void {
    const value = node.childForFieldName('value');
    if (value) this.walk(value);
    const pattern = node.childForFieldName('pattern');
    if (pattern) this.bindPattern(pattern, null);
    // `if let Some(x) = opt` / `Ok(x)`: x has the wrapped type.
    const inner = pattern?.type === 'tuple_struct_pattern' ? this.unwrappingBinding(pattern) : undefined;
    if (inner && value) {
      const type = this.env.typeOf(value);
      if (type && WRAPPED.has(type)) this.env.bind(this.text(inner), WRAPPED.get(type));
    }
  }

  private forExpression(node: Node): void {
    const value = node.childForFieldName('value');
    if (value) this.walk(value);
    const mark = this.env.mark();
    const pattern = node.childForFieldName('pattern');
    if (pattern) this.bindPattern(pattern, null);
    const body = node.childForFieldName('body');
    if (body) this.walk(body);
    this.env.restore(mark);
  }

  private matchArm(node: Node): void {
    const mark = this.env.mark();
    const pattern = node.childForFieldName('pattern');
    if (pattern) {
      this.bindPattern(pattern, null);
      const guard = pattern.childForFieldName('condition');
      if (guard) this.walk(guard);
    }
    const value = node.childForFieldName('value');
    if (value) this.walk(value);
    this.env.restore(mark);
  }

  private closure(node: Node): void {
    const mark = this.env.mark();
    this.bindParameters(node.childForFieldName('parameters'));
    const body = node.childForFieldName('body');
    if (body) this.walk(body);
    this.env.restore(mark);
  }

  private walkChildren(node: Node): void {
    for (const child of node.namedChildren) if (child) this.walk(child);
  }

  /** A block: statements in order, items deferred with their attributes and docs. */
  private block(node: Node): void {
    const mark = this.env.mark();
    for (const [child, type, pending] of this.annotated(node)) {
      if (ITEM_TYPES.has(type) && type !== 'const_item' && type !== 'static_item') {
        this.deferred.push({ node: child, pending });
      } else {
        this.walk(child, type);
      }
    }
    this.env.restore(mark);
  }

  /** The identifier bound by `Some(x)` / `Ok(x)`, if the pattern is exactly that. */
  private unwrappingBinding(pattern: Node): Node | undefined {
    const typeNode = pattern.childForFieldName('type');
    if (!typeNode || (this.text(typeNode) !== 'Some' && this.text(typeNode) !== 'Ok')) return undefined;
    const rest = pattern.namedChildren.filter((c) => c !== null && c.id !== typeNode.id);
    return rest.length === 1 && rest[0]?.type === 'identifier' ? rest[0] : undefined;
  }

  /** The NameRef a struct literal constructs: `Self { .. }` names the impl type. */
  private constructed(nameNode: Node): NameRef | undefined {
    const path = this.expressionPath(nameNode);
    if (!path) return undefined;
    if (path.qualifier.length === 0 && path.name === 'Self') return this.body.selfType;
    if (path.qualifier[0] === 'Self' && this.body.selfType) return ref(path.name, [this.body.selfType.name, ...path.qualifier.slice(1)]);
    if (isStdPath(path.qualifier) || (path.qualifier.length === 0 && STD_TYPES.has(path.name))) return undefined;
    return path;
  }

  private call(node: Node): void {
    let fn = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    let fnType = fn?.type;
    if (fn && fnType === 'generic_function') {
      this.typeReferences(fn.childForFieldName('type_arguments'));
      fn = fn.childForFieldName('function');
      fnType = fn?.type;
    }
    if (fn) {
      switch (fnType) {
        case 'identifier': {
          const name = this.text(fn);
          if (name === 'Err') {
            const arg = args?.namedChildren.find(isNamedNode);
            const raised = arg ? this.raisedType(arg) : undefined;
            if (raised) this.emit('raise', raised, node);
          } else if (!this.env.isBound(name) && !STD_TYPES.has(name)) {
            this.emit(CAPITALISED.test(name) ? 'new' : 'call', ref(name), node);
          }
          break;
        }
        case 'scoped_identifier': {
          const path = this.expressionPath(fn);
          if (!path) break;
          const head = path.qualifier[0];
          if (isStdPath(path.qualifier) || (path.qualifier.length === 1 && head !== undefined && STD_TYPES.has(head))) break;
          const enumVariant = CAPITALISED.test(path.name) && path.qualifier.length > 0 && CAPITALISED.test(path.qualifier[path.qualifier.length - 1] ?? '');
          this.emit(enumVariant ? 'value' : 'call', path, node);
          break;
        }
        case 'field_expression': {
          const value = fn.childForFieldName('value');
          const field = fn.childForFieldName('field');
          if (!value || field?.type !== 'field_identifier') {
            this.walk(fn, fnType);
            break;
          }
          const name = this.text(field);
          // The whole receiver's type decides whether this is a call into std ...
          const receiver = this.env.typeOf(value);
          if (!isStdReceiver(receiver) && (receiver || !STD_METHODS.has(name))) {
            // ... the head's type is what the core navigates from.
            const { segments, head } = receiverChain(value, this.source, RUST_RECEIVERS, (expression, renderInner) => this.renderOwnHead(expression, renderInner));
            const headType = this.env.typeOf(head);
            this.emit('call', ref(name, segments), node, isStdReceiver(headType) ? undefined : headType);
          }
          const valueType = value.type;
          if (valueType !== 'self') this.walk(value, valueType);
          break;
        }
        default:
          this.walk(fn, fnType);
      }
    }
    if (args) this.walk(args);
  }

  /** `Err(E::V)`, `Err(E::V(..))`, `Err(E { .. })`, `Err(E::new(..))` raise `E`. */
  private raisedType(arg: Node): NameRef | undefined {
    let path: NameRef | undefined;
    if (arg.type === 'scoped_identifier') path = this.expressionPath(arg);
    else if (arg.type === 'call_expression') {
      const fn = arg.childForFieldName('function');
      if (fn?.type === 'scoped_identifier') path = this.expressionPath(fn);
      else if (fn?.type === 'identifier') return CAPITALISED.test(this.text(fn)) ? ref(this.text(fn)) : undefined;
    } else if (arg.type === 'struct_expression') {
      const name = arg.childForFieldName('name');
      const target = name ? this.constructed(name) : undefined;
      if (target && target.qualifier.length === 0) return target;
      path = target;
    } else if (arg.type === 'identifier' && CAPITALISED.test(this.text(arg))) {
      return ref(this.text(arg));
    }
    if (!path || path.qualifier.length === 0) return undefined;
    // The error type is the last capitalised segment before the variant or function.
    const segments = [...path.qualifier];
    const type = segments.pop()!;
    if (type === 'Self') return this.body.selfType;
    if (!CAPITALISED.test(type) || isStdPath([...segments, type]) || STD_TYPES.has(type)) return undefined;
    return ref(type, segments);
  }

  private macro(node: Node): void {
    const nameNode = node.childForFieldName('macro');
    const path = nameNode ? this.expressionPath(nameNode) : undefined;
    if (path && !STD_MACROS.has(path.name) && !isStdPath(path.qualifier)) this.emit('call', path, node);
    for (const child of node.namedChildren) if (child?.type === 'token_tree') this.tokens(child);
  }

  /**
   * Macro arguments are unparsed token trees; recover the calls in them (`assert_eq!(parse(x), y)`,
   * `format!("{}", self.name())`, nested macros) from the token sequence.
   */
  private tokens(tree: Node): void {
    const children = tree.children;
    // Each token's type is read once: the scan below looks ahead up to two tokens.
    const types = children.map((child) => child?.type);
    let chain: string[] = [];
    let separator = '';
    for (let i = 0; i < children.length; i++) {
      const token = children[i];
      if (!token) continue;
      const type = types[i];
      if (type === 'identifier' || type === 'self' || type === 'super' || type === 'crate') {
        const name = this.text(token);
        const next = children[i + 1];
        const nextType = types[i + 1];
        if (nextType === '!' && types[i + 2] === 'token_tree') {
          const qualifier = separator === '::' ? chain : [];
          if (!STD_MACROS.has(name) && !isStdPath(qualifier)) this.emit('call', ref(name, qualifier), token);
          this.tokens(children[i + 2]!);
          i += 2;
        } else if (next && nextType === 'token_tree' && this.source[next.startIndex] === '(') {
          this.tokenCall(name, chain, separator, token);
          this.tokens(next);
          i += 1;
          // `a.b(x).c(y)`: the next call's receiver is the head `a.b()`.
          if (types[i + 1] === '.') {
            chain = [`${[...chain, name].join(separator || '.')}()`];
            separator = '.';
            i += 1;
            continue;
          }
        } else if (nextType === '::' || nextType === '.') {
          chain.push(name);
          separator = nextType;
          i += 1;
          continue;
        } else if (chain.length === 1 && chain[0] === 'self' && separator === '.') {
          this.emit('field', ref(name, ['self']), token, this.body.selfType, true);
        }
        chain = [];
        separator = '';
      } else {
        if (type === 'token_tree') this.tokens(token);
        chain = [];
        separator = '';
      }
    }
  }

  private tokenCall(name: string, chain: readonly string[], separator: string, token: Node): void {
    if (separator === '.') {
      const head = chain[0];
      let receiverType: NameRef | undefined;
      if (head === 'self') receiverType = this.body.selfType;
      else if (head !== undefined) receiverType = this.env.boundType(head) ?? undefined;
      if (isStdReceiver(receiverType)) {
        if (chain.length === 1) return;
        receiverType = undefined;
      }
      if (receiverType || !STD_METHODS.has(name)) this.emit('call', ref(name, chain), token, receiverType);
      return;
    }
    const qualifier = separator === '::' ? this.normalisePath(ref(name, chain)).qualifier : [];
    if (qualifier.length === 0 && (this.env.isBound(name) || STD_TYPES.has(name))) return;
    if (isStdPath(qualifier) || (qualifier.length === 1 && STD_TYPES.has(qualifier[0] ?? ''))) return;
    this.emit(qualifier.length === 0 && CAPITALISED.test(name) ? 'new' : 'call', ref(name, qualifier), token);
  }

  /** Receiver heads only Rust has: `T::new()`, `x?`, `f.await`, `m!()`, `T{}`. */
  private renderOwnHead(node: Node, renderInner: (inner: Node | null | undefined) => string): string | undefined {
    switch (node.type) {
      case 'scoped_identifier':
        return this.pathSegments(node).join('::');
      case 'generic_function':
        return renderInner(node.childForFieldName('function'));
      case 'try_expression':
        return `${renderInner(node.namedChildren.find(isNamedNode))}?`;
      case 'await_expression':
        return `${renderInner(node.namedChildren.find(isNamedNode))}.await`;
      case 'macro_invocation': {
        const name = node.childForFieldName('macro');
        return `${name ? this.text(name) : '?'}!()`;
      }
      case 'struct_expression': {
        const name = node.childForFieldName('name');
        return `${name ? this.text(name) : '?'}{}`;
      }
      default:
        return undefined;
    }
  }

  /** The static type of an expression when the file says it, Option/Result seen through (ask `env.typeOf`: it memoises). */
  private computeType(node: Node): NameRef | undefined {
    switch (node.type) {
      case 'self':
        return this.body.selfType;
      case 'unary_expression':
        // `(*self).f()`, `(*guard).f()`: method calls see through a dereference.
        return this.source[node.startIndex] === '*' ? this.env.typeOf(node.namedChildren.find(isNamedNode) ?? null) : undefined;
      case 'identifier': {
        const local = this.env.boundType(this.text(node));
        return local ?? undefined;
      }
      case 'field_expression': {
        const value = node.childForFieldName('value');
        const field = node.childForFieldName('field');
        const base = this.env.typeOf(value);
        if (!base || !field || isStdReceiver(base) || base.qualifier.length > 0) return undefined;
        return this.fields.get(base.name)?.get(this.text(field));
      }
      case 'call_expression':
        return this.callType(node);
      case 'struct_expression': {
        const name = node.childForFieldName('name');
        const target = name ? this.constructed(name) : undefined;
        return target && target.qualifier.length > 0 && CAPITALISED.test(target.qualifier[target.qualifier.length - 1] ?? '')
          ? undefined
          : target;
      }
      case 'try_expression':
        return unwrapType(this.env.typeOf(node.namedChildren.find(isNamedNode) ?? null));
      case 'reference_expression':
      case 'parenthesized_expression':
      case 'await_expression':
        return this.env.typeOf(node.childForFieldName('value') ?? node.namedChildren.find(isNamedNode) ?? null);
      case 'type_cast_expression':
        return this.receiverTypeOf(node.childForFieldName('type'), this.body.selfType, this.body.typeParams);
      default:
        return undefined;
    }
  }

  private callType(call: Node): NameRef | undefined {
    let fn = call.childForFieldName('function');
    let fnType = fn?.type;
    if (fn && fnType === 'generic_function') {
      fn = fn.childForFieldName('function');
      fnType = fn?.type;
    }
    if (!fn) return undefined;
    switch (fnType) {
      case 'identifier':
        return this.results.get(this.text(fn));
      case 'scoped_identifier': {
        const path = this.expressionPath(fn);
        const typeName = path?.qualifier[path.qualifier.length - 1];
        if (!path || typeName === undefined) return undefined;
        if (path.qualifier.length === 1 && (typeName === 'Box' || typeName === 'Arc' || typeName === 'Rc') && path.name === 'new') {
          return this.env.typeOf(call.childForFieldName('arguments')?.namedChildren.find(isNamedNode) ?? null);
        }
        const type = typeName === 'Self' ? this.body.selfType : CAPITALISED.test(typeName) ? ref(typeName, path.qualifier.slice(0, -1)) : undefined;
        if (!type) return undefined;
        if (STD_TYPES.has(type.name) || isStdPath(type.qualifier)) return STD_TYPE;
        const key = `${type.name}::${path.name}`;
        if (this.results.has(key)) return this.results.get(key);
        return SELF_RETURNING.test(path.name) ? type : undefined;
      }
      case 'field_expression': {
        const value = fn.childForFieldName('value');
        const field = fn.childForFieldName('field');
        if (!value || !field) return undefined;
        const method = this.text(field);
        const base = this.env.typeOf(value);
        if (!base) return undefined;
        if (UNWRAPPING_METHODS.has(method)) return unwrapType(base);
        if (method === 'clone' || method === 'to_owned') return base;
        if (isStdReceiver(base) || base.qualifier.length > 0) return undefined;
        return this.results.get(`${base.name}::${method}`);
      }
      default:
        return undefined;
    }
  }

  private text(node: Node): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }
}

/** Start offsets of the matches of a global `pattern` in `source`, ascending. */
function wordOffsets(source: string, pattern: RegExp): number[] {
  const offsets: number[] = [];
  for (const match of source.matchAll(pattern)) offsets.push(match.index);
  return offsets;
}

/**
 * Whether one of `offsets` (see {@link wordOffsets}) lies within `node`'s text: when none
 * does, no child of `node` can start with that word.
 */
function mayContain(offsets: readonly number[], node: Node): boolean {
  if (offsets.length === 0) return false;
  const start = node.startIndex;
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (offsets[mid]! < start) low = mid + 1;
    else high = mid;
  }
  return low < offsets.length && offsets[low]! < node.endIndex;
}

function isRustTestFile(path: string): boolean {
  // Runs for every file on every re-index: string searches, no split.
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1);
  if (base === 'tests.rs' || base.endsWith('_test.rs') || base.endsWith('_tests.rs')) return true;
  return `/${path.slice(0, slash + 1)}`.includes('/tests/');
}

/** Where a file sits in its crate. */
interface CrateLocation {
  /** Directory holding the crate root file's child modules (`src`, `tests`, `src/bin`). */
  readonly rootDir: string;
  /** The crate directory (holding Cargo.toml), `''` at the repo root. */
  readonly crateDir: string;
  /** Module segments of the file below the crate root. */
  readonly modules: readonly string[];
  /** Directory holding the file's child modules (`mod x;` → `<childDir>/x.rs`). */
  readonly childDir: string;
}

const CRATE_ROOT_DIRS = new Set(['src', 'tests', 'examples', 'benches']);

function locate(path: string): CrateLocation {
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  const stem = file.replace(/\.rs$/, '');
  let anchor = parts.lastIndexOf('src');
  if (anchor < 0) anchor = parts.findIndex((p) => CRATE_ROOT_DIRS.has(p));
  const dir = parts.join('/');
  if (anchor < 0) {
    const isRoot = stem === 'lib' || stem === 'main' || stem === 'mod' || stem === 'build';
    return { rootDir: dir, crateDir: dir, modules: isRoot ? [] : [stem], childDir: isRoot ? dir : join(dir, stem) };
  }
  const crateDir = parts.slice(0, anchor).join('/');
  let rootParts = parts.slice(0, anchor + 1);
  let rel = parts.slice(anchor + 1);
  // `src/bin/x.rs` and `src/bin/x/main.rs` are crate roots of their own.
  if (parts[anchor] === 'src' && rel[0] === 'bin') {
    if (rel.length === 1) return { rootDir: parts.join('/'), crateDir, modules: [], childDir: parts.join('/') };
    rootParts = parts.slice(0, anchor + 3);
    rel = rel.slice(2);
  }
  const rootDir = rootParts.join('/');
  const isModRoot = stem === 'mod' || (rel.length === 0 && (stem === 'lib' || stem === 'main'));
  // Every file directly in tests/, examples/ or benches/ is a crate root.
  const crateRootFile = rel.length === 0 && parts[anchor] !== 'src';
  if (isModRoot || crateRootFile) return { rootDir, crateDir, modules: rel, childDir: dir };
  return { rootDir, crateDir, modules: [...rel, stem], childDir: join(dir, stem) };
}

function join(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

/** Follows module segments from a directory while module files exist. */
function walkModules(dir: string, start: string | undefined, segments: readonly string[], project: ProjectLayout): { file: string | undefined; consumed: number } {
  let file = start;
  let current = dir;
  let consumed = 0;
  for (const segment of segments) {
    const flat = join(current, `${segment}.rs`);
    const nested = join(current, `${segment}/mod.rs`);
    if (project.hasFile(flat)) file = flat;
    else if (project.hasFile(nested)) file = nested;
    else break;
    current = join(current, segment);
    consumed++;
  }
  return { file, consumed };
}

function crateRootFile(location: CrateLocation, fromFile: string, project: ProjectLayout): string | undefined {
  if (location.modules.length === 0) return fromFile;
  for (const name of ['lib.rs', 'main.rs']) {
    const candidate = join(location.rootDir, name);
    if (project.hasFile(candidate)) return candidate;
  }
  return undefined;
}

/** A crate of this repository named `name` (`-` and `_` folded). */
function workspaceCrate(name: string, project: ProjectLayout): string | undefined {
  const spellings = new Set([name, name.replace(/_/g, '-')]);
  for (const spelling of spellings) {
    for (const base of [spelling, `crates/${spelling}`]) {
      const lib = `${base}/src/lib.rs`;
      if (project.hasFile(lib)) return base;
    }
  }
  return undefined;
}

function resolveRustImport(decl: ImportDecl, fromFile: string, project: ProjectLayout): ResolvedImport {
  const segments = decl.source.split('::').filter((s, i) => s !== '' || i > 0);
  if (segments[0] === '') segments.shift();
  const head = segments[0];
  if (head === undefined) return { files: [] };
  if (STD_CRATES.has(head)) return { files: [], external: 'std' };
  const location = locate(fromFile);
  const names = decl.names.filter((n) => n.imported !== '*').map((n) => n.imported);

  /** Walk `rest` from a module, then each imported name that is itself a module. */
  const finish = (dir: string, file: string | undefined, rest: readonly string[]): ResolvedImport => {
    const walked = walkModules(dir, file, rest, project);
    if (!walked.file) return { files: [] };
    const files = new Set<string>();
    let itemNames = names.length === 0;
    const moduleDir = walked.consumed < rest.length ? undefined : rest.length > 0 ? join(dir, rest.join('/')) : dir;
    for (const name of names) {
      const child = moduleDir !== undefined ? walkModules(moduleDir, undefined, [name], project) : undefined;
      if (child?.file) files.add(child.file);
      else itemNames = true;
    }
    const out = itemNames ? [walked.file, ...files] : [...files];
    return { files: [...new Set(out)] };
  };

  if (head === 'crate') {
    return finish(location.rootDir, crateRootFile(location, fromFile, project), segments.slice(1));
  }
  if (head === 'self') return finish(location.childDir, fromFile, segments.slice(1));
  if (head === 'super') {
    let i = 0;
    const modules = [...location.modules];
    while (segments[i] === 'super') {
      modules.pop();
      i++;
    }
    const parent = walkModules(location.rootDir, crateRootFile(location, fromFile, project), modules, project);
    if (parent.consumed < modules.length) return { files: [] };
    return finish(join(location.rootDir, modules.join('/')).replace(/\/$/, ''), parent.file, segments.slice(i));
  }
  // A child module of the current module (2018 uniform paths: `use store::Store;` next to `mod store;`).
  const local = walkModules(location.childDir, undefined, [head], project);
  if (local.file) return finish(location.childDir, fromFile, segments);
  const crate = workspaceCrate(head, project);
  if (crate !== undefined) return finish(`${crate}/src`, `${crate}/src/lib.rs`, segments.slice(1));
  return { files: [], external: head };
}

function moduleNamespace(path: string): string {
  return ['crate', ...locate(path).modules].join('::');
}

/**
 * Rust support: items, impl methods with their target type, traits with default methods,
 * inline modules, macros, `use` trees and crate-aware import resolution.
 *
 * @example
 * ```ts
 * const parser = await createParser(rustLanguage.grammarFor('src/lib.rs'));
 * const extraction = withTree(parser, source, (tree) => rustLanguage.extract(tree.rootNode, source, 'src/lib.rs'));
 * extraction.namespace; // 'crate'
 * ```
 */
/**
 * Macros named like a primitive type (`str!` of snapbox, common in Rust test suites): the
 * grammar lexes the name as the type and turns the whole invocation, with everything up to
 * the end of the enclosing item, into an ERROR. Not followed by `=`, so `str!=x` stays a
 * comparison.
 */
const PRIMITIVE_NAMED_MACRO = /\b(?:str|bool|char|[iuf](?:8|16|32|64|128|size))!(?!=)/g;

/** Same-length text with the first letter of such a macro's name made `_`: an identifier the grammar reads as a macro name. */
function rustParseText(source: string): string {
  return source.includes('!') ? source.replace(PRIMITIVE_NAMED_MACRO, (name) => `_${name.slice(1)}`) : source;
}

export const rustLanguage: LanguageModule = {
  id: 'rust',
  version: '4',
  parseText: rustParseText,
  extensions: ['.rs'],
  grammarFor: () => 'rust',
  isTestFile: isRustTestFile,
  selfNames: ['self', 'Self'],
  superNames: [],
  extract(root: Node, source: string, path: string): FileExtraction {
    const fileIsTest = isRustTestFile(path) || hasInnerCfgTest(root, source);
    const { symbols, references, imports, implementations } = new RustExtractor(source, locate(path).modules, root).run(root, fileIsTest);
    return {
      path,
      language: 'rust',
      symbols,
      references,
      imports,
      namespace: moduleNamespace(path),
      syntaxErrors: countSyntaxErrors(root),
      ...(implementations.length > 0 ? { implementations } : {}),
    };
  },
  resolveImport: resolveRustImport,
};

/** `#![cfg(test)]` at the top of a file makes the whole module test-only. */
function hasInnerCfgTest(root: Node, source: string): boolean {
  for (const child of root.namedChildren) {
    if (!child) continue;
    if (child.type === 'inner_attribute_item') {
      const text = source.slice(child.startIndex, child.endIndex);
      if (/^#!\[\s*cfg\s*\(\s*test\s*\)\s*\]$/.test(text)) return true;
      continue;
    }
    if (child.type !== 'line_comment' && child.type !== 'block_comment') break;
  }
  return false;
}
