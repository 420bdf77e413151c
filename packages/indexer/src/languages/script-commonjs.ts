/**
 * Definitions JavaScript makes by assignment or call rather than by declaration, for the
 * script extractor: `module.exports`/`exports.x`, ES5 classes (`Foo.prototype.bar = …`,
 * `util.inherits`), functions placed on objects, and properties defined through
 * `Object.defineProperty` and friends. Not part of the language-module contract.
 */
import type { NodeKind } from '@knowing/graph';
import type { Node } from 'web-tree-sitter';
import { onClass } from './script-classes.js';
import { onDefaultExpression } from './script-exports.js';
import { onCall } from './script-expressions.js';
import { moduleLoad } from './script-modules.js';
import { EMPTY, EMPTY_NODES, FUNCTION_VALUES, isLiteral, unwrapValue } from './script-syntax.js';
import { defineFunctionValue, onObjectMembers } from './script-variables.js';
import { childFrame, nodePlace } from './script-walk.js';
import type { DeclContext, Frame, ScriptWalk } from './script-walk.js';
import type { NameRef } from './types.js';

/** Callees that define a property by name: `Object.defineProperty`, `__defineGetter__`, a local `defineGetter` helper. */
const DEFINE_PROPERTY_CALLEE = /define_?(?:getter|setter|property)/i;

export function onExpressionStatement(walk: ScriptWalk, node: Node, f: Frame): void {
  const expression = node.firstNamedChild;
  if (!expression) return;
  if (expression.type === 'assignment_expression' && onDefiningAssignment(walk, expression, f, node)) return;
  if (expression.type === 'call_expression') {
    if (onDefinePropertyCall(walk, expression, f, node)) return;
    onInheritsCall(walk, expression);
  }
  walk.visit(expression, f);
}

/**
 * `module.exports = …`, `exports.x = …`, `Foo.prototype.bar = function`, `Foo.prototype = {…}`,
 * `obj.name = () => …`, and chains of them (`a.b = a.c = function () {}`, `exports =
 * module.exports = fn`), where every target receives the innermost value. Returns false when
 * the assignment defines nothing.
 */
function onDefiningAssignment(walk: ScriptWalk, assignment: Node, f: Frame, statement: Node): boolean {
  const targets: Node[] = [];
  let value: Node | null = assignment;
  while (value?.type === 'assignment_expression') {
    const left = walk.syntax.field(value, 'left');
    if (left) targets.push(left);
    value = unwrapValue(walk.syntax.field(value, 'right'));
  }
  if (!value) return false;
  if (targets.length === 1) return defineByAssignment(walk, targets[0]!, value, f, statement);
  const defined = targets.map((target) => defineByAssignment(walk, target, value, f, statement));
  if (!defined.includes(true)) return false;
  // The targets that define nothing (`exports` in `exports = module.exports = fn`) are still uses.
  targets.forEach((target, i) => {
    if (!defined[i]) walk.visit(target, f);
  });
  return true;
}

/** One target of a defining assignment, `left = value` (`value` already unwrapped). */
function defineByAssignment(walk: ScriptWalk, left: Node, value: Node, f: Frame, statement: Node): boolean {
  if (left.type !== 'member_expression') return false;
  const target = walk.syntax.plainChain(left);
  if (!target || target.length < 2) return false;
  return definePlacedValue(walk, target, value, f, statement);
}

/**
 * `target = value` where `target` is a dotted chain of at least two segments: what an
 * assignment to it defines (see {@link onDefiningAssignment}), also used for
 * `Object.defineProperty(Foo.prototype, 'bar', { value: function () {} })`.
 */
function definePlacedValue(walk: ScriptWalk, target: readonly string[], value: Node, f: Frame, statement: Node): boolean {
  const fileLevel = f.def === -1;
  const line = statement.startPosition.row + 1;
  const ctx: DeclContext = { exported: true, isDefault: false, outer: statement, decorators: EMPTY_NODES };
  const moduleExports = target[0] === 'module' && target[1] === 'exports';
  if (fileLevel && moduleExports && target.length === 2) {
    onModuleExportsAssignment(walk, value, f, ctx, line);
    return true;
  }
  if (fileLevel && ((moduleExports && target.length === 3) || (target[0] === 'exports' && target.length === 2))) {
    const name = target[target.length - 1]!;
    defineExportedValue(walk, name, value, f, ctx, line);
    return true;
  }
  const prototypeAt = target.indexOf('prototype');
  if (prototypeAt === target.length - 1 && prototypeAt > 0 && value.type === 'object') {
    // `Foo.prototype = { a() {}, b: function () {} }`
    const owner = target.slice(0, prototypeAt);
    onPrototypeObject(walk, value, owner, f);
    return true;
  }
  if (prototypeAt === 1 && target.length === 2 && value.type === 'call_expression') {
    // `Foo.prototype = Object.create(Base.prototype)`: ES5 inheritance.
    const [callee, args] = value.namedChildren;
    const base = args?.firstNamedChild ?? null;
    const calleeRef = walk.syntax.nameRef(callee ?? null);
    const baseRef = base?.type === 'member_expression' ? walk.syntax.nameRef(base) : undefined;
    if (calleeRef?.name === 'create' && calleeRef.qualifier[0] === 'Object' && baseRef?.name === 'prototype' && baseRef.qualifier.length > 0) {
      walk.symbols.addInheritance(target[0]!, { name: baseRef.qualifier[baseRef.qualifier.length - 1]!, qualifier: baseRef.qualifier.slice(0, -1) });
    }
  }
  if (!FUNCTION_VALUES.has(value.type)) return false;
  if (prototypeAt > 0 && prototypeAt === target.length - 2) {
    const owner = target.slice(0, prototypeAt);
    definePlacedFunction(walk, value, target[target.length - 1]!, owner, 'method', f, statement, true);
    return true;
  }
  if (fileLevel && target[0] !== 'this' && target[0] !== 'window' && target[0] !== 'globalThis') {
    const owner = target.slice(0, -1);
    const ownerIndex = owner.length === 1 ? walk.symbols.topLevel.get(owner[0]!) : undefined;
    const ownerKind = ownerIndex !== undefined ? walk.symbols.defs[ownerIndex]!.kind : undefined;
    const kind: NodeKind = ownerKind === 'class' || ownerKind === 'function' ? 'method' : 'function';
    definePlacedFunction(walk, value, target[target.length - 1]!, owner, kind, f, statement);
    return true;
  }
  return false;
}

/** `util.inherits(Child, Parent)` / `inherits(Child, Parent)`: ES5 inheritance. */
function onInheritsCall(walk: ScriptWalk, call: Node): void {
  const [callee, args] = call.namedChildren;
  const calleeRef = walk.syntax.nameRef(callee ?? null);
  if (calleeRef?.name !== 'inherits' || args?.type !== 'arguments') return;
  const [child, parent] = args.namedChildren;
  const parentRef = parent ? walk.syntax.nameRef(parent) : undefined;
  if (child?.type === 'identifier' && parentRef) walk.symbols.addInheritance(walk.syntax.text(child), parentRef);
}

/** A function placed on an object from outside (`Foo.prototype.bar = …`, `utils.format = …`). */
function definePlacedFunction(walk: ScriptWalk, value: Node, name: string, owner: string[], kind: NodeKind, f: Frame, statement: Node, viaPrototype = false): void {
  const ownerIndex = owner.length === 1 ? walk.symbols.topLevel.get(owner[0]!) : undefined;
  if (viaPrototype && ownerIndex !== undefined) walk.symbols.prototypeOwners.add(ownerIndex);
  const scope = ownerIndex !== undefined ? walk.symbols.meta[ownerIndex]!.path : owner;
  const thisType = value.type === 'arrow_function' ? f.thisType : { name: owner[owner.length - 1]!, qualifier: owner.slice(0, -1) };
  defineFunctionValue(walk, value, name, f, { exported: false, isDefault: false, outer: statement, decorators: EMPTY_NODES }, statement, null, kind, undefined, {
    scope,
    parent: ownerIndex ?? -1,
    thisType,
    inheritsExport: ownerIndex !== undefined,
  });
}

function onPrototypeObject(walk: ScriptWalk, object: Node, owner: string[], f: Frame): void {
  const ownerIndex = owner.length === 1 ? walk.symbols.topLevel.get(owner[0]!) : undefined;
  if (ownerIndex !== undefined) walk.symbols.prototypeOwners.add(ownerIndex);
  const scope = ownerIndex !== undefined ? walk.symbols.meta[ownerIndex]!.path : owner;
  const thisType: NameRef = { name: owner[owner.length - 1]!, qualifier: owner.slice(0, -1) };
  for (const member of object.namedChildren) {
    if (!member) continue;
    let name: string | undefined;
    let fn: Node | null = null;
    if (member.type === 'method_definition') {
      const key = walk.syntax.field(member, 'name');
      name = key ? walk.syntax.memberName(key) : undefined;
      fn = member;
    } else if (member.type === 'pair') {
      const key = walk.syntax.field(member, 'key');
      name = key ? walk.syntax.memberName(key) : undefined;
      const value = unwrapValue(walk.syntax.field(member, 'value'));
      if (value && FUNCTION_VALUES.has(value.type)) fn = value;
    }
    if (name === undefined || !fn) {
      walk.visit(member, f);
      continue;
    }
    defineFunctionValue(walk, fn, name, f, { exported: false, isDefault: false, outer: member, decorators: EMPTY_NODES }, member, null, 'method', undefined, {
      scope,
      parent: ownerIndex ?? -1,
      thisType: fn.type === 'arrow_function' ? f.thisType : thisType,
      inheritsExport: ownerIndex !== undefined,
    });
  }
}

/** `module.exports = …`: the module's default export (and, for an object, its named exports). */
function onModuleExportsAssignment(walk: ScriptWalk, value: Node, f: Frame, ctx: DeclContext, line: number): void {
  switch (value.type) {
    case 'identifier':
      walk.modules.localExports.push({ local: walk.syntax.text(value), exported: 'default', line });
      return;
    case 'object':
      onObjectMembers(walk, value, f, -1, true);
      return;
    case 'class':
      onClass(walk, value, f, { ...ctx, isDefault: true }, undefined);
      return;
    default:
      break;
  }
  if (FUNCTION_VALUES.has(value.type)) {
    const fnName = value.type === 'arrow_function' ? undefined : walk.syntax.field(value, 'name');
    defineFunctionValue(walk, value, fnName ? walk.syntax.text(fnName) : walk.modules.defaultName(), f, { ...ctx, isDefault: true }, undefined, null, 'function');
    return;
  }
  const load = moduleLoad(walk.syntax, value);
  if (load && load.member === undefined) {
    // `module.exports = require('./impl')`: everything of ./impl is re-exported.
    walk.modules.imports.push({ source: load.source, names: [{ imported: '*', local: '*' }], reexport: true, line });
    return;
  }
  onDefaultExpression(walk, value, f, { ...ctx, isDefault: true });
}

/** `exports.x = …` / `module.exports.x = …`. */
function defineExportedValue(walk: ScriptWalk, name: string, value: Node, f: Frame, ctx: DeclContext, line: number): void {
  if (FUNCTION_VALUES.has(value.type)) {
    defineFunctionValue(walk, value, name, f, ctx, undefined, null, 'function');
    return;
  }
  if (value.type === 'class') {
    onClass(walk, value, f, ctx, name);
    return;
  }
  if (value.type === 'identifier') {
    walk.modules.localExports.push({ local: walk.syntax.text(value), exported: name, line });
    return;
  }
  const load = moduleLoad(walk.syntax, value);
  if (load) {
    // `exports.plugins = require('./plugins')` re-exports the module itself; `require('./x').y` one name of it.
    if (load.member !== undefined) walk.modules.imports.push({ source: load.source, names: [{ imported: load.member, local: name }], reexport: true, line });
    else walk.modules.imports.push({ source: load.source, names: [], moduleAlias: name, reexport: true, line });
    return;
  }
  const index = walk.symbols.add(
    {
      name,
      kind: isLiteral(value) ? 'constant' : 'variable',
      scope: EMPTY,
      startLine: line,
      endLine: ctx.outer.endPosition.row + 1,
      signature: walk.syntax.wholeSignature(ctx.outer.startIndex, ctx.outer),
      doc: walk.syntax.docFor(ctx.outer),
      parent: -1,
      exported: true,
      valueType: walk.types.initialiserType(value, f),
    },
    { inheritsExport: false },
  );
  walk.visit(value, childFrame(f, index, undefined, undefined));
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
function onDefinePropertyCall(walk: ScriptWalk, call: Node, f: Frame, statement: Node): boolean {
  const calleeNode = walk.syntax.field(call, 'function');
  const callee = walk.syntax.nameRef(calleeNode);
  if (!callee) return false;
  const args = walk.syntax.field(call, 'arguments')?.namedChildren.filter((arg): arg is Node => arg !== null && arg.type !== 'comment') ?? [];
  if (callee.name === 'defineProperties' && callee.qualifier.length === 1 && callee.qualifier[0] === 'Object') {
    return onDefineProperties(walk, args, f);
  }
  if (!DEFINE_PROPERTY_CALLEE.test(callee.name)) return false;
  // `target.__defineGetter__('name', fn)`: the target is the callee's object.
  const onReceiver = /^__define[GS]etter__$/.test(callee.name);
  const targetNode = onReceiver ? (calleeNode?.type === 'member_expression' ? calleeNode.firstNamedChild : null) : args[0];
  const [keyNode, definitionNode] = onReceiver ? args : args.slice(1);
  const definition = unwrapValue(definitionNode ?? null);
  if (!targetNode || keyNode?.type !== 'string' || !definition) return false;
  const target = walk.syntax.plainChain(targetNode);
  if (!target) return false;
  const name = walk.syntax.text(keyNode).slice(1, -1);
  if (definition.type === 'object') return defineDescribedProperty(walk, target, name, definition, f, statement);
  if (!FUNCTION_VALUES.has(definition.type)) return false;
  const property = defineCalledProperty(walk, target, name, f, statement, walk.syntax.functionParts(definition).body?.startIndex ?? definition.endIndex);
  if (!property) return false;
  // A local helper (`defineGetter(…)`) is still called; the built-in `__defineGetter__` is not worth an edge.
  if (!onReceiver) onCall(walk, call, f, definition);
  walk.visitFunction(definition, childFrame(f, property.index, property.thisType, undefined), undefined);
  return true;
}

/** `Object.defineProperties(target, { a: { get() {…} }, b: { value: function () {…} } })`. */
function onDefineProperties(walk: ScriptWalk, args: readonly Node[], f: Frame): boolean {
  const [targetNode, descriptors] = args;
  const target = targetNode ? walk.syntax.plainChain(targetNode) : undefined;
  if (!target || descriptors?.type !== 'object') return false;
  let defined = false;
  const rest: Node[] = [];
  for (const member of descriptors.namedChildren) {
    if (!member) continue;
    const key = member.type === 'pair' ? walk.syntax.field(member, 'key') : null;
    const name = key ? walk.syntax.memberName(key) : undefined;
    const descriptor = unwrapValue(walk.syntax.field(member, 'value'));
    // Each property spans (and takes its doc comment from) its own entry.
    if (name !== undefined && descriptor?.type === 'object' && defineDescribedProperty(walk, target, name, descriptor, f, member)) defined = true;
    else rest.push(member);
  }
  if (defined) for (const member of rest) walk.visit(member, f);
  return defined;
}

/** `name` on `target`, described by `descriptor` (`{ get() {…} }`, `{ value: function () {…} }`). */
function defineDescribedProperty(walk: ScriptWalk, target: readonly string[], name: string, descriptor: Node, f: Frame, statement: Node): boolean {
  for (const member of descriptor.namedChildren) {
    if (member?.type !== 'pair' || walk.syntax.text(walk.syntax.field(member, 'key') ?? member) !== 'value') continue;
    const value = unwrapValue(walk.syntax.field(member, 'value'));
    if (value && FUNCTION_VALUES.has(value.type) && definePlacedValue(walk, [...target, name], value, f, statement)) return true;
  }
  const property = defineCalledProperty(walk, target, name, f, statement, descriptor.startIndex);
  if (!property) return false;
  const { index, thisType } = property;
  const frame = childFrame(f, index, thisType, undefined);
  for (const member of descriptor.namedChildren) {
    if (!member) continue;
    if (member.type === 'method_definition') walk.visitFunction(member, childFrame(frame, index, thisType, undefined), undefined);
    else walk.visit(member, frame);
  }
  return true;
}

/**
 * The property symbol for `name` defined on `target` by a call: exported on `exports` and
 * `module.exports`, else a member of the target (of `Foo` for `Foo.prototype`). Undefined for
 * `this` and, inside a function, for targets that are not file-level symbols.
 */
function defineCalledProperty(
  walk: ScriptWalk,
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
    const ownerIndex = owner.length === 1 ? walk.symbols.topLevel.get(owner[0]!) : undefined;
    if (viaPrototype && ownerIndex !== undefined) walk.symbols.prototypeOwners.add(ownerIndex);
    scope = ownerIndex !== undefined ? walk.symbols.meta[ownerIndex]!.path : owner;
    parent = ownerIndex ?? -1;
    inheritsExport = ownerIndex !== undefined;
    thisType = { name: owner[owner.length - 1]!, qualifier: owner.slice(0, -1) };
  }
  if (f.def !== -1 && parent === -1) return undefined;
  const place = nodePlace(walk, statement, scope, parent, exported, walk.syntax.signature(statement.startIndex, signatureEnd));
  const index = walk.symbols.add({ ...place, name, kind: 'property' }, { inheritsExport });
  return { index, thisType };
}
