/**
 * Go language module.
 *
 * Qualified names: `<file>.<name>` for package-level functions, types, consts and vars;
 * `<file>.<Receiver>.<method>` for methods (receiver pointer and type arguments stripped);
 * `<file>.<Struct>.<field>` for struct fields and `<file>.<Interface>.<method>` for interface
 * method specs. `namespace` is left empty: the core fills in the package import path from
 * go.mod and the file's directory (the module cannot see go.mod).
 *
 * Kind choices: `type X struct{…}` → `struct`; `type X interface{…}` → `interface`; every other
 * named type — aliases (`type A = B`) and defined types over a non-struct, non-interface type
 * (`type HandlerFunc func(…)`, `type IDs []int`, `type Kind int`) — → `type_alias`, with the
 * named types it is built from as `typeHints`.
 *
 * References are written as in the source: `f()` → `f`; `pkg.F()` → `F` qualified `['pkg']`;
 * `s.store.Put()` → `Put` qualified `['s', 'store']`. A receiver that is not a plain name is
 * one rendered head segment (`json.NewEncoder()`, `items[]`, `T{}`), so that every later
 * segment is a field name. `receiverType` is the type of the head segment — the type the
 * core starts navigating from (fields are followed through their `valueType`). It is known
 * only from what the file states: the method receiver, typed parameters and named results,
 * `var x T`, `x := T{}` / `&T{}` / `new(T)`, type assertions and type-switch cases, results
 * of functions and methods declared in this file, the `New<T>` naming convention
 * (`NewServer()` → `Server`, `pkg.NewClient()` → `pkg.Client`), package-level vars of this
 * file, and fields of this file's structs for chained heads.
 *
 * Every symbol of a `_test.go` file is a test (Test*, Benchmark*, Fuzz* and Example* only run
 * from there). Calls are reported per call site; field (through the receiver, plumbing such as
 * `mu`, `ctx`, `logger` skipped) and value references once per enclosing definition.
 *
 * `resolveImport`: an import path inside the module (go.mod's path) maps to the non-test Go
 * files of its directory; otherwise a namespace the core knows (nested modules); otherwise
 * an external placeholder named `std` for the standard library (first element without a dot)
 * or the repository (`github.com/o/r`, `golang.org/x/net`, `gopkg.in/yaml.v3`, else two
 * elements: `go.uber.org/zap`).
 */
import type { Node } from 'web-tree-sitter';
import type { NodeKind } from '@knowing/graph';
import type { FileExtraction, ImportDecl, LanguageModule, NameRef, ProjectLayout, Reference, ReferenceKind, ResolvedImport, SupertypeRef } from './types.js';
import { C_COMMENT_OPENERS, collapse, countSyntaxErrors, isNamedNode, MAX_DOC_CHARS, MAX_SIGNATURE_CHARS, ref, sliceWithoutComments } from './common.js';
import type { CommentScan } from './common.js';
import type { MutableSymbol as Draft } from './common.js';
import { receiverChain, TypeEnvironment } from './body-walk.js';
import type { ReceiverSyntax } from './body-walk.js';

const BUILTIN_TYPES = new Set([
  'bool', 'byte', 'complex64', 'complex128', 'error', 'float32', 'float64', 'int', 'int8', 'int16',
  'int32', 'int64', 'rune', 'string', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr',
  'any', 'comparable',
]);

const BUILTIN_FUNCS = new Set([
  'append', 'cap', 'clear', 'close', 'complex', 'copy', 'delete', 'imag', 'len', 'make', 'max',
  'min', 'new', 'panic', 'print', 'println', 'real', 'recover',
]);

/** Receiver fields that are plumbing rather than state worth an edge. */
const NOISE_FIELDS = new Set(['mu', 'mtx', 'mutex', 'rwmutex', 'lock', 'wg', 'once', 'ctx', 'err', 'log', 'logger']);

/** Hosts whose import paths name a repository with three segments (`github.com/owner/repo`). */
const THREE_SEGMENT_HOSTS = new Set([
  'github.com', 'gitlab.com', 'bitbucket.org', 'gitee.com', 'codeberg.org', 'golang.org', 'git.sr.ht',
]);

/** Compiler directives are not documentation (`//go:generate`, `//nolint:x`, `//line f:1`). */
const DIRECTIVE = /^\/\/(?:line |extern |export |[a-z0-9]+:[a-z0-9])/;

const EXPORTED = /^\p{Lu}/u;

const GO_RECEIVERS: ReceiverSyntax = {
  memberAccess: 'selector_expression',
  object: 'operand',
  names: new Set(['identifier']),
  transparent: new Set(['parenthesized_expression', 'unary_expression']),
};

function refKey(r: NameRef): string {
  return r.qualifier.length === 0 ? r.name : `${r.qualifier.join('.')}.${r.name}`;
}

/**
 * The package name an import path binds when it has no alias (the usual convention; the real
 * name is in the package clause, which this file cannot see): the last element, skipping a
 * `/vN` major-version suffix, without a `go-` prefix and cut at the first character that
 * cannot continue an identifier (`gopkg.in/yaml.v3` → `yaml`, `go-sqlite3` → `sqlite3`).
 */
function goPackageNameOf(importPath: string): string {
  const parts = importPath.split('/');
  let last = parts[parts.length - 1] ?? importPath;
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2] ?? last;
  if (last.startsWith('go-')) last = last.slice(3);
  const cut = last.search(/[^\p{L}\p{N}_]/u);
  return cut > 0 ? last.slice(0, cut) : last;
}

/** `NewServer` → `Server`: Go's constructor naming convention (`New` alone says nothing). */
function constructorResult(name: string): string | undefined {
  return /^New\p{Lu}/u.test(name) ? name.slice(3) : undefined;
}

/** Name for the external placeholder of a non-module import: `std` for the standard library. */
function externalPackageOf(importPath: string): string {
  const parts = importPath.split('/');
  const host = parts[0] ?? importPath;
  if (!host.includes('.')) return 'std';
  let take = 2;
  if (THREE_SEGMENT_HOSTS.has(host)) take = 3;
  else if (host === 'gopkg.in' && parts.length > 2 && !(parts[1] ?? '').includes('.v')) take = 3;
  return parts.slice(0, take).join('/');
}

interface TypeInfo {
  readonly fields: Map<string, NameRef | undefined>;
  /** Embedded types (promoted fields come from these). */
  readonly embedded: string[];
}

class GoExtractor {
  private readonly symbols: Draft[] = [];
  private readonly references: Reference[] = [];
  private readonly imports: ImportDecl[] = [];
  private readonly seen = new Set<string>();
  private readonly importAliases = new Set<string>();
  /** Same-file types: struct field types and embedded types, by type name. */
  private readonly types = new Map<string, TypeInfo>();
  /** Every type name declared at package level in this file (structs, interfaces, others). */
  private readonly typeNames = new Set<string>();
  /** Same-file function results by name, and method results by `Type.method`. */
  private readonly results = new Map<string, (NameRef | undefined)[]>();
  /** Same-file package-level var/const types. */
  private readonly globals = new Map<string, NameRef>();
  private readonly env = new TypeEnvironment((node) => this.computeType(node));
  private typeParams: ReadonlySet<string> = new Set();
  private from = -1;
  private recvName: string | undefined;
  private recvType: NameRef | undefined;

  private readonly commentScan: CommentScan;

  constructor(
    private readonly source: string,
    private readonly isTest: boolean,
    root: Node,
  ) {
    this.commentScan = { root, openers: C_COMMENT_OPENERS };
  }

  run(root: Node): Pick<FileExtraction, 'symbols' | 'references' | 'imports'> {
    const top = root.namedChildren.filter(isNamedNode);
    this.collectFileFacts(top);
    for (const [node, type, doc] of documented(this.source, top)) {
      switch (type) {
        case 'import_declaration':
          this.importDeclaration(node);
          break;
        case 'function_declaration':
        case 'method_declaration':
          this.functionDeclaration(node, doc);
          break;
        case 'type_declaration':
          this.typeDeclaration(node, doc);
          break;
        case 'const_declaration':
        case 'var_declaration':
          this.valueDeclaration(node, doc);
          break;
        default:
          break;
      }
    }
    return { symbols: this.symbols, references: this.references, imports: this.imports };
  }

  // ---------------------------------------------------------------- file facts (pre-pass)

  /** Reads the declarations (not the bodies) so that calls can be typed regardless of order. */
  private collectFileFacts(top: readonly Node[]): void {
    const vars: Node[] = [];
    for (const node of top) {
      switch (node.type) {
        case 'import_declaration':
          for (const spec of this.importSpecs(node)) {
            const alias = spec.childForFieldName('name');
            if (alias?.type === 'package_identifier') this.importAliases.add(this.text(alias));
            else if (!alias) this.importAliases.add(goPackageNameOf(this.importPath(spec)));
          }
          break;
        case 'type_declaration':
          for (const spec of node.namedChildren) {
            if (spec?.type !== 'type_spec' && spec?.type !== 'type_alias') continue;
            const name = spec.childForFieldName('name');
            if (!name) continue;
            this.typeNames.add(this.text(name));
            const body = spec.childForFieldName('type');
            if (spec.type === 'type_spec' && body?.type === 'struct_type') this.types.set(this.text(name), this.structInfo(body));
          }
          break;
        case 'function_declaration':
        case 'method_declaration': {
          const name = node.childForFieldName('name');
          if (!name) break;
          const receiver = node.type === 'method_declaration' ? this.receiverOf(node) : undefined;
          const key = receiver ? `${receiver.type}.${this.text(name)}` : this.text(name);
          this.results.set(key, this.resultTypes(node.childForFieldName('result')));
          break;
        }
        case 'var_declaration':
        case 'const_declaration':
          vars.push(node);
          break;
        default:
          break;
      }
    }
    for (const decl of vars) {
      for (const spec of this.valueSpecs(decl)) {
        const declared = this.namedType(spec.childForFieldName('type'));
        const values = spec.childForFieldName('value')?.namedChildren ?? [];
        spec.childrenForFieldName('name').forEach((name, i) => {
          if (!name) return;
          const type = declared ?? this.env.typeOf(values[i] ?? null);
          if (type) this.globals.set(this.text(name), type);
        });
      }
    }
  }

  private structInfo(struct: Node): TypeInfo {
    const info: TypeInfo = { fields: new Map(), embedded: [] };
    const list = struct.namedChildren.find((c) => c?.type === 'field_declaration_list');
    for (const field of list?.namedChildren ?? []) {
      if (field?.type !== 'field_declaration') continue;
      const typeNode = field.childForFieldName('type');
      const names = field.childrenForFieldName('name').filter(isNamedNode);
      if (names.length === 0) {
        const embedded = this.namedType(typeNode);
        if (embedded && embedded.qualifier.length === 0) info.embedded.push(embedded.name);
        continue;
      }
      const type = this.namedType(typeNode);
      for (const name of names) info.fields.set(this.text(name), type);
    }
    return info;
  }

  private resultTypes(result: Node | null): (NameRef | undefined)[] {
    if (!result) return [];
    if (result.type !== 'parameter_list') return [this.namedType(result)];
    const out: (NameRef | undefined)[] = [];
    for (const param of result.namedChildren) {
      if (param?.type !== 'parameter_declaration') continue;
      const type = this.namedType(param.childForFieldName('type'));
      const count = Math.max(1, param.childrenForFieldName('name').filter(isNamedNode).length);
      for (let i = 0; i < count; i++) out.push(type);
    }
    return out;
  }

  // ---------------------------------------------------------------- imports

  private importSpecs(decl: Node): Node[] {
    const out: Node[] = [];
    for (const child of decl.namedChildren) {
      if (child?.type === 'import_spec') out.push(child);
      else if (child?.type === 'import_spec_list') {
        for (const spec of child.namedChildren) if (spec?.type === 'import_spec') out.push(spec);
      }
    }
    return out;
  }

  private importPath(spec: Node): string {
    const path = spec.childForFieldName('path');
    return path ? this.text(path).replace(/^["`]|["`]$/g, '') : '';
  }

  private importDeclaration(decl: Node): void {
    for (const spec of this.importSpecs(decl)) {
      const source = this.importPath(spec);
      const alias = spec.childForFieldName('name');
      const line = spec.startPosition.row + 1;
      if (alias?.type === 'dot') {
        this.imports.push({ source, names: [{ imported: '*', local: '*' }], line });
      } else if (alias?.type === 'blank_identifier') {
        this.imports.push({ source, names: [], moduleAlias: '_', line });
      } else {
        const moduleAlias = alias ? this.text(alias) : goPackageNameOf(source);
        this.imports.push({ source, names: [], moduleAlias, line });
      }
    }
  }

  // ---------------------------------------------------------------- declarations

  private receiverOf(method: Node): { name: string | undefined; type: string; params: string[] } | undefined {
    const list = method.childForFieldName('receiver');
    const param = list?.namedChildren.find((c) => c?.type === 'parameter_declaration');
    if (!param) return undefined;
    let typeNode = param.childForFieldName('type');
    while (typeNode && (typeNode.type === 'pointer_type' || typeNode.type === 'parenthesized_type')) {
      typeNode = typeNode.namedChildren.find(isNamedNode) ?? null;
    }
    const params: string[] = [];
    if (typeNode?.type === 'generic_type') {
      const args = typeNode.childForFieldName('type_arguments');
      for (const arg of args?.namedChildren ?? []) {
        const id = arg?.type === 'type_elem' ? arg.namedChildren.find(isNamedNode) : arg;
        if (id?.type === 'type_identifier') params.push(this.text(id));
      }
      typeNode = typeNode.childForFieldName('type');
    }
    if (typeNode?.type !== 'type_identifier') return undefined;
    const name = param.childForFieldName('name');
    return { name: name ? this.text(name) : undefined, type: this.text(typeNode), params };
  }

  private functionDeclaration(node: Node, doc: string): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const name = this.text(nameNode);
    const isMethod = node.type === 'method_declaration';
    const receiver = isMethod ? this.receiverOf(node) : undefined;
    if (isMethod && !receiver) return;
    const typeParams = new Set(receiver?.params ?? []);
    for (const p of node.childForFieldName('type_parameters')?.namedChildren ?? []) {
      for (const id of p?.childrenForFieldName('name') ?? []) if (id) typeParams.add(this.text(id));
    }
    this.typeParams = typeParams;
    const params = node.childForFieldName('parameters');
    const result = node.childForFieldName('result');
    const body = node.childForFieldName('body');
    const hints: NameRef[] = [];
    this.collectTypes(params, hints);
    this.collectTypes(result, hints);
    const index = this.add({
      name,
      kind: isMethod ? 'method' : 'function',
      scope: receiver ? [receiver.type] : [],
      startLine: node.startPosition.row + 1,
      endLine: node.endPosition.row + 1,
      signature: this.signature(node.startIndex, body ? body.startIndex : node.endIndex),
      doc,
      isTest: this.isTest,
      parent: -1,
      exported: EXPORTED.test(name),
      ...(hints.length > 0 ? { typeHints: hints } : {}),
    });
    if (!body) return;
    this.from = index;
    this.env.reset();
    if (receiver?.name) {
      this.recvName = receiver.name;
      this.recvType = ref(receiver.type);
      this.env.bindReceiver(receiver.name, this.recvType);
    }
    this.bindParameters(params, false);
    this.bindParameters(result, false);
    this.walk(body);
    this.recvName = undefined;
    this.recvType = undefined;
    this.typeParams = new Set();
  }

  private typeDeclaration(decl: Node, declDoc: string): void {
    const specs = decl.namedChildren.filter(isNamedNode);
    const { single, grouped } = this.grouping(decl, specs);
    for (const [spec, type, inner] of documented(this.source, specs)) {
      const doc = inner || (single ? declDoc : '');
      if (type === 'type_spec' || type === 'type_alias') this.typeSpec(spec, grouped ? spec : decl, doc);
    }
  }

  /** `single`: one spec, so the declaration's doc is its doc; `grouped`: written with parentheses. */
  private grouping(decl: Node, specs: readonly Node[]): { single: boolean; grouped: boolean } {
    const real = specs.filter((s) => s.type !== 'comment');
    const first = real[0] ?? specs[0];
    const grouped = first !== undefined && this.source.slice(decl.startIndex, first.startIndex).includes('(');
    return { single: real.length === 1, grouped };
  }

  /** The declaration's head: from `start` up to `end`, on one line, at most 200 characters. */
  private signature(start: number, end: number): string {
    return collapse(sliceWithoutComments(this.source, start, Math.min(end, start + 4 * MAX_SIGNATURE_CHARS), this.commentScan));
  }

  /** A value declaration's first line, without a trailing `{` or `(` of a multi-line value. */
  private firstLine(start: number, end: number): string {
    const newline = this.source.indexOf('\n', start);
    const stop = newline >= 0 && newline < end ? newline : end;
    return this.signature(start, stop).replace(/\s*[{(]$/, '');
  }

  private typeSpec(spec: Node, outer: Node, doc: string): void {
    const nameNode = spec.childForFieldName('name');
    const body = spec.childForFieldName('type');
    if (!nameNode || !body) return;
    const name = this.text(nameNode);
    const typeParams = new Set<string>();
    for (const p of spec.childForFieldName('type_parameters')?.namedChildren ?? []) {
      for (const id of p?.childrenForFieldName('name') ?? []) if (id) typeParams.add(this.text(id));
    }
    this.typeParams = typeParams;
    const bodyType = spec.type === 'type_alias' ? 'alias' : body.type;
    const kind: NodeKind =
      bodyType === 'struct_type' ? 'struct' : bodyType === 'interface_type' ? 'interface' : 'type_alias';
    let signatureEnd = spec.endIndex;
    if (kind === 'struct' || kind === 'interface') {
      const open = this.source.indexOf('{', body.startIndex);
      if (open >= 0 && open < body.endIndex) signatureEnd = open;
    }
    const draft: Draft = {
      name,
      kind,
      scope: [],
      startLine: outer.startPosition.row + 1,
      endLine: spec.endPosition.row + 1,
      signature: kind === 'type_alias' ? this.firstLine(outer.startIndex, signatureEnd) : this.signature(outer.startIndex, signatureEnd),
      doc,
      isTest: this.isTest,
      parent: -1,
      exported: EXPORTED.test(name),
    };
    const index = this.add(draft);
    if (kind === 'struct') {
      const supertypes = this.structMembers(body, name, index);
      if (supertypes.length > 0) draft.supertypes = supertypes;
    } else if (kind === 'interface') {
      const supertypes = this.interfaceMembers(body, name, index);
      if (supertypes.length > 0) draft.supertypes = supertypes;
    } else {
      const hints: NameRef[] = [];
      this.collectTypes(body, hints);
      if (hints.length > 0) draft.typeHints = hints;
    }
    this.typeParams = new Set();
  }

  private structMembers(struct: Node, owner: string, parent: number): SupertypeRef[] {
    const supertypes: SupertypeRef[] = [];
    const list = struct.namedChildren.find((c) => c?.type === 'field_declaration_list');
    if (!list) return supertypes;
    for (const [field, type, doc] of documented(this.source, list.namedChildren)) {
      if (type !== 'field_declaration') continue;
      const typeNode = field.childForFieldName('type');
      const names = field.childrenForFieldName('name').filter(isNamedNode);
      if (names.length === 0) {
        const embedded = this.namedType(typeNode);
        if (embedded) supertypes.push({ ...embedded, relation: 'extends' });
        continue;
      }
      const tag = field.childForFieldName('tag');
      const signature = this.signature(field.startIndex, tag ? tag.startIndex : field.endIndex);
      const valueType = this.namedType(typeNode);
      const hints: NameRef[] = [];
      this.collectTypes(typeNode, hints);
      for (const nameNode of names) {
        const name = this.text(nameNode);
        if (name === '_') continue;
        this.add({
          ...this.memberDraft(field, name, 'field', owner, parent, signature, doc),
          ...(valueType ? { valueType } : {}),
          ...(hints.length > 0 ? { typeHints: hints } : {}),
        });
      }
    }
    return supertypes;
  }

  private interfaceMembers(iface: Node, owner: string, parent: number): SupertypeRef[] {
    const supertypes: SupertypeRef[] = [];
    for (const [member, type, doc] of documented(this.source, iface.namedChildren)) {
      if (type === 'type_elem') {
        // Only a lone named type is an embedded interface; unions and `~T` are constraints.
        const parts = member.namedChildren.filter(isNamedNode);
        const only = parts.length === 1 ? parts[0] : undefined;
        const embedded = only ? this.namedType(only) : undefined;
        if (embedded) supertypes.push({ ...embedded, relation: 'extends' });
      } else if (type === 'method_elem') {
        const nameNode = member.childForFieldName('name');
        if (!nameNode) continue;
        const name = this.text(nameNode);
        const hints: NameRef[] = [];
        this.collectTypes(member.childForFieldName('parameters'), hints);
        this.collectTypes(member.childForFieldName('result'), hints);
        this.add({
          ...this.memberDraft(member, name, 'method', owner, parent, this.signature(member.startIndex, member.endIndex), doc),
          ...(hints.length > 0 ? { typeHints: hints } : {}),
        });
      }
    }
    return supertypes;
  }

  /** A member of type `owner` (a struct field, an interface method) on exactly the lines of `node`. */
  private memberDraft(node: Node, name: string, kind: NodeKind, owner: string, parent: number, signature: string, doc: string): Draft {
    return {
      name,
      kind,
      scope: [owner],
      startLine: node.startPosition.row + 1,
      endLine: node.endPosition.row + 1,
      signature,
      doc,
      isTest: this.isTest,
      parent,
      exported: EXPORTED.test(name),
    };
  }

  private valueSpecs(decl: Node): Node[] {
    const out: Node[] = [];
    for (const child of decl.namedChildren) {
      if (!child) continue;
      if (child.type === 'const_spec' || child.type === 'var_spec' || child.type === 'comment') out.push(child);
      else if (child.type === 'var_spec_list') {
        for (const spec of child.namedChildren) if (spec) out.push(spec);
      }
    }
    return out;
  }

  private valueDeclaration(decl: Node, declDoc: string): void {
    const kind: NodeKind = decl.type === 'const_declaration' ? 'constant' : 'variable';
    const specs = this.valueSpecs(decl);
    const { single, grouped } = this.grouping(decl, specs);
    // In a const group a spec without type and value repeats the previous one (iota).
    let inheritedType: Node | null = null;
    let inheritedValues: (Node | null)[] = [];
    for (const [spec, , inner] of documented(this.source, specs)) {
      const doc = inner || (single ? declDoc : '');
      let typeNode = spec.childForFieldName('type');
      const valueList = spec.childForFieldName('value');
      let values = valueList?.namedChildren ?? [];
      if (kind === 'constant') {
        if (!typeNode && !valueList) {
          typeNode = inheritedType;
          values = inheritedValues;
        } else {
          inheritedType = typeNode;
          inheritedValues = values;
        }
      }
      const outer = grouped ? spec : decl;
      const signature = this.firstLine(outer.startIndex, spec.endIndex);
      const declared = this.namedType(typeNode);
      const hints: NameRef[] = [];
      this.collectTypes(typeNode, hints);
      let first = -1;
      spec.childrenForFieldName('name').forEach((nameNode, i) => {
        if (!isNamedNode(nameNode)) return;
        const name = this.text(nameNode);
        if (name === '_') return;
        const valueType = declared ?? this.env.typeOf(values[i] ?? null);
        const index = this.add({
          name,
          kind,
          scope: [],
          startLine: outer.startPosition.row + 1,
          endLine: spec.endPosition.row + 1,
          signature,
          doc,
          isTest: this.isTest,
          parent: -1,
          exported: EXPORTED.test(name),
          ...(hints.length > 0 ? { typeHints: hints } : {}),
          ...(valueType ? { valueType } : {}),
        });
        if (first < 0) first = index;
      });
      if (valueList) {
        this.from = first;
        this.env.reset();
        this.walk(valueList);
      }
    }
    this.from = -1;
  }

  private add(draft: Draft): number {
    this.symbols.push(draft);
    return this.symbols.length - 1;
  }

  // ---------------------------------------------------------------- types

  /** The named type a type expression denotes once pointers and type arguments are stripped. */
  private namedType(node: Node | null): NameRef | undefined {
    let current = node;
    while (current) {
      switch (current.type) {
        case 'type_identifier': {
          const name = this.text(current);
          return BUILTIN_TYPES.has(name) || this.typeParams.has(name) ? undefined : ref(name);
        }
        case 'qualified_type': {
          const pkg = current.childForFieldName('package');
          const name = current.childForFieldName('name');
          return pkg && name ? ref(this.text(name), [this.text(pkg)]) : undefined;
        }
        case 'pointer_type':
        case 'parenthesized_type':
        case 'type_elem':
          current = current.namedChildren.find(isNamedNode) ?? null;
          break;
        case 'generic_type':
          current = current.childForFieldName('type');
          break;
        default:
          return undefined;
      }
    }
    return undefined;
  }

  /** Every non-builtin named type inside a type expression or parameter list, deduplicated. */
  private collectTypes(node: Node | null, out: NameRef[]): void {
    if (!node) return;
    switch (node.type) {
      case 'type_identifier':
      case 'qualified_type': {
        const type = this.namedType(node);
        if (type && !out.some((t) => refKey(t) === refKey(type))) out.push(type);
        return;
      }
      case 'identifier':
      case 'field_identifier':
      case 'comment':
        return;
      default:
        for (const child of node.namedChildren) if (child) this.collectTypes(child, out);
    }
  }

  // ---------------------------------------------------------------- bodies

  private bindParameters(list: Node | null, emitTypes: boolean): void {
    if (list?.type !== 'parameter_list') return;
    for (const param of list.namedChildren) {
      if (!param) continue;
      const typeNode = param.childForFieldName('type');
      const type = param.type === 'variadic_parameter_declaration' ? undefined : this.namedType(typeNode);
      for (const name of param.childrenForFieldName('name')) if (isNamedNode(name)) this.env.bind(this.text(name), type);
      if (emitTypes) this.typeReferences(typeNode, 'type');
    }
  }

  private isPackage(name: string): boolean {
    return !this.env.isBound(name) && this.importAliases.has(name);
  }

  private emit(kind: ReferenceKind, target: NameRef, node: Node, receiverType?: NameRef, dedupe = false): void {
    if (dedupe) {
      const key = `${this.from}|${kind}|${refKey(target)}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    const reference: Reference = receiverType
      ? { name: target.name, qualifier: target.qualifier, from: this.from, kind, receiverType, line: node.startPosition.row + 1 }
      : { name: target.name, qualifier: target.qualifier, from: this.from, kind, line: node.startPosition.row + 1 };
    this.references.push(reference);
  }

  /** `type` (or `new`) references for the named types of a type expression used in a body. */
  private typeReferences(node: Node | null, kind: ReferenceKind): void {
    if (!node) return;
    const types: NameRef[] = [];
    this.collectTypes(node, types);
    for (const type of types) this.emit(kind, type, node);
  }

  private walk(node: Node): void {
    switch (node.type) {
      case 'call_expression':
        this.call(node);
        return;
      case 'type_conversion_expression':
        this.conversion(node);
        return;
      case 'selector_expression':
        this.selector(node);
        return;
      case 'composite_literal': {
        const typeNode = node.childForFieldName('type');
        const type = this.namedType(typeNode);
        if (type) this.emit('new', type, node);
        else this.typeReferences(typeNode, 'type');
        const body = node.childForFieldName('body');
        if (body) this.walk(body);
        return;
      }
      case 'keyed_element': {
        const key = node.childForFieldName('key') ?? node.namedChild(0);
        const value = node.childForFieldName('value') ?? node.namedChild(1);
        const keyId = key?.type === 'literal_element' ? key.namedChild(0) : key;
        if (key && keyId?.type !== 'identifier' && keyId?.type !== 'field_identifier') this.walk(key);
        if (value) this.walk(value);
        return;
      }
      case 'identifier': {
        const name = this.text(node);
        if (name === '_' || this.env.isBound(name) || this.importAliases.has(name) || BUILTIN_FUNCS.has(name)) return;
        if (BUILTIN_TYPES.has(name)) return;
        this.emit('value', ref(name), node, undefined, true);
        return;
      }
      case 'type_identifier':
      case 'qualified_type':
      case 'generic_type':
      case 'pointer_type':
      case 'slice_type':
      case 'array_type':
      case 'map_type':
      case 'channel_type':
      case 'function_type':
        this.typeReferences(node, 'type');
        return;
      case 'type_assertion_expression': {
        const operand = node.childForFieldName('operand');
        if (operand) this.walk(operand);
        this.typeReferences(node.childForFieldName('type'), 'type');
        return;
      }
      case 'short_var_declaration':
      case 'receive_statement':
        this.shortVar(node);
        return;
      case 'var_declaration':
      case 'const_declaration':
        for (const spec of this.valueSpecs(node)) {
          if (spec.type === 'comment') continue;
          const typeNode = spec.childForFieldName('type');
          this.typeReferences(typeNode, 'type');
          const valueList = spec.childForFieldName('value');
          if (valueList) this.walk(valueList);
          const declared = this.namedType(typeNode);
          const values = valueList?.namedChildren ?? [];
          spec.childrenForFieldName('name').forEach((name, i) => {
            if (isNamedNode(name)) this.env.bind(this.text(name), declared ?? this.env.typeOf(values[i] ?? null));
          });
        }
        return;
      case 'range_clause': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (right) this.walk(right);
        if (!left) return;
        const declares = right !== null && this.source.slice(left.endIndex, right.startIndex).includes(':=');
        if (!declares) {
          this.walk(left);
          return;
        }
        for (const id of left.namedChildren) if (id?.type === 'identifier') this.env.bind(this.text(id), null);
        return;
      }
      case 'type_switch_statement':
        this.typeSwitch(node);
        return;
      case 'func_literal': {
        const mark = this.env.mark();
        this.bindParameters(node.childForFieldName('parameters'), true);
        this.bindParameters(node.childForFieldName('result'), true);
        const body = node.childForFieldName('body');
        if (body) this.walk(body);
        this.env.restore(mark);
        return;
      }
      case 'block':
      case 'if_statement':
      case 'for_statement':
      case 'expression_switch_statement':
      case 'select_statement':
      case 'communication_case':
      case 'expression_case':
      case 'default_case': {
        const mark = this.env.mark();
        this.walkChildren(node);
        this.env.restore(mark);
        return;
      }
      case 'comment':
      case 'label_name':
      case 'field_identifier':
      case 'package_identifier':
      case 'interpreted_string_literal':
      case 'raw_string_literal':
      case 'rune_literal':
      case 'int_literal':
      case 'float_literal':
      case 'imaginary_literal':
      case 'true':
      case 'false':
      case 'nil':
      case 'iota':
        return;
      default:
        this.walkChildren(node);
    }
  }

  private walkChildren(node: Node): void {
    for (const child of node.namedChildren) if (child) this.walk(child);
  }

  private shortVar(node: Node): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (right) this.walk(right);
    if (!left) return;
    const isDeclaration = node.type === 'short_var_declaration' || (right !== null && this.source.slice(left.endIndex, right.startIndex).includes(':='));
    if (!isDeclaration) {
      this.walk(left);
      return;
    }
    const names = left.namedChildren.filter(isNamedNode);
    const values = right?.type === 'expression_list' ? right.namedChildren.filter(isNamedNode) : right ? [right] : [];
    if (values.length === 1 && names.length > 1 && values[0]?.type === 'call_expression') {
      const results = this.callResults(values[0]);
      names.forEach((n, i) => n.type === 'identifier' && this.env.bind(this.text(n), results[i]));
      return;
    }
    if (values.length === 1 && names.length === 2 && values[0]?.type === 'type_assertion_expression') {
      const [value, ok] = names;
      if (value?.type === 'identifier') this.env.bind(this.text(value), this.env.typeOf(values[0]));
      if (ok?.type === 'identifier') this.env.bind(this.text(ok), null);
      return;
    }
    names.forEach((n, i) => n.type === 'identifier' && this.env.bind(this.text(n), values.length === names.length ? this.env.typeOf(values[i] ?? null) : null));
  }

  private typeSwitch(node: Node): void {
    const mark = this.env.mark();
    const initializer = node.childForFieldName('initializer');
    if (initializer) this.walk(initializer);
    const value = node.childForFieldName('value');
    if (value) this.walk(value);
    const aliasList = node.childForFieldName('alias');
    const aliasNode = aliasList?.namedChildren.find(isNamedNode);
    const alias = aliasNode ? this.text(aliasNode) : undefined;
    for (const clause of node.namedChildren) {
      if (clause?.type !== 'type_case' && clause?.type !== 'default_case') continue;
      const caseMark = this.env.mark();
      const types = clause.type === 'type_case' ? clause.childrenForFieldName('type').filter(isNamedNode) : [];
      for (const t of types) this.typeReferences(t, 'type');
      if (alias) this.env.bind(alias, types.length === 1 ? this.namedType(types[0] ?? null) : null);
      for (const child of clause.namedChildren) {
        if (child && !types.some((t) => t.id === child.id)) this.walk(child);
      }
      this.env.restore(caseMark);
    }
    this.env.restore(mark);
  }

  private call(node: Node): void {
    const fn = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    if (fn) {
      switch (fn.type) {
        case 'identifier':
          this.bareCall(fn, args, node);
          return;
        case 'selector_expression': {
          const operand = fn.childForFieldName('operand');
          const field = fn.childForFieldName('field');
          if (operand && field) {
            const name = this.text(field);
            if (operand.type === 'identifier' && this.isPackage(this.text(operand))) {
              this.emit('call', ref(name, [this.text(operand)]), node);
            } else {
              const { segments, head } = receiverChain(operand, this.source, GO_RECEIVERS, (expression, renderInner) => this.renderOwnHead(expression, renderInner));
              const receiverType = this.env.typeOf(head);
              // `err.Error()` on a value of unknown type is the error interface, not a repo method.
              if (receiverType || name !== 'Error') this.emit('call', ref(name, segments), node, receiverType);
              this.walk(operand);
            }
          }
          break;
        }
        case 'parenthesized_expression': {
          // `(*T)(x)` converts; anything else in parentheses is an expression to walk.
          const inner = fn.namedChildren.find(isNamedNode);
          const operand = inner?.type === 'unary_expression' ? inner.childForFieldName('operand') : null;
          if (operand?.type === 'identifier') this.emit('type', ref(this.text(operand)), fn);
          else if (operand?.type === 'selector_expression') {
            const pkg = operand.childForFieldName('operand');
            const field = operand.childForFieldName('field');
            if (pkg && field) this.emit('type', ref(this.text(field), [this.text(pkg)]), fn);
          } else this.walk(fn);
          break;
        }
        default:
          this.walk(fn);
      }
    }
    if (args) this.walk(args);
  }

  private bareCall(fn: Node, args: Node | null, call: Node): void {
    const name = this.text(fn);
    const declaredHere = this.results.has(name);
    if (this.env.isBound(name)) {
      // A call through a func-typed local: nothing to point at.
    } else if (!declaredHere && name === 'panic') {
      const arg = args?.namedChildren.find(isNamedNode);
      const raised = arg ? this.raisedType(arg) : undefined;
      if (raised && arg) {
        this.emit('raise', raised, call);
        // The raise stands for the construction too: walk only what the literal contains.
        const literal = arg.type === 'unary_expression' ? arg.childForFieldName('operand') : arg;
        if (literal?.type === 'composite_literal') {
          const body = literal.childForFieldName('body');
          if (body) this.walk(body);
          return;
        }
      }
    } else if (!declaredHere && name === 'new') {
      const arg = args?.namedChildren.find(isNamedNode);
      const type = arg ? this.namedType(arg) : undefined;
      if (type) this.emit('new', type, call);
      return;
    } else if (!declaredHere && (BUILTIN_FUNCS.has(name) || BUILTIN_TYPES.has(name))) {
      // Builtins and conversions to builtin types.
    } else if (!declaredHere && this.isTypeName(name)) {
      this.emit('type', ref(name), call);
    } else {
      this.emit('call', ref(name), call);
    }
    if (args) this.walk(args);
  }

  private isTypeName(name: string): boolean {
    return this.typeNames.has(name);
  }

  /** `panic(MyErr{})`, `panic(&MyErr{})`, `panic(MyErr("x"))` raise `MyErr`; errors.New/fmt.Errorf do not. */
  private raisedType(arg: Node): NameRef | undefined {
    let node: Node | null = arg;
    if (node.type === 'unary_expression') node = node.childForFieldName('operand');
    if (node?.type === 'composite_literal') return this.namedType(node.childForFieldName('type'));
    if (node?.type === 'call_expression') {
      const fn = node.childForFieldName('function');
      if (fn?.type === 'identifier' && this.isTypeName(this.text(fn))) return ref(this.text(fn));
    }
    return undefined;
  }

  private conversion(node: Node): void {
    const typeNode = node.childForFieldName('type');
    const operand = node.childForFieldName('operand');
    // `F[int](x)` parses as a conversion to a generic type; a generic function call is likelier
    // unless the name is a type of this file.
    if (typeNode?.type === 'generic_type') {
      const base = typeNode.childForFieldName('type');
      const target = this.namedType(base);
      if (target && base) {
        const pkg = target.qualifier[0];
        if (target.qualifier.length === 0 && this.isTypeName(target.name)) {
          this.emit('type', target, node);
        } else if (pkg !== undefined && this.env.isBound(pkg)) {
          this.emit('call', target, node, this.env.boundType(pkg) ?? undefined);
        } else {
          this.emit('call', target, node);
        }
      }
      const typeArgs = typeNode.childForFieldName('type_arguments');
      if (typeArgs) this.typeReferences(typeArgs, 'type');
    } else {
      this.typeReferences(typeNode, 'type');
    }
    if (operand) this.walk(operand);
  }

  private selector(node: Node): void {
    const operand = node.childForFieldName('operand');
    const field = node.childForFieldName('field');
    if (!operand || !field) return;
    if (operand.type === 'identifier') {
      const base = this.text(operand);
      if (this.recvName !== undefined && base === this.recvName && this.env.boundType(base) === this.recvType) {
        const name = this.text(field);
        if (!NOISE_FIELDS.has(name.toLowerCase())) this.emit('field', ref(name, [base]), node, this.recvType, true);
        return;
      }
      if (this.isPackage(base)) {
        this.emit('value', ref(this.text(field), [base]), node, undefined, true);
        return;
      }
    }
    this.walk(operand);
  }

  /** Receiver heads only Go has: `x.(T)`, `T{}`. */
  private renderOwnHead(node: Node, renderInner: (inner: Node | null) => string): string | undefined {
    switch (node.type) {
      case 'type_assertion_expression': {
        const type = this.namedType(node.childForFieldName('type'));
        return `${renderInner(node.childForFieldName('operand'))}.(${type ? type.name : '?'})`;
      }
      case 'composite_literal': {
        const type = this.namedType(node.childForFieldName('type'));
        return `${type ? type.name : ''}{}`;
      }
      default:
        return undefined;
    }
  }

  private callResults(call: Node): (NameRef | undefined)[] {
    const fn = call.childForFieldName('function');
    if (!fn) return [];
    if (fn.type === 'identifier') {
      const name = this.text(fn);
      if (this.env.isBound(name)) return [];
      const results = this.results.get(name);
      if (results) return results;
      if (name === 'new') return [this.namedType(call.childForFieldName('arguments')?.namedChildren.find(isNamedNode) ?? null)];
      if (this.isTypeName(name)) return [ref(name)];
      const constructed = constructorResult(name);
      return constructed ? [ref(constructed)] : [];
    }
    if (fn.type === 'selector_expression') {
      const operand = fn.childForFieldName('operand');
      const field = fn.childForFieldName('field');
      if (!operand || !field) return [];
      if (operand.type === 'identifier' && this.isPackage(this.text(operand))) {
        const constructed = constructorResult(this.text(field));
        return constructed ? [ref(constructed, [this.text(operand)])] : [];
      }
      const receiver = this.env.typeOf(operand);
      if (!receiver || receiver.qualifier.length > 0) return [];
      return this.results.get(`${receiver.name}.${this.text(field)}`) ?? [];
    }
    if (fn.type === 'parenthesized_expression') {
      const inner = fn.namedChildren.find(isNamedNode);
      const operand = inner?.type === 'unary_expression' ? inner.childForFieldName('operand') : null;
      if (operand?.type === 'identifier') return [ref(this.text(operand))];
    }
    return [];
  }

  /** The static type of an expression, when this file says what it is (ask `env.typeOf`: it memoises). */
  private computeType(node: Node): NameRef | undefined {
    switch (node.type) {
      case 'identifier': {
        const name = this.text(node);
        const local = this.env.boundType(name);
        if (local !== undefined) return local ?? undefined;
        return this.globals.get(name);
      }
      case 'selector_expression': {
        const operand = node.childForFieldName('operand');
        const field = node.childForFieldName('field');
        if (!operand || !field) return undefined;
        if (operand.type === 'identifier' && this.isPackage(this.text(operand))) return undefined;
        const base = this.env.typeOf(operand);
        return base && base.qualifier.length === 0 ? this.fieldType(base.name, this.text(field), 0) : undefined;
      }
      case 'call_expression':
        return this.callResults(node)[0];
      case 'composite_literal':
        return this.namedType(node.childForFieldName('type'));
      case 'unary_expression': {
        const operator = node.childForFieldName('operator');
        if (operator && this.text(operator) !== '&' && this.text(operator) !== '*') return undefined;
        return this.env.typeOf(node.childForFieldName('operand'));
      }
      case 'parenthesized_expression':
        return this.env.typeOf(node.namedChildren.find(isNamedNode) ?? null);
      case 'type_assertion_expression':
        return this.namedType(node.childForFieldName('type'));
      case 'type_conversion_expression':
        return this.namedType(node.childForFieldName('type'));
      default:
        return undefined;
    }
  }

  /** A same-file struct's field type, looking through embedded structs (promoted fields). */
  private fieldType(typeName: string, field: string, depth: number): NameRef | undefined {
    const info = this.types.get(typeName);
    if (!info || depth > 3) return undefined;
    if (info.fields.has(field)) return info.fields.get(field);
    for (const embedded of info.embedded) {
      if (embedded === field) return ref(embedded);
      const found = this.fieldType(embedded, field, depth + 1);
      if (found) return found;
    }
    return undefined;
  }

  private text(node: Node): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }
}

/** Collects the comment lines directly above a declaration (no blank line, not trailing code). */
/** The nodes of `nodes` but comments, each with its type and the doc comment right above it. */
function* documented(source: string, nodes: Iterable<Node | null>): Generator<[node: Node, type: string, doc: string]> {
  const docs = new DocCollector(source);
  for (const node of nodes) {
    if (!node) continue;
    const type = node.type;
    if (type === 'comment') {
      docs.comment(node);
      continue;
    }
    const doc = docs.take(node.startPosition.row);
    docs.after(node);
    yield [node, type, doc];
  }
}

class DocCollector {
  private lines: string[] = [];
  private endRow = -2;
  private lastCodeRow = -2;

  constructor(private readonly source: string) {}

  comment(node: Node): void {
    const row = node.startPosition.row;
    if (row === this.lastCodeRow) return;
    if (row !== this.endRow + 1) this.lines = [];
    const text = this.source.slice(node.startIndex, node.endIndex);
    if (text.startsWith('//')) {
      if (!DIRECTIVE.test(text)) this.lines.push(text.slice(2).replace(/^ /, ''));
    } else {
      for (const line of text.slice(2, -2).split('\n')) this.lines.push(line.replace(/^\s*\*? ?/, '').trimEnd());
    }
    this.endRow = node.endPosition.row;
  }

  take(row: number): string {
    const doc = this.endRow === row - 1 ? this.lines.join('\n').trim() : '';
    this.lines = [];
    this.endRow = -2;
    return doc.length > MAX_DOC_CHARS ? doc.slice(0, MAX_DOC_CHARS) : doc;
  }

  after(node: Node): void {
    this.lastCodeRow = node.endPosition.row;
  }
}

function isGoTestFile(path: string): boolean {
  return path.endsWith('_test.go');
}

/**
 * Go support: functions, methods, structs, interfaces, named types, package-level consts and
 * vars, with receiver-typed method calls and module-aware import resolution.
 *
 * @example
 * ```ts
 * const parser = await createParser(goLanguage.grammarFor('store.go'));
 * const extraction = withTree(parser, source, (tree) => goLanguage.extract(tree.rootNode, source, 'store.go'));
 * ```
 */
export const goLanguage: LanguageModule = {
  id: 'go',
  version: '2',
  extensions: ['.go'],
  grammarFor: () => 'go',
  isTestFile: isGoTestFile,
  selfNames: [],
  superNames: [],
  extract(root: Node, source: string, path: string): FileExtraction {
    const extractor = new GoExtractor(source, isGoTestFile(path), root);
    const { symbols, references, imports } = extractor.run(root);
    return { path, language: 'go', symbols, references, imports, namespace: '', syntaxErrors: countSyntaxErrors(root) };
  },
  resolveImport(decl: ImportDecl, _fromFile: string, project: ProjectLayout): ResolvedImport {
    const source = decl.source;
    const goFiles = (files: readonly string[]): string[] =>
      files.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
    const module = project.goModulePath;
    if (module && (source === module || source.startsWith(`${module}/`))) {
      return { files: goFiles(project.filesInDirectory(source.slice(module.length + 1))) };
    }
    const inNamespace = goFiles(project.filesInNamespace(source));
    if (inNamespace.length > 0) return { files: inNamespace };
    return { files: [], external: externalPackageOf(source) };
  },
};
