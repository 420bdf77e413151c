/**
 * Expressions for the script extractor: calls, constructions and throws, member reads and
 * identifier uses, `this.x = …` fields of constructors, JSX elements, `instanceof`, and the
 * locals `catch` and `for … in` bind. Callee chains are flattened into the segments the core
 * resolves, with the type of their head as the receiver. Not part of the language-module
 * contract.
 */
import type { Node } from 'web-tree-sitter';
import { moduleLoad } from './script-modules.js';
import { EMPTY } from './script-syntax.js';
import { declareLocal, lookupLocal } from './script-walk.js';
import type { ClassInfo, Frame, PendingField, ScriptWalk } from './script-walk.js';
import type { NameRef, ReferenceKind } from './types.js';

interface Flattened {
  readonly segments: string[];
  /** Sub-expressions the flattening could not name (call arguments, subscripts); the walk visits them. */
  readonly pending: Node[];
}

export function useIdentifier(walk: ScriptWalk, node: Node, f: Frame): void {
  const name = walk.syntax.text(node);
  const local = lookupLocal(name, f);
  if (local && !local.moduleLevel) return;
  walk.references.addValueUse(name, EMPTY, f.def, node.startPosition.row + 1);
}

/**
 * Name the parts of a callee chain: identifiers and `this`/`super`, and `?` for an
 * expression root (a call result, a subscript, a parenthesised expression) — the same
 * convention as the other language modules, so `a.b().c()` is `c` on `?`. Unnamed
 * sub-expressions are collected in `pending` so the walk still visits them.
 */
function flatten(walk: ScriptWalk, node: Node, out: Flattened): void {
  switch (node.type) {
    case 'identifier':
    case 'property_identifier':
    case 'private_property_identifier':
      out.segments.push(walk.syntax.text(node));
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
      if (object) flatten(walk, object, out);
      out.segments.push(property ? walk.syntax.text(property) : '?');
      return;
    }
    case 'non_null_expression':
      if (node.firstNamedChild) flatten(walk, node.firstNamedChild, out);
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
function receiverType(walk: ScriptWalk, flat: Flattened, f: Frame): NameRef | undefined {
  const head = flat.segments[0];
  if (head === undefined || head === 'this' || head === 'super') return undefined;
  // An expression root is visited first, so it is the first pending node: `new Foo().m()`, `(x as Foo).m()`.
  if (head === '?') return walk.types.initialiserType(flat.pending[0] ?? null, f);
  return lookupLocal(head, f)?.type ?? undefined;
}

/** Emit the `this.x` field reference of a chain rooted at `this`. */
function thisFieldReference(walk: ScriptWalk, segments: readonly string[], f: Frame, line: number): void {
  const field = segments[1];
  if (segments[0] !== 'this' || field === undefined || field.endsWith(')') || field.endsWith(']') || field === '?') return;
  walk.references.add(field, ['this'], 'field', f.def, line, undefined);
}

export function onCall(walk: ScriptWalk, node: Node, f: Frame, skipArgument?: Node): void {
  // Named children: the callee, optional type arguments, the arguments (or a template).
  const children = node.namedChildren;
  const fn = children[0] ?? null;
  const args = children.length > 1 ? children[children.length - 1] ?? null : null;
  const line = node.startPosition.row + 1;
  if (fn) {
    switch (fn.type) {
      case 'import': {
        const load = moduleLoad(walk.syntax, node, true);
        if (load) walk.modules.addImport({ source: load.source, names: [], line });
        else if (args) walk.visitChildren(args, f);
        return;
      }
      case 'identifier': {
        const name = walk.syntax.text(fn);
        if (name === 'require') {
          const load = moduleLoad(walk.syntax, node);
          if (load) {
            walk.modules.addImport({ source: load.source, names: [], line });
            return;
          }
        }
        walk.references.addCall(name, EMPTY, 'call', f, line, undefined);
        break;
      }
      case 'super':
        walk.references.add('constructor', ['super'], 'call', f.def, line, undefined);
        break;
      case 'member_expression': {
        const flat: Flattened = { segments: [], pending: [] };
        flatten(walk, fn, flat);
        const name = flat.segments.pop()!;
        walk.references.addCall(name, flat.segments, 'call', f, line, receiverType(walk, flat, f));
        thisFieldReference(walk, flat.segments, f, line);
        for (const pending of flat.pending) walk.visit(pending, f);
        break;
      }
      default:
        walk.visit(fn, f);
    }
  }
  if (children.length > 2) {
    for (let i = 1; i < children.length - 1; i++) {
      const child = children[i];
      if (child?.type === 'type_arguments') walk.typeReferences(child, f);
    }
  }
  if (!args) return;
  for (const arg of args.namedChildren) {
    if (!arg) continue;
    if (skipArgument && arg.startIndex <= skipArgument.startIndex && skipArgument.endIndex <= arg.endIndex) {
      // The wrapped definition is walked by its own symbol; a wrapper around it (`memo(forwardRef(fn))`) still is a call.
      if (arg.startIndex === skipArgument.startIndex && arg.type === skipArgument.type) continue;
      if (arg.type === 'call_expression') {
        onCall(walk, arg, f, skipArgument);
        continue;
      }
    }
    walk.visit(arg, f);
  }
}

export function onNew(walk: ScriptWalk, node: Node, f: Frame, kind: ReferenceKind): void {
  const children = node.namedChildren;
  const line = node.startPosition.row + 1;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (!child) continue;
    const type = child.type;
    if (i === 0) {
      const ref = type === 'identifier' || type === 'member_expression' ? walk.syntax.nameRef(child) : undefined;
      if (!ref) walk.visit(child, f);
      else if (kind === 'raise') walk.references.add(ref.name, ref.qualifier, kind, f.def, line, undefined);
      else walk.references.addCall(ref.name, ref.qualifier, kind, f, line, undefined);
    } else if (type === 'type_arguments') {
      walk.typeReferences(child, f);
    } else if (type === 'arguments') {
      walk.visitChildren(child, f);
    }
  }
}

export function onThrow(walk: ScriptWalk, node: Node, f: Frame): void {
  let thrown = node.firstNamedChild;
  while (thrown?.type === 'parenthesized_expression') thrown = thrown.firstNamedChild;
  if (thrown?.type === 'new_expression') onNew(walk, thrown, f, 'raise');
  else if (thrown) walk.visit(thrown, f);
}

/** A member read outside call position: `this.x` → field; `config.port` → value use of `config`. */
export function onMember(walk: ScriptWalk, node: Node, f: Frame): void {
  const flat: Flattened = { segments: [], pending: [] };
  flatten(walk, node, flat);
  const line = node.startPosition.row + 1;
  const root = flat.segments[0];
  if (root === 'this') {
    thisFieldReference(walk, flat.segments, f, line);
  } else if (root !== undefined && root !== 'super' && root !== '?' && !root.endsWith(')') && !root.endsWith(']')) {
    const local = lookupLocal(root, f);
    if (!local || local.moduleLevel) {
      // `ns.X`, `Role.Admin`, `Config.DEFAULT`: the member itself; `config.port`: the object.
      const second = flat.segments[1];
      const first = root.charCodeAt(0);
      const member =
        second !== undefined && second !== '?' && second !== 'prototype' && (walk.modules.moduleAliases.has(root) || (first >= 65 && first <= 90));
      if (member) walk.references.addValueUse(second, [root], f.def, line);
      else walk.references.addValueUse(root, EMPTY, f.def, line);
    }
  }
  for (const pending of flat.pending) walk.visit(pending, f);
}

export function onAssignment(walk: ScriptWalk, node: Node, f: Frame): void {
  const [left = null, right = null] = node.namedChildren;
  // `this.store = new Store()` in a constructor declares the field `store` (JavaScript's way).
  const cls = f.cls;
  if (cls && f.def === cls.ctorIndex && f.thisType && right && left?.type === 'member_expression') {
    const parts = left.namedChildren;
    const object = parts[0];
    const property = parts.length > 1 ? parts[parts.length - 1] : undefined;
    if (object?.type === 'this' && property) {
      const name = walk.syntax.text(property);
      if (!cls.declared.has(name)) {
        cls.declared.add(name);
        declareAssignedField(walk, cls, name, node, right, f);
      }
    }
  }
  if (left) walk.visit(left, f);
  if (right) walk.visit(right, f);
}

function declareAssignedField(walk: ScriptWalk, cls: ClassInfo, name: string, assignment: Node, value: Node, f: Frame): void {
  const field: PendingField = {
    name,
    startLine: assignment.startPosition.row + 1,
    endLine: assignment.endPosition.row + 1,
    signature: walk.syntax.wholeSignature(assignment.startIndex, assignment),
    valueType: walk.types.initialiserType(value, f),
  };
  if (cls.pending) cls.pending.push(field);
  else walk.symbols.addField(cls, field);
}

export function onJsxElement(walk: ScriptWalk, node: Node, f: Frame): void {
  const children = node.namedChildren;
  const first = children[0];
  const firstType = first?.type;
  const nameNode = firstType === 'identifier' || firstType === 'member_expression' || firstType === 'nested_identifier' || firstType === 'jsx_namespace_name' ? first! : null;
  if (nameNode) {
    const line = node.startPosition.row + 1;
    if (nameNode.type === 'identifier') {
      const name = walk.syntax.text(nameNode);
      // Lower-case tags are intrinsic elements (`div`), not components.
      const first = name.charCodeAt(0);
      if (first >= 65 && first <= 90) walk.references.addCall(name, EMPTY, 'call', f, line, undefined);
    } else if (nameNode.type === 'member_expression') {
      const ref = walk.syntax.nameRef(nameNode);
      if (ref) walk.references.add(ref.name, ref.qualifier, 'call', f.def, line, undefined);
    }
  }
  for (const child of children) {
    if (!child || child === nameNode) continue;
    if (child.type === 'jsx_attribute') {
      for (const part of child.namedChildren) if (part && part.type !== 'property_identifier') walk.visit(part, f);
    } else {
      walk.visit(child, f);
    }
  }
}

export function onBinary(walk: ScriptWalk, node: Node, f: Frame): void {
  const [left, right] = node.namedChildren;
  // The operator is the text between the operands; reading it there costs no extra node.
  if (left && right && walk.syntax.src.slice(left.endIndex, right.startIndex).includes('instanceof')) {
    walk.visit(left, f);
    const type = right.type;
    const ref = type === 'identifier' || type === 'member_expression' ? walk.syntax.nameRef(right) : undefined;
    if (ref) walk.references.add(ref.name, ref.qualifier, 'type', f.def, node.startPosition.row + 1, undefined);
    else walk.visit(right, f);
    return;
  }
  walk.visitChildren(node, f);
}

export function onCatch(walk: ScriptWalk, node: Node, f: Frame): void {
  const parameter = walk.syntax.field(node, 'parameter');
  if (parameter) for (const name of walk.syntax.patternNames(parameter)) declareLocal(f, name, null);
  const type = walk.syntax.field(node, 'type');
  if (type) walk.typeReferences(type, f);
  walk.visitField(node, 'body', f);
}

export function onForIn(walk: ScriptWalk, node: Node, f: Frame): void {
  const [left, right, body] = node.namedChildren;
  if (left) {
    if (left.type === 'identifier' || left.type === 'object_pattern' || left.type === 'array_pattern') {
      for (const name of walk.syntax.patternNames(left)) declareLocal(f, name, null);
    } else {
      walk.visit(left, f);
    }
  }
  if (right) walk.visit(right, f);
  if (body) walk.visit(body, f);
}
