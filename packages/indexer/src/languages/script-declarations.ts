/**
 * Declarations other than classes and variables for the script extractor: functions,
 * interfaces and their members, type aliases, enums, namespaces and `declare` blocks, and the
 * dispatch for a declaration under `export` or `declare`. Not part of the language-module
 * contract.
 */
import type { Node } from 'web-tree-sitter';
import { onClass } from './script-classes.js';
import { EMPTY } from './script-syntax.js';
import { onVariables } from './script-variables.js';
import { childFrame, declarationPlace, nodePlace, visitDefinition } from './script-walk.js';
import type { DeclContext, Frame, ScriptWalk } from './script-walk.js';
import type { NameRef, SupertypeRef } from './types.js';

function onFunctionDeclaration(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext, nameOverride?: string): number {
  const nameNode = walk.syntax.field(node, 'name');
  const name = nameOverride ?? (nameNode ? walk.syntax.text(nameNode) : walk.modules.defaultName());
  const parts = walk.syntax.functionParts(node);
  const own = walk.types.typeParameterNames(parts.typeParams);
  const signature = walk.syntax.signature(walk.syntax.signatureStart(ctx.outer), parts.body ? parts.body.startIndex : node.endIndex);
  const index = walk.symbols.add({ ...declarationPlace(walk, node, f, ctx, signature), name, kind: 'function' }, { inheritsExport: false });
  const es5 = parts.body && f.moduleLevel ? walk.symbols.constructorCandidate(name, index, f) : undefined;
  visitDefinition(walk, node, childFrame(f, index, es5 ? { name, qualifier: EMPTY } : undefined, es5, own), index, own);
  if (ctx.isDefault) walk.modules.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
  return index;
}

function onInterface(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): number {
  const nameNode = walk.syntax.field(node, 'name');
  const name = nameNode ? walk.syntax.text(nameNode) : walk.modules.defaultName();
  const own = walk.types.typeParameterNames(walk.syntax.field(node, 'type_parameters'));
  const body = walk.syntax.field(node, 'body');
  const supertypes: SupertypeRef[] = [];
  for (const child of node.namedChildren) {
    if (child?.type !== 'extends_type_clause') continue;
    for (const type of child.namedChildren) {
      const ref = type ? walk.syntax.nameRef(type) : undefined;
      if (ref) supertypes.push({ ...ref, relation: 'extends' });
    }
  }
  const signature = walk.syntax.signature(walk.syntax.signatureStart(ctx.outer), body ? body.startIndex : node.endIndex);
  const index = walk.symbols.add({ ...declarationPlace(walk, node, f, ctx, signature), name, kind: 'interface', supertypes }, { inheritsExport: false });
  const frame = childFrame(f, index, undefined, undefined, own);
  for (const member of body?.namedChildren ?? []) {
    if (!member) continue;
    if (member.type === 'method_signature' || member.type === 'property_signature') onSignatureMember(walk, member, frame, index);
  }
  if (ctx.isDefault) walk.modules.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
  return index;
}

/** Interface members: method signatures → method, property signatures → property. */
function onSignatureMember(walk: ScriptWalk, member: Node, frame: Frame, parent: number): void {
  const nameNode = walk.syntax.field(member, 'name');
  const name = nameNode ? walk.syntax.memberName(nameNode) : undefined;
  if (name === undefined) return;
  const isMethod = member.type === 'method_signature';
  let hints: NameRef[];
  let valueType: NameRef | undefined;
  if (isMethod) {
    const parts = walk.syntax.functionParts(member);
    const own = walk.types.typeParameterNames(parts.typeParams);
    hints = [];
    for (const param of parts.params?.namedChildren ?? []) {
      const type = walk.syntax.field(param, 'type');
      if (type) hints.push(...walk.types.typesOf(type, frame, own));
    }
    hints.push(...walk.types.typesOf(parts.returnType, frame, own));
  } else {
    const type = walk.syntax.field(member, 'type');
    hints = walk.types.typesOf(type, frame);
    valueType = walk.types.mainType(type, frame);
  }
  const place = nodePlace(walk, member, walk.symbols.scopeOf(frame), parent, false, walk.syntax.wholeSignature(member.startIndex, member));
  walk.symbols.add({ ...place, name, kind: isMethod ? 'method' : 'property', typeHints: hints, valueType }, { inheritsExport: true });
}

function onTypeAlias(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const nameNode = walk.syntax.field(node, 'name');
  if (!nameNode) return;
  const own = walk.types.typeParameterNames(walk.syntax.field(node, 'type_parameters'));
  walk.symbols.add(
    {
      ...declarationPlace(walk, node, f, ctx, walk.syntax.wholeSignature(ctx.outer.startIndex, node)),
      name: walk.syntax.text(nameNode),
      kind: 'type_alias',
      typeHints: walk.types.typesOf(walk.syntax.field(node, 'value'), f, own),
    },
    { inheritsExport: false },
  );
}

function onEnum(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const nameNode = walk.syntax.field(node, 'name');
  if (!nameNode) return;
  const body = walk.syntax.field(node, 'body');
  const signature = walk.syntax.signature(ctx.outer.startIndex, body ? body.startIndex : node.endIndex);
  const index = walk.symbols.add({ ...declarationPlace(walk, node, f, ctx, signature), name: walk.syntax.text(nameNode), kind: 'enum' }, { inheritsExport: false });
  const scope = walk.symbols.meta[index]!.path;
  for (const member of body?.namedChildren ?? []) {
    if (!member || member.type === 'comment') continue;
    const memberNameNode = member.type === 'enum_assignment' ? walk.syntax.field(member, 'name') : member;
    const name = memberNameNode ? walk.syntax.memberName(memberNameNode) : undefined;
    if (name === undefined) continue;
    const place = nodePlace(walk, member, scope, index, false, walk.syntax.wholeSignature(member.startIndex, member));
    walk.symbols.add({ ...place, name, kind: 'constant' }, { inheritsExport: true });
  }
}

/** `namespace A.B {}`, `module M {}`, `declare module 'pkg' {}`. */
function onNamespace(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const nameNode = walk.syntax.field(node, 'name');
  const body = walk.syntax.field(node, 'body');
  const names: string[] = [];
  if (nameNode?.type === 'nested_identifier') {
    const ref = walk.syntax.nameRef(nameNode);
    if (ref) names.push(...ref.qualifier, ref.name);
  } else if (nameNode?.type === 'string') {
    names.push(walk.syntax.text(nameNode).slice(1, -1));
  } else if (nameNode) {
    names.push(walk.syntax.text(nameNode));
  }
  if (names.length === 0) return;
  const ambient = f.ambient || node.type === 'module';
  const signature = walk.syntax.signature(ctx.outer.startIndex, body ? body.startIndex : node.endIndex);
  // An ambient module is visible without `export`.
  const moduleCtx = { ...ctx, exported: ctx.exported || ambient };
  let frame = f;
  for (const name of names) {
    const index = walk.symbols.add({ ...declarationPlace(walk, node, frame, moduleCtx, signature), name, kind: 'module' }, { inheritsExport: false });
    frame = { def: index, thisType: undefined, cls: undefined, parent: frame, moduleLevel: true, ambient, locals: undefined, typeParams: undefined };
  }
  if (body) walk.visitChildren(body, frame);
}

/** `declare …`: the declaration inside is visible without `export`. */
function onAmbient(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const ambientFrame: Frame = { ...f, ambient: true };
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'statement_block') {
      // `declare global { … }`: global augmentations live at file level.
      walk.visitChildren(child, ambientFrame);
      continue;
    }
    visitDeclaration(walk, child, ambientFrame, { ...ctx, exported: true });
  }
}

/** The declarations {@link visitDeclaration} dispatches on: what `export` and `declare` can introduce. */
export const DECLARATION_NODES: ReadonlySet<string> = new Set([
  'function_declaration', 'generator_function_declaration', 'function_signature', 'class_declaration',
  'abstract_class_declaration', 'interface_declaration', 'type_alias_declaration', 'enum_declaration', 'internal_module',
  'module', 'lexical_declaration', 'variable_declaration', 'ambient_declaration',
]);

/** A declaration under `export`/`declare`, with its context. */
export function visitDeclaration(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  switch (node.type) {
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature':
      onFunctionDeclaration(walk, node, f, ctx);
      return;
    case 'class_declaration':
    case 'abstract_class_declaration':
      onClass(walk, node, f, ctx, undefined);
      return;
    case 'interface_declaration':
      onInterface(walk, node, f, ctx);
      return;
    case 'type_alias_declaration':
      onTypeAlias(walk, node, f, ctx);
      return;
    case 'enum_declaration':
      onEnum(walk, node, f, ctx);
      return;
    case 'internal_module':
    case 'module':
      onNamespace(walk, node, f, ctx);
      return;
    case 'lexical_declaration':
    case 'variable_declaration':
      onVariables(walk, node, f, ctx);
      return;
    case 'ambient_declaration':
      onAmbient(walk, node, f, ctx);
      return;
    default:
      walk.visit(node, f);
  }
}
