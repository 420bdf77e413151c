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
import { childFrame } from './script-walk.js';
import type { DeclContext, Frame, ScriptWalk } from './script-walk.js';
import type { NameRef, SupertypeRef } from './types.js';

function onFunctionDeclaration(x: ScriptWalk, node: Node, f: Frame, ctx: DeclContext, nameOverride?: string): number {
  const nameNode = x.syntax.field(node, 'name');
  const name = nameOverride ?? (nameNode ? x.syntax.text(nameNode) : x.modules.defaultName());
  const parts = x.syntax.functionParts(node);
  const own = x.types.typeParameterNames(parts.typeParams);
  const scope = x.symbols.scopeOf(f);
  const nested = !f.moduleLevel;
  const hints: NameRef[] = [];
  const index = x.symbols.add(
    {
      name,
      kind: 'function',
      scope,
      startLine: x.syntax.startLineOf(ctx),
      endLine: node.endPosition.row + 1,
      signature: x.syntax.signature(x.syntax.signatureStart(ctx.outer), parts.body ? parts.body.startIndex : node.endIndex),
      doc: x.syntax.docFor(ctx.outer),
      parent: f.def,
      exported: ctx.exported && !nested,
    },
    { inheritsExport: false },
  );
  const es5 = parts.body && !nested ? x.symbols.constructorCandidate(name, index, f) : undefined;
  const frame = childFrame(f, index, es5 ? { name, qualifier: EMPTY } : undefined, es5);
  if (own) frame.typeParams = new Set(own);
  x.visitFunction(node, frame, hints, own);
  for (const hint of hints) x.symbols.addHint(index, hint);
  if (ctx.isDefault) x.modules.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
  return index;
}

function onInterface(x: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): number {
  const nameNode = x.syntax.field(node, 'name');
  const name = nameNode ? x.syntax.text(nameNode) : x.modules.defaultName();
  const own = x.types.typeParameterNames(x.syntax.field(node, 'type_parameters'));
  const body = x.syntax.field(node, 'body');
  const supertypes: SupertypeRef[] = [];
  for (const child of node.namedChildren) {
    if (child?.type !== 'extends_type_clause') continue;
    for (const type of child.namedChildren) {
      const ref = type ? x.syntax.nameRef(type) : undefined;
      if (ref) supertypes.push({ ...ref, relation: 'extends' });
    }
  }
  const index = x.symbols.add(
    {
      name,
      kind: 'interface',
      scope: x.symbols.scopeOf(f),
      startLine: x.syntax.startLineOf(ctx),
      endLine: node.endPosition.row + 1,
      signature: x.syntax.signature(x.syntax.signatureStart(ctx.outer), body ? body.startIndex : node.endIndex),
      doc: x.syntax.docFor(ctx.outer),
      parent: f.def,
      exported: ctx.exported && f.moduleLevel,
      supertypes,
    },
    { inheritsExport: false },
  );
  const frame = childFrame(f, index, undefined, undefined);
  if (own) frame.typeParams = new Set(own);
  for (const member of body?.namedChildren ?? []) {
    if (!member) continue;
    if (member.type === 'method_signature' || member.type === 'property_signature') onSignatureMember(x, member, frame, index);
  }
  if (ctx.isDefault) x.modules.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
  return index;
}

/** Interface members: method signatures → method, property signatures → property. */
function onSignatureMember(x: ScriptWalk, member: Node, frame: Frame, parent: number): void {
  const nameNode = x.syntax.field(member, 'name');
  const name = nameNode ? x.syntax.memberName(nameNode) : undefined;
  if (name === undefined) return;
  const isMethod = member.type === 'method_signature';
  let hints: NameRef[];
  let valueType: NameRef | undefined;
  if (isMethod) {
    const parts = x.syntax.functionParts(member);
    const own = x.types.typeParameterNames(parts.typeParams);
    hints = [];
    for (const param of parts.params?.namedChildren ?? []) {
      const type = x.syntax.field(param, 'type');
      if (type) hints.push(...x.types.typesOf(type, frame, own));
    }
    hints.push(...x.types.typesOf(parts.returnType, frame, own));
  } else {
    const type = x.syntax.field(member, 'type');
    hints = x.types.typesOf(type, frame);
    valueType = x.types.mainType(type, frame);
  }
  x.symbols.add(
    {
      name,
      kind: isMethod ? 'method' : 'property',
      scope: x.symbols.scopeOf(frame),
      startLine: member.startPosition.row + 1,
      endLine: member.endPosition.row + 1,
      signature: x.syntax.wholeSignature(member.startIndex, member),
      doc: x.syntax.docFor(member),
      parent,
      exported: false,
      typeHints: hints,
      valueType,
    },
    { inheritsExport: true },
  );
}

function onTypeAlias(x: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const nameNode = x.syntax.field(node, 'name');
  if (!nameNode) return;
  const own = x.types.typeParameterNames(x.syntax.field(node, 'type_parameters'));
  x.symbols.add(
    {
      name: x.syntax.text(nameNode),
      kind: 'type_alias',
      scope: x.symbols.scopeOf(f),
      startLine: x.syntax.startLineOf(ctx),
      endLine: node.endPosition.row + 1,
      signature: x.syntax.wholeSignature(ctx.outer.startIndex, node),
      doc: x.syntax.docFor(ctx.outer),
      parent: f.def,
      exported: ctx.exported && f.moduleLevel,
      typeHints: x.types.typesOf(x.syntax.field(node, 'value'), f, own),
    },
    { inheritsExport: false },
  );
}

function onEnum(x: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const nameNode = x.syntax.field(node, 'name');
  if (!nameNode) return;
  const body = x.syntax.field(node, 'body');
  const index = x.symbols.add(
    {
      name: x.syntax.text(nameNode),
      kind: 'enum',
      scope: x.symbols.scopeOf(f),
      startLine: x.syntax.startLineOf(ctx),
      endLine: node.endPosition.row + 1,
      signature: x.syntax.signature(ctx.outer.startIndex, body ? body.startIndex : node.endIndex),
      doc: x.syntax.docFor(ctx.outer),
      parent: f.def,
      exported: ctx.exported && f.moduleLevel,
    },
    { inheritsExport: false },
  );
  const scope = x.symbols.meta[index]!.path;
  for (const member of body?.namedChildren ?? []) {
    if (!member || member.type === 'comment') continue;
    const memberNameNode = member.type === 'enum_assignment' ? x.syntax.field(member, 'name') : member;
    const name = memberNameNode ? x.syntax.memberName(memberNameNode) : undefined;
    if (name === undefined) continue;
    x.symbols.add(
      {
        name,
        kind: 'constant',
        scope,
        startLine: member.startPosition.row + 1,
        endLine: member.endPosition.row + 1,
        signature: x.syntax.wholeSignature(member.startIndex, member),
        doc: x.syntax.docFor(member),
        parent: index,
        exported: false,
      },
      { inheritsExport: true },
    );
  }
}

/** `namespace A.B {}`, `module M {}`, `declare module 'pkg' {}`. */
function onNamespace(x: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const nameNode = x.syntax.field(node, 'name');
  const body = x.syntax.field(node, 'body');
  const names: string[] = [];
  if (nameNode?.type === 'nested_identifier') {
    const ref = x.syntax.nameRef(nameNode);
    if (ref) names.push(...ref.qualifier, ref.name);
  } else if (nameNode?.type === 'string') {
    names.push(x.syntax.text(nameNode).slice(1, -1));
  } else if (nameNode) {
    names.push(x.syntax.text(nameNode));
  }
  if (names.length === 0) return;
  const ambient = f.ambient || node.type === 'module';
  let frame = f;
  for (const name of names) {
    const index = x.symbols.add(
      {
        name,
        kind: 'module',
        scope: x.symbols.scopeOf(frame),
        startLine: x.syntax.startLineOf(ctx),
        endLine: node.endPosition.row + 1,
        signature: x.syntax.signature(ctx.outer.startIndex, body ? body.startIndex : node.endIndex),
        doc: x.syntax.docFor(ctx.outer),
        parent: frame.def,
        exported: (ctx.exported || ambient) && frame.moduleLevel,
      },
      { inheritsExport: false },
    );
    frame = { def: index, thisType: undefined, cls: undefined, parent: frame, moduleLevel: true, ambient, locals: undefined, typeParams: undefined };
  }
  if (body) x.visitChildren(body, frame);
}

/** `declare …`: the declaration inside is visible without `export`. */
function onAmbient(x: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  const ambientFrame: Frame = { ...f, ambient: true };
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'statement_block') {
      // `declare global { … }`: global augmentations live at file level.
      x.visitChildren(child, ambientFrame);
      continue;
    }
    visitDeclaration(x, child, ambientFrame, { ...ctx, exported: true });
  }
}

/** The declarations {@link visitDeclaration} dispatches on: what `export` and `declare` can introduce. */
export const DECLARATION_NODES: ReadonlySet<string> = new Set([
  'function_declaration', 'generator_function_declaration', 'function_signature', 'class_declaration',
  'abstract_class_declaration', 'interface_declaration', 'type_alias_declaration', 'enum_declaration', 'internal_module',
  'module', 'lexical_declaration', 'variable_declaration', 'ambient_declaration',
]);

/** A declaration under `export`/`declare`, with its context. */
export function visitDeclaration(x: ScriptWalk, node: Node, f: Frame, ctx: DeclContext): void {
  switch (node.type) {
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature':
      onFunctionDeclaration(x, node, f, ctx);
      return;
    case 'class_declaration':
    case 'abstract_class_declaration':
      onClass(x, node, f, ctx, undefined);
      return;
    case 'interface_declaration':
      onInterface(x, node, f, ctx);
      return;
    case 'type_alias_declaration':
      onTypeAlias(x, node, f, ctx);
      return;
    case 'enum_declaration':
      onEnum(x, node, f, ctx);
      return;
    case 'internal_module':
    case 'module':
      onNamespace(x, node, f, ctx);
      return;
    case 'lexical_declaration':
    case 'variable_declaration':
      onVariables(x, node, f, ctx);
      return;
    case 'ambient_declaration':
      onAmbient(x, node, f, ctx);
      return;
    default:
      x.visit(node, f);
  }
}
