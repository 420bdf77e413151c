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

export function onExport(x: ScriptWalk, node: Node, f: Frame): void {
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
        source = x.syntax.text(child).slice(1, -1);
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
      x.modules.imports.push({ source, names: [], moduleAlias: alias ? x.syntax.moduleExportName(alias) : '*', reexport: true, line });
    } else if (clause) {
      x.modules.imports.push({ source, names: exportSpecifiers(x.syntax, clause), reexport: true, line });
    } else if (hasStar) {
      x.modules.imports.push({ source, names: [{ imported: '*', local: '*' }], reexport: true, line });
    }
    return;
  }
  if (clause) {
    for (const { imported, local } of exportSpecifiers(x.syntax, clause)) x.modules.localExports.push({ local: imported, exported: local, line });
    return;
  }
  const ctx: DeclContext = { exported: true, isDefault, outer: node, decorators };
  for (const child of rest) {
    if (DECLARATION_NODES.has(child.type)) {
      visitDeclaration(x, child, f, ctx);
      continue;
    }
    if (child.type === 'identifier') {
      // `export default foo;` / `export = Foo;`
      x.modules.localExports.push({ local: x.syntax.text(child), exported: 'default', line });
      continue;
    }
    if (isDefault) onDefaultExpression(x, child, f, ctx);
    else x.visit(child, f);
  }
}

/** `export default <expression>`: a symbol named after the file. */
export function onDefaultExpression(x: ScriptWalk, value: Node, f: Frame, ctx: DeclContext): void {
  const name = x.modules.defaultName();
  const unwrapped = unwrapValue(value) ?? value;
  if (FUNCTION_VALUES.has(unwrapped.type)) {
    const fnName = unwrapped.type === 'arrow_function' ? undefined : x.syntax.field(unwrapped, 'name');
    defineFunctionValue(x, unwrapped, fnName ? x.syntax.text(fnName) : name, f, ctx, undefined, null, 'function');
    return;
  }
  if (unwrapped.type === 'class') {
    onClass(x, unwrapped, f, ctx, undefined);
    return;
  }
  const wrapped = wrappedFunction(x, unwrapped, name);
  if (wrapped) {
    defineFunctionValue(x, wrapped, name, f, ctx, undefined, null, 'function', unwrapped);
    return;
  }
  const wrappedName = wrappedIdentifier(x, unwrapped);
  if (wrappedName !== undefined) {
    // `export default memo(Button)`: the default export is Button.
    x.modules.localExports.push({ local: wrappedName, exported: 'default', line: ctx.outer.startPosition.row + 1 });
    x.visit(unwrapped, f);
    return;
  }
  const index = x.symbols.add(
    {
      name,
      kind: unwrapped.type === 'object' || isLiteral(unwrapped) ? 'constant' : 'variable',
      scope: x.symbols.scopeOf(f),
      startLine: x.syntax.startLineOf(ctx),
      endLine: ctx.outer.endPosition.row + 1,
      signature: x.syntax.wholeSignature(x.syntax.signatureStart(ctx.outer), ctx.outer),
      doc: x.syntax.docFor(ctx.outer),
      parent: f.def,
      exported: true,
      valueType: x.types.initialiserType(unwrapped, f),
    },
    { inheritsExport: false },
  );
  const frame = childFrame(f, index, undefined, undefined);
  if (unwrapped.type === 'object') onObjectMembers(x, unwrapped, frame, index, false);
  else x.visit(value, frame);
  x.modules.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
}

/**
 * Once every declaration is known: ES5 constructor functions that received prototype members
 * become classes (with their constructor's fields), exported names are resolved, and then
 * members take their container's visibility.
 */
export function finishExports(x: ScriptWalk): void {
  x.symbols.promoteConstructorFunctions();
  x.modules.resolveLocalExports(x.symbols);
  x.symbols.inheritExports();
}
