/**
 * The contract between the indexer core and one language module.
 *
 * A language module turns ONE parsed file into a `FileExtraction`: what the file defines,
 * what it refers to (by name, as written) and what it imports. It never looks at other files
 * and never decides which node a name refers to; the core resolves references against the
 * whole project (symbol table, import resolution, namespaces, inheritance) and produces the
 * graph. This keeps extraction a pure, cacheable function of the file's bytes, which is what
 * makes incremental re-indexing correct: when a file changes, only its extraction is redone,
 * and the core re-resolves references in both directions.
 */
import type { LanguageId, NodeKind } from '@knowing/graph';
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { GrammarName } from '../parser.js';

/** A name as written in the source, possibly qualified: `os.path.join` → name `join`, qualifier `['os', 'path']`. */
export interface NameRef {
  /** Terminal identifier, without generics or punctuation: `List` for `List<String>`. */
  readonly name: string;
  /**
   * Qualifying segments as written, outermost first: `['pkg']` for `pkg.Type`, `['a', 'b']`
   * for `a::b::C` or `a.b.C`. Empty for a bare name.
   */
  readonly qualifier: readonly string[];
}

/** How a class-like symbol relates to a declared supertype. */
export type SupertypeRelation = 'extends' | 'implements' | 'includes';

export interface SupertypeRef extends NameRef {
  readonly relation: SupertypeRelation;
}

/** A definition in the file. */
export interface SymbolDef {
  /** Terminal name as written (`run`, `__init__`, `ServeHTTP`, `<init>` is NOT used: constructors keep the language's own name, e.g. the class name in Java/C#, `constructor` in TS, `new` in Rust). */
  readonly name: string;
  readonly kind: NodeKind;
  /**
   * Enclosing scopes, outermost first; the qualified name is `<path>.<scope...>.<name>`.
   * Python/TS/Java/C#: enclosing classes (and functions for nested defs).
   * Go: the receiver type for methods (`Encode` for `func (e *Encode) ServeHTTP`).
   * Rust: the `impl` target type for methods (`impl Trait for T` → `['T']`).
   * Ruby: the full constant path joined with `::` as ONE scope entry (`['Jekyll::Site']`),
   * so `lib/jekyll/site.rb.Jekyll::Site.process`.
   * C#/Java: enclosing types only (namespaces/packages go to `namespace`, not to scope).
   */
  readonly scope: readonly string[];
  /**
   * The symbol part of the qualified name when it is not `[...scope, name].join('.')`.
   * Ruby only: class `Site` inside `module Jekyll` has name `Site`, scope `[]` and
   * localName `Jekyll::Site`, so its QN `lib/jekyll/site.rb.Jekyll::Site` is the prefix of its
   * members' QNs (`process` has scope `['Jekyll::Site']`). The core builds the QN as
   * `<path>.<localName ?? [...scope, name].join('.')>`.
   */
  readonly localName?: string;
  /** 1-based inclusive lines of the whole definition. */
  readonly startLine: number;
  readonly endLine: number;
  /** The declaration's first line(s) up to the body, trimmed, at most ~200 characters. */
  readonly signature: string;
  /** Doc comment / docstring in the language's own convention, markers stripped, ≤ 500 chars. */
  readonly doc: string;
  /** A test by the language's conventions (test function/method names, test classes) or because the file is a test file. */
  readonly isTest: boolean;
  /** Index in `FileExtraction.symbols` of the enclosing definition, or -1 at file level. */
  readonly parent: number;
  /** Visible outside its file/module/package by the language's rules. */
  readonly exported: boolean;
  /** Class-like symbols: declared supertypes, mixins and included modules, in declaration order. */
  readonly supertypes?: readonly SupertypeRef[];
  /** Decorators / annotations / attributes applied to this definition. */
  readonly decorators?: readonly NameRef[];
  /** Types named in parameter and return annotations (functions) or the declared type (fields, variables, constants). Builtins/primitives omitted. */
  readonly typeHints?: readonly NameRef[];
  /**
   * For fields/properties/variables: the declared or inferred type, used by the core to
   * resolve calls through them (`self.store.put()` where `store: Store`).
   */
  readonly valueType?: NameRef;
  /** Marks `@Override` / `override` / `@override` methods. */
  readonly overrides?: boolean;
}

/** What kind of use a reference is. */
export type ReferenceKind =
  /** A call `f()`, `obj.m()`, `Pkg.f()`, macro invocation in Rust. */
  | 'call'
  /** Construction: `new X()`, `X()` of a class in Python, `X{}` composite literal in Go, `X::new()` is a call. */
  | 'new'
  /** A use of a type name outside annotations: casts, `instanceof`, generics arguments, `isinstance(x, T)`. */
  | 'type'
  /** Read or write of a field/attribute through self/this/receiver: `self.x`, `this.x`, `r.x` (Go receiver). */
  | 'field'
  /** Use of a constant or module-level variable by name. */
  | 'value'
  /** Raising/throwing: `raise E(...)`, `throw new E()`, `panic(...)` targets the constructed type. */
  | 'raise';

/** A use of a name inside the file. */
export interface Reference extends NameRef {
  /** Index in `symbols` of the innermost enclosing definition (the edge source), or -1 at file level. */
  readonly from: number;
  readonly kind: ReferenceKind;
  /**
   * The receiver's type when the extractor can tell it statically: declared local/parameter
   * types (`Store s; s.put()` → `Store`), Go/Rust receivers, `self`/`this` (the enclosing class
   * name), constructor assignment (`x = Foo(); x.m()` → `Foo`), annotations. Leave undefined when unknown.
   */
  readonly receiverType?: NameRef;
  /** 1-based line of the use. */
  readonly line: number;
}

/** An import / use / require / using declaration. */
export interface ImportDecl {
  /**
   * The module as written: `./util`, `../lib/x.js`, `flask.app`, `.helpers` (Python relative, dots kept),
   * `github.com/o/r/pkg` (Go), `java.util.List` (Java, full path incl. class), `crate::a::b` /
   * `super::x` (Rust), `System.Text` (C#), `jekyll/site` or `./site` (Ruby require / require_relative:
   * prefix `./` for require_relative).
   */
  readonly source: string;
  /**
   * Names the import binds: imported name → local name. `*` for a wildcard import, `default`
   * for a TS/JS default import. Empty for a whole-module import.
   */
  readonly names: readonly { readonly imported: string; readonly local: string }[];
  /** Local name bound to the module itself: `import x.y as z` → `z`; Go package name or alias; TS `import * as ns`. */
  readonly moduleAlias?: string;
  /** TS/JS `export … from`: the names are re-exported by this file. */
  readonly reexport?: boolean;
  readonly line: number;
}

/**
 * An implementation of a trait/interface declared apart from the type (Rust `impl Trait for T`),
 * possibly in another file than T. Both names are seen from the file's top level: as written,
 * or qualified by the path of the file's own items that enclose a local declaration (`m::Y`
 * for `Y` of inline module `m`, `f::V` for `V` declared in the body of `f`). The core resolves
 * them (that path in the file first, then as a type name) and emits `implements` T → Trait,
 * and treats Trait as a supertype of T for member lookup and the derived overrides / inherits.
 */
export interface Implementation {
  /** The implementing type as written (`MemStore`, `crate::store::MemStore`). */
  readonly type: NameRef;
  /** The implemented trait as written. */
  readonly trait: NameRef;
  /** 1-based line of the declaration. */
  readonly line: number;
}

/** Everything the core needs from one file. */
export interface FileExtraction {
  /** Repo-relative path with `/` separators. */
  readonly path: string;
  readonly language: LanguageId;
  readonly symbols: readonly SymbolDef[];
  readonly references: readonly Reference[];
  readonly imports: readonly ImportDecl[];
  /**
   * The namespace the file's top-level symbols live in, for unqualified lookups across files:
   * Go: the package import path (module path from go.mod + directory) — the core fills it if
   * the module leaves it empty; Java: the `package` declaration; C#: the (first/outer) namespace;
   * Rust: the module path (`crate::a::b`); Python: dotted module path; TS/JS/Ruby: leave empty.
   */
  readonly namespace: string;
  /** Count of ERROR / MISSING nodes the parser recovered from. */
  readonly syntaxErrors: number;
  /** Implementations declared apart from their type (Rust `impl Trait for T`); see {@link Implementation}. */
  readonly implementations?: readonly Implementation[];
}

/** Read-only view of the project the core gives to import resolution. */
export interface ProjectLayout {
  /** Repo-relative file paths the indexer will index (all languages). */
  hasFile(path: string): boolean;
  /** Indexed files directly inside a directory (`''` for the root). */
  filesInDirectory(directory: string): readonly string[];
  /** Module path from the root go.mod, if any. */
  readonly goModulePath: string | undefined;
  /** Files whose extraction declared this namespace (Java package, C# namespace, Rust module, Go import path). */
  filesInNamespace(namespace: string): readonly string[];
  /**
   * Indexed files whose path ends with `suffix` at a path-segment boundary
   * (`filesEndingWith('flask/app.py')` → `['src/flask/app.py']`), shortest first. Lets a module
   * find source roots it cannot name (`src/`, `lib/`, `src/main/java/`). Optional so test
   * doubles may omit it; the core always provides it.
   */
  filesEndingWith?(suffix: string): readonly string[];
}

/** Where an import points. */
export interface ResolvedImport {
  /** Repo files the import refers to (a module file, a package's files, an index file). */
  readonly files: readonly string[];
  /** When it leaves the repository: the external package name, for a placeholder node (`requests`, `@scope/pkg`, `std`). */
  readonly external?: string;
}

/** One language's support. Implementations live in `src/languages/<id>.ts`. */
export interface LanguageModule {
  readonly id: LanguageId;
  /**
   * Bump when `extract` changes what it returns: cached extractions of unchanged files are
   * keyed by it, so a new version makes the next index re-extract this language's files.
   */
  readonly version?: string;
  /** File extensions including the dot, lower-case: `.py`, `.pyi`. */
  readonly extensions: readonly string[];
  /** The grammar to parse a file with (TS and TSX differ by extension). */
  grammarFor(path: string): GrammarName;
  /** Test file by path convention (`test_*.py`, `*_test.go`, `*.spec.ts`, `src/test/java/`, `*Tests.cs`, `spec/`, …). */
  isTestFile(path: string): boolean;
  /** Names that mean "the current instance/class" in a qualifier: `self`, `cls`, `this`, `Self`, `base`/`super` handled via `superNames`. */
  readonly selfNames: readonly string[];
  /** Names that mean "the parent class": `super`, `base`. */
  readonly superNames: readonly string[];
  /**
   * The text to hand the parser when the grammar stumbles over a construct the file's text
   * can be rewritten around. It must keep the length and every line break, so each position
   * in the tree is a position in the file; `extract` still reads names from the file's text.
   */
  parseText?(source: string): string;
  /** Extract one file. Pure: same input, same output. */
  extract(root: SyntaxNode, source: string, path: string): FileExtraction;
  /** Map an import declaration to repo files, or to an external package. */
  resolveImport(decl: ImportDecl, fromFile: string, project: ProjectLayout): ResolvedImport;
}
