/**
 * `export` statements for the script extractor: exported declarations, `export … from`,
 * export lists, default exports of expressions, and the resolution of exported names once the
 * whole file is known. Not part of the language-module contract.
 */
import type { Node } from 'web-tree-sitter';
import { onClass } from './script-classes.js';
import { DECLARATION_NODES, visitDeclaration } from './script-declarations.js';
import { exportSpecifiers } from './script-modules.js';
import { FUNCTION_VALUES, isLiteral, unwrapValue } from './script-syntax.js';
import { defineFunctionValue, onObjectMembers, wrappedFunction, wrappedIdentifier } from './script-variables.js';
import { childFrame } from './script-walk.js';
import type { DeclContext, Frame, ScriptWalk } from './script-walk.js';

export function onExport(walk: ScriptWalk, node: Node, f: Frame): void {
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
        source = walk.syntax.text(child).slice(1, -1);
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
      walk.modules.imports.push({ source, names: [], moduleAlias: alias ? walk.syntax.moduleExportName(alias) : '*', reexport: true, line });
    } else if (clause) {
      walk.modules.imports.push({ source, names: exportSpecifiers(walk.syntax, clause), reexport: true, line });
    } else if (hasStar) {
      walk.modules.imports.push({ source, names: [{ imported: '*', local: '*' }], reexport: true, line });
    }
    return;
  }
  if (clause) {
    for (const { imported, local } of exportSpecifiers(walk.syntax, clause)) walk.modules.localExports.push({ local: imported, exported: local, line });
    return;
  }
  const ctx: DeclContext = { exported: true, isDefault, outer: node, decorators };
  for (const child of rest) {
    if (DECLARATION_NODES.has(child.type)) {
      visitDeclaration(walk, child, f, ctx);
      continue;
    }
    if (child.type === 'identifier') {
      // `export default foo;` / `export = Foo;`
      walk.modules.localExports.push({ local: walk.syntax.text(child), exported: 'default', line });
      continue;
    }
    if (isDefault) onDefaultExpression(walk, child, f, ctx);
    else walk.visit(child, f);
  }
}

/** `export default <expression>`: a symbol named after the file. */
export function onDefaultExpression(walk: ScriptWalk, value: Node, f: Frame, ctx: DeclContext): void {
  const name = walk.modules.defaultName();
  const unwrapped = unwrapValue(value) ?? value;
  if (FUNCTION_VALUES.has(unwrapped.type)) {
    const fnName = unwrapped.type === 'arrow_function' ? undefined : walk.syntax.field(unwrapped, 'name');
    defineFunctionValue(walk, unwrapped, fnName ? walk.syntax.text(fnName) : name, f, ctx, undefined, null, 'function');
    return;
  }
  if (unwrapped.type === 'class') {
    onClass(walk, unwrapped, f, ctx, undefined);
    return;
  }
  const wrapped = wrappedFunction(walk, unwrapped, name);
  if (wrapped) {
    defineFunctionValue(walk, wrapped, name, f, ctx, undefined, null, 'function', unwrapped);
    return;
  }
  const wrappedName = wrappedIdentifier(walk, unwrapped);
  if (wrappedName !== undefined) {
    // `export default memo(Button)`: the default export is Button.
    walk.modules.localExports.push({ local: wrappedName, exported: 'default', line: ctx.outer.startPosition.row + 1 });
    walk.visit(unwrapped, f);
    return;
  }
  const index = walk.symbols.add(
    {
      name,
      kind: unwrapped.type === 'object' || isLiteral(unwrapped) ? 'constant' : 'variable',
      scope: walk.symbols.scopeOf(f),
      startLine: walk.syntax.startLineOf(ctx),
      endLine: ctx.outer.endPosition.row + 1,
      signature: walk.syntax.wholeSignature(walk.syntax.signatureStart(ctx.outer), ctx.outer),
      doc: walk.syntax.docFor(ctx.outer),
      parent: f.def,
      exported: true,
      valueType: walk.types.initialiserType(unwrapped, f),
    },
    { inheritsExport: false },
  );
  const frame = childFrame(f, index, undefined, undefined);
  if (unwrapped.type === 'object') onObjectMembers(walk, unwrapped, frame, index, false);
  else walk.visit(value, frame);
  walk.modules.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
}

/**
 * Once every declaration is known: ES5 constructor functions that received prototype members
 * become classes (with their constructor's fields), exported names are resolved, and then
 * members take their container's visibility.
 */
export function finishExports(walk: ScriptWalk): void {
  walk.symbols.promoteConstructorFunctions();
  walk.modules.resolveLocalExports(walk.symbols);
  walk.symbols.inheritExports();
}
