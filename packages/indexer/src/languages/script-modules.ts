/**
 * Imports and exports of one TypeScript/JavaScript file: the import declarations with the
 * local names they bind, names exported under another name or by default (recorded as
 * re-exports from the file itself, the convention the core's resolver relies on), and reading
 * `import` statements, `require` and `import()` calls. Not part of the language-module
 * contract.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolTable } from './script-symbols.js';
import type { ScriptSyntax } from './script-syntax.js';
import type { ScriptWalk } from './script-walk.js';
import type { ImportDecl } from './types.js';

interface ImportBinding {
  readonly source: string;
  /** `default`, a name, or `*` for a namespace import. */
  readonly imported: string;
  /** The declaration that binds it. */
  readonly decl: ImportDecl;
}

export class ModuleTable {
  readonly imports: ImportDecl[] = [];
  private readonly importBindings = new Map<string, ImportBinding>();
  readonly moduleAliases = new Set<string>();
  /** Local names exported under a name, resolved once every declaration is known. */
  readonly localExports: { local: string; exported: string; line: number }[] = [];
  private readonly selfReexports = new Set<string>();
  private readonly selfSource: string;
  private defaultNameCache: string | undefined;

  constructor(private readonly path: string) {
    const slash = path.lastIndexOf('/');
    this.selfSource = './' + path.slice(slash + 1);
  }

  /** Whether an import binds `local`. */
  binds(local: string): boolean {
    return this.importBindings.has(local);
  }

  addImport(decl: ImportDecl): void {
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

  defaultName(): string {
    if (this.defaultNameCache !== undefined) return this.defaultNameCache;
    const parts = this.path.split('/');
    let base = (parts[parts.length - 1] ?? '').replace(/(?:\.d)?\.[cm]?[jt]sx?$/i, '');
    if (base === 'index' && parts.length >= 2) base = parts[parts.length - 2]!;
    this.defaultNameCache = /^[A-Za-z_$][\w$]*$/.test(base) && base !== 'index' ? base : 'default';
    return this.defaultNameCache;
  }

  /** Record that `name` (a file-level symbol) is this module's default export. */
  exportDefaultAs(name: string, line: number): void {
    this.selfReexport(name, 'default', line);
  }

  /** `local` of this file is exported as `exported`: a re-export from the file itself, once per pair. */
  private selfReexport(local: string, exported: string, line: number): void {
    const key = `${local}\u0000${exported}`;
    if (this.selfReexports.has(key)) return;
    this.selfReexports.add(key);
    this.imports.push({ source: this.selfSource, names: [{ imported: local, local: exported }], reexport: true, line });
  }

  /**
   * Resolve `export { a as b }`, `export default a`, `module.exports = { a }`: an imported
   * name becomes a re-export of its source, a local one is marked exported (with a self
   * re-export when it is exported under another name).
   */
  resolveLocalExports(symbols: SymbolTable): void {
    // Re-exports of imported names under the same name go right before the import they
    // re-export: a local name is bound by its first declaration, and this one says more.
    const before = new Map<ImportDecl, ImportDecl[]>();
    for (const { local, exported, line } of this.localExports) {
      const binding = this.importBindings.get(local);
      const index = symbols.topLevel.get(local);
      if (index !== undefined) {
        symbols.defs[index]!.exported = true;
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
  }
}

/** `require('x')`, `require('x').y`, `import('x')`, `await import('x')`: the module specifier, else undefined. */
export function moduleLoad(syntax: ScriptSyntax, value: Node | null, awaited = false): { source: string; member?: string; dynamic?: boolean } | undefined {
  if (!value) return undefined;
  switch (value.type) {
    case 'await_expression':
      return moduleLoad(syntax, value.firstNamedChild, true);
    case 'member_expression': {
      const children = value.namedChildren;
      const inner = moduleLoad(syntax, children[0] ?? null, awaited);
      const property = inner ? children[children.length - 1] : undefined;
      return inner && inner.member === undefined && property ? { ...inner, member: syntax.text(property) } : undefined;
    }
    case 'call_expression': {
      const children = value.namedChildren;
      const fn = children[0];
      const fnType = fn?.type;
      // `import()` yields a promise: only `await import()` binds the module.
      if (!fn || (fnType === 'import' ? !awaited : !(fnType === 'identifier' && syntax.text(fn) === 'require'))) return undefined;
      const args = children[children.length - 1];
      const arg = args?.type === 'arguments' ? args.firstNamedChild : null;
      if (arg?.type !== 'string') return undefined;
      return fnType === 'import' ? { source: syntax.text(arg).slice(1, -1), dynamic: true } : { source: syntax.text(arg).slice(1, -1) };
    }
    default:
      return undefined;
  }
}

/**
 * `const x = require('m')` binds `module.exports`, which is a namespace-like object or a
 * single class/function; which one depends on the other file. By convention a capitalised
 * name is the latter (`const Store = require('./store')` → its default export), anything
 * else a module alias (`const utils = require('./utils'); utils.fmt()`).
 */
function commonJsBinding(source: string, local: string, line: number): ImportDecl {
  const first = local.charCodeAt(0);
  return first >= 65 && first <= 90
    ? { source, names: [{ imported: 'default', local }], line }
    : { source, names: [], moduleAlias: local, line };
}

export function exportSpecifiers(syntax: ScriptSyntax, clause: Node): { imported: string; local: string }[] {
  const out: { imported: string; local: string }[] = [];
  for (const specifier of clause.namedChildren) {
    if (specifier?.type !== 'export_specifier') continue;
    const name = syntax.field(specifier, 'name');
    const alias = syntax.field(specifier, 'alias');
    if (!name) continue;
    const imported = syntax.moduleExportName(name);
    out.push({ imported, local: alias ? syntax.moduleExportName(alias) : imported });
  }
  return out;
}
export function onImport(walk: ScriptWalk, node: Node): void {
  const sourceNode = walk.syntax.field(node, 'source');
  const line = node.startPosition.row + 1;
  const names: { imported: string; local: string }[] = [];
  let moduleAlias: string | undefined;
  let source = sourceNode ? walk.syntax.text(sourceNode).slice(1, -1) : undefined;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'import_clause') {
      for (const part of child.namedChildren) {
        if (!part) continue;
        switch (part.type) {
          case 'identifier':
            names.push({ imported: 'default', local: walk.syntax.text(part) });
            break;
          case 'namespace_import': {
            const alias = part.firstNamedChild;
            if (alias) moduleAlias = walk.syntax.text(alias);
            break;
          }
          case 'named_imports':
            for (const specifier of part.namedChildren) {
              if (specifier?.type !== 'import_specifier') continue;
              const name = walk.syntax.field(specifier, 'name');
              const alias = walk.syntax.field(specifier, 'alias');
              if (!name) continue;
              const imported = walk.syntax.moduleExportName(name);
              names.push({ imported, local: alias ? walk.syntax.text(alias) : imported });
            }
            break;
          default:
            break;
        }
      }
    } else if (child.type === 'import_require_clause') {
      // `import fs = require('fs')`
      const alias = child.firstNamedChild;
      const requireSource = walk.syntax.field(child, 'source');
      if (requireSource && alias?.type === 'identifier') {
        walk.modules.addImport(commonJsBinding(walk.syntax.text(requireSource).slice(1, -1), walk.syntax.text(alias), line));
        return;
      }
    }
  }
  if (source === undefined) return;
  const decl: { -readonly [K in keyof ImportDecl]: ImportDecl[K] } = { source, names, line };
  if (moduleAlias !== undefined) decl.moduleAlias = moduleAlias;
  walk.modules.addImport(decl);
}

/** `const x = require('m')` and friends: an import binding instead of a symbol. Returns false when not a module load. */
export function declareModuleLoad(walk: ScriptWalk, nameNode: Node, value: Node | null, line: number): boolean {
  const load = moduleLoad(walk.syntax, value);
  if (!load) return false;
  if (nameNode.type === 'identifier') {
    const local = walk.syntax.text(nameNode);
    if (load.member !== undefined) walk.modules.addImport({ source: load.source, names: [{ imported: load.member, local }], line });
    else if (load.dynamic) walk.modules.addImport({ source: load.source, names: [], moduleAlias: local, line });
    else walk.modules.addImport(commonJsBinding(load.source, local, line));
    return true;
  }
  if (nameNode.type === 'object_pattern' && load.member === undefined) {
    const names: { imported: string; local: string }[] = [];
    for (const child of nameNode.namedChildren) {
      if (!child) continue;
      if (child.type === 'shorthand_property_identifier_pattern') {
        const name = walk.syntax.text(child);
        names.push({ imported: name, local: name });
      } else if (child.type === 'pair_pattern') {
        const key = walk.syntax.field(child, 'key');
        const value = walk.syntax.field(child, 'value');
        if (key && value?.type === 'identifier') names.push({ imported: walk.syntax.memberName(key) ?? walk.syntax.text(key), local: walk.syntax.text(value) });
      } else if (child.type === 'object_assignment_pattern') {
        const left = walk.syntax.field(child, 'left');
        if (left) names.push({ imported: walk.syntax.text(left), local: walk.syntax.text(left) });
      }
    }
    walk.modules.addImport({ source: load.source, names, line });
    return true;
  }
  walk.modules.addImport({ source: load.source, names: [], line });
  return true;
}
