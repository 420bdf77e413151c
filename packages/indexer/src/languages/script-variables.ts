/**
 * Variables for the script extractor: module-level declarators become symbols (functions and
 * classes held by a name, wrapped components such as `memo(() => …)`, constants and
 * variables, methods of an object literal), local ones typed locals, and `require` bindings
 * imports. Not part of the language-module contract.
 */
import type { NodeKind } from '@knowing/graph';
import type { Node } from 'web-tree-sitter';
import { onClass } from './script-classes.js';
import { onCall } from './script-expressions.js';
import { declareModuleLoad } from './script-modules.js';
import { EMPTY, EMPTY_NODES, FUNCTION_VALUES, isLiteral, unwrapValue } from './script-syntax.js';
import { childFrame, declareLocal, nodePlace, visitDefinition } from './script-walk.js';
import type { DeclContext, Frame, ScriptWalk } from './script-walk.js';
import type { NameRef } from './types.js';

/** Call wrappers whose function argument is the real definition: `const Button = memo((p) => …)`. */
const FUNCTION_WRAPPERS: ReadonlySet<string> = new Set([
  'memo', 'forwardRef', 'observer', 'lazy', 'debounce', 'throttle', 'once', 'memoize', 'curry',
]);

export function onVariables(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const isConst = node.type === 'lexical_declaration' && node.firstChild?.type === 'const';
  let first = true;
  for (const declarator of node.namedChildren) {
    if (declarator?.type !== 'variable_declarator') continue;
    if (f.moduleLevel) onModuleDeclarator(walk, declarator, f, ctx, isConst, first);
    else onLocalDeclarator(walk, declarator, f);
    first = false;
  }
}

function onModuleDeclarator(walk: ScriptWalk, declarator: Node, f: Frame, ctx: DeclContext, isConst: boolean, first: boolean): void {
  const { name: nameNode, type: typeNode, value } = walk.syntax.bindingParts(declarator);
  if (!nameNode) return;
  const line = declarator.startPosition.row + 1;
  if (declareModuleLoad(walk, nameNode, value, line)) return;
  if (nameNode.type !== 'identifier') {
    // Destructuring at module level: each bound name is a variable.
    const place = variablePlace(walk, declarator, f, ctx, first);
    for (const name of walk.syntax.patternNames(nameNode)) walk.symbols.add({ ...place, name, kind: 'variable' }, { inheritsExport: false });
    if (value) walk.visit(value, f);
    return;
  }
  const name = walk.syntax.text(nameNode);
  const declaredType = walk.types.mainType(typeNode, f);
  const unwrapped = unwrapValue(value);
  declareLocal(f, name, declaredType ?? walk.types.initialiserType(value, f) ?? null);
  if (unwrapped && FUNCTION_VALUES.has(unwrapped.type)) {
    defineFunctionValue(walk, unwrapped, name, f, { ...ctx, outer: first ? ctx.outer : declarator }, declarator, typeNode, 'function');
    return;
  }
  if (unwrapped?.type === 'class') {
    onClass(walk, unwrapped, f, { ...ctx, outer: first ? ctx.outer : declarator }, name);
    return;
  }
  const wrapped = unwrapped ? wrappedFunction(walk, unwrapped, name) : undefined;
  if (wrapped) {
    defineFunctionValue(walk, wrapped, name, f, { ...ctx, outer: first ? ctx.outer : declarator }, declarator, typeNode, 'function', unwrapped!);
    return;
  }
  const index = walk.symbols.add(
    {
      ...variablePlace(walk, declarator, f, ctx, first),
      name,
      kind: isConst && isLiteral(unwrapped) ? 'constant' : 'variable',
      typeHints: walk.types.typesOf(typeNode, f),
      valueType: declaredType ?? walk.types.initialiserType(value, f),
    },
    { inheritsExport: false },
  );
  if (!value) return;
  const frame = childFrame(f, index, undefined, undefined);
  if (isConst && unwrapped?.type === 'object') onObjectMembers(walk, unwrapped, frame, index, false);
  else walk.visit(value, frame);
}

/** A module-level variable's symbol but for its name and kind: the first declarator of a statement carries its keyword. */
function variablePlace(walk: ScriptWalk, declarator: Node, f: Frame, ctx: DeclContext, first: boolean) {
  return {
    scope: walk.symbols.scopeOf(f),
    startLine: first ? walk.syntax.startLineOf(ctx) : declarator.startPosition.row + 1,
    endLine: declarator.endPosition.row + 1,
    signature: walk.syntax.wholeSignature(first ? ctx.outer.startIndex : declarator.startIndex, declarator),
    doc: walk.syntax.docFor(ctx.outer),
    parent: f.def,
    exported: ctx.exported,
  };
}

/** `memo((props) => …)`, `forwardRef(function X() {})`: the function a wrapper call defines, if any. */
export function wrappedFunction(walk: ScriptWalk, value: Node, name: string): Node | undefined {
  if (value.type !== 'call_expression') return undefined;
  const children = value.namedChildren;
  const callee = walk.syntax.nameRef(children[0] ?? null);
  if (!callee) return undefined;
  const capitalised = /^[A-Z]/.test(name);
  const wrapper = FUNCTION_WRAPPERS.has(callee.name) || /^with[A-Z]/.test(callee.name);
  if (!capitalised && !wrapper) return undefined;
  const args = children[children.length - 1];
  const first = args?.type === 'arguments' ? args.firstNamedChild : null;
  if (!first) return undefined;
  if (FUNCTION_VALUES.has(first.type)) return first;
  // `memo(forwardRef((p, ref) => …))`
  return first.type === 'call_expression' ? wrappedFunction(walk, first, name) : undefined;
}

/** `memo(Button)`, `withRouter(Page)`: the identifier a wrapper call decorates. */
export function wrappedIdentifier(walk: ScriptWalk, value: Node): string | undefined {
  if (value.type !== 'call_expression') return undefined;
  const children = value.namedChildren;
  const callee = walk.syntax.nameRef(children[0] ?? null);
  if (!callee || !(FUNCTION_WRAPPERS.has(callee.name) || /^with[A-Z]/.test(callee.name))) return undefined;
  const args = children[children.length - 1];
  const first = args?.type === 'arguments' ? args.firstNamedChild : null;
  return first?.type === 'identifier' ? walk.syntax.text(first) : undefined;
}

/**
 * A function held by a variable, property or export (`const f = () => …`,
 * `exports.f = function () {}`). `wrapper` is the call around it, walked for its other arguments.
 */
export function defineFunctionValue(
  walk: ScriptWalk,
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
  const parts = walk.syntax.functionParts(fn);
  const own = walk.types.typeParameterNames(parts.typeParams);
  const sigStart = walk.syntax.signatureStart(ctx.outer);
  const bodyStart = parts.body ? parts.body.startIndex : fn.endIndex;
  const nested = !f.moduleLevel && !placement;
  const index = walk.symbols.add(
    {
      name,
      kind,
      scope: placement ? placement.scope : walk.symbols.scopeOf(f),
      startLine: walk.syntax.startLineOf(ctx),
      endLine: (declarator ?? fn).endPosition.row + 1,
      signature: walk.syntax.signature(sigStart, bodyStart),
      doc: walk.syntax.docFor(ctx.outer),
      parent: placement ? placement.parent : f.def,
      exported: ctx.exported && !nested,
      typeHints: walk.types.typesOf(typeNode, f),
    },
    { inheritsExport: placement?.inheritsExport ?? false },
  );
  const es5 = !placement && !nested && fn.type !== 'arrow_function' ? walk.symbols.constructorCandidate(name, index, f) : undefined;
  const thisType = es5 ? { name, qualifier: EMPTY } : placement ? placement.thisType : fn.type === 'arrow_function' ? f.thisType : undefined;
  const frame = childFrame(f, index, thisType, es5 ?? f.cls, own);
  if (wrapper) onCall(walk, wrapper, frame, fn);
  visitDefinition(walk, fn, frame, index, own);
  if (ctx.isDefault) walk.modules.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
  return index;
}

export function onLocalDeclarator(walk: ScriptWalk, declarator: Node, f: Frame): void {
  const { name: nameNode, type: typeNode, value } = walk.syntax.bindingParts(declarator);
  if (!nameNode) return;
  if (declareModuleLoad(walk, nameNode, value, declarator.startPosition.row + 1)) {
    for (const name of walk.syntax.patternNames(nameNode)) declareLocal(f, name, null);
    return;
  }
  if (nameNode.type === 'identifier') {
    const name = walk.syntax.text(nameNode);
    const unwrapped = unwrapValue(value);
    // Nested definitions are symbols, not locals: calls to them must still be emitted.
    if (!unwrapped || (!FUNCTION_VALUES.has(unwrapped.type) && unwrapped.type !== 'class')) {
      declareLocal(f, name, walk.types.mainType(typeNode, f) ?? walk.types.initialiserType(value, f) ?? null);
    }
    if (unwrapped && FUNCTION_VALUES.has(unwrapped.type)) {
      // A nested definition: `const helper = () => …` inside a function.
      defineFunctionValue(walk, unwrapped, name, f, { exported: false, isDefault: false, outer: declarator.parent ?? declarator, decorators: EMPTY_NODES }, declarator, typeNode, 'function');
      return;
    }
    if (unwrapped?.type === 'class') {
      onClass(walk, unwrapped, f, { exported: false, isDefault: false, outer: declarator.parent ?? declarator, decorators: EMPTY_NODES }, name);
      return;
    }
  } else {
    for (const name of walk.syntax.patternNames(nameNode)) declareLocal(f, name, null);
  }
  if (typeNode) walk.typeReferences(typeNode, f);
  if (value) walk.visit(value, f);
}

/**
 * Function-valued members of an object literal bound to a name (`const api = { get() {} }`,
 * `export default { … }`): methods scoped under the object. Other values are walked.
 */
export function onObjectMembers(walk: ScriptWalk, object: Node, frame: Frame, owner: number, topLevelFunctions: boolean): void {
  const scope = topLevelFunctions ? EMPTY : walk.symbols.meta[owner]!.path;
  const thisType = topLevelFunctions ? undefined : { name: walk.symbols.defs[owner]!.name, qualifier: EMPTY };
  for (const member of object.namedChildren) {
    if (!member) continue;
    if (member.type === 'method_definition') {
      const nameNode = walk.syntax.field(member, 'name');
      const name = nameNode ? walk.syntax.memberName(nameNode) : undefined;
      if (name === undefined) {
        walk.visit(member, frame);
        continue;
      }
      const mods = walk.syntax.modifiers(member, nameNode);
      const parts = walk.syntax.functionParts(member);
      const own = walk.types.typeParameterNames(parts.typeParams);
      const signature = walk.syntax.signature(member.startIndex, parts.body ? parts.body.startIndex : member.endIndex);
      const place = nodePlace(walk, member, scope, topLevelFunctions ? -1 : owner, topLevelFunctions, signature);
      const index = walk.symbols.add({ ...place, name, kind: mods.accessor ? 'property' : topLevelFunctions ? 'function' : 'method' }, { inheritsExport: !topLevelFunctions });
      visitDefinition(walk, member, childFrame(frame, index, thisType, undefined, own), index, own);
      continue;
    }
    if (member.type === 'pair') {
      const key = walk.syntax.field(member, 'key');
      const value = unwrapValue(walk.syntax.field(member, 'value'));
      const name = key ? walk.syntax.memberName(key) : undefined;
      if (name !== undefined && value && FUNCTION_VALUES.has(value.type)) {
        defineFunctionValue(walk, value, name, frame, { exported: topLevelFunctions, isDefault: false, outer: member, decorators: EMPTY_NODES }, member, null, topLevelFunctions ? 'function' : 'method', undefined, {
          scope,
          parent: topLevelFunctions ? -1 : owner,
          thisType: value.type === 'arrow_function' ? undefined : thisType,
          inheritsExport: !topLevelFunctions,
        });
        continue;
      }
      if (topLevelFunctions && name !== undefined && value?.type === 'identifier') {
        walk.modules.localExports.push({ local: walk.syntax.text(value), exported: name, line: member.startPosition.row + 1 });
        continue;
      }
      walk.visit(member, frame);
      continue;
    }
    if (topLevelFunctions && member.type === 'shorthand_property_identifier') {
      const name = walk.syntax.text(member);
      walk.modules.localExports.push({ local: name, exported: name, line: member.startPosition.row + 1 });
      continue;
    }
    walk.visit(member, frame);
  }
}
