/**
 * Classes for the script extractor: the class symbol with its heritage and decorators, its
 * members (methods, fields, accessors, constructor parameter properties), and class
 * expressions passed around as values. Not part of the language-module contract.
 */
import type { NodeKind } from '@knowing/graph';
import type { Node } from 'web-tree-sitter';
import { EMPTY, FUNCTION_VALUES } from './script-syntax.js';
import { childFrame, declarationPlace, visitDefinition } from './script-walk.js';
import type { ClassInfo, DeclContext, Frame, ScriptWalk } from './script-walk.js';
import type { NameRef, SupertypeRef } from './types.js';

export function onClass(walk: ScriptWalk, node: Node, f: Frame, ctx: DeclContext, nameOverride: string | undefined): number {
  let name = nameOverride;
  let typeParams: Node | null = null;
  let heritage: Node | null = null;
  let body: Node | null = null;
  const decorators: Node[] = [...ctx.decorators];
  for (const child of node.namedChildren) {
    if (!child) continue;
    switch (child.type) {
      case 'type_identifier':
      case 'identifier':
        name ??= walk.syntax.text(child);
        break;
      case 'type_parameters':
        typeParams = child;
        break;
      case 'class_heritage':
        heritage = child;
        break;
      case 'class_body':
        body = child;
        break;
      case 'decorator':
        decorators.push(child);
        break;
      default:
        break;
    }
  }
  name ??= walk.modules.defaultName();
  const own = walk.types.typeParameterNames(typeParams);
  const supertypes: SupertypeRef[] = [];
  const heritageExpressions: Node[] = [];
  const heritageTypes: Node[] = [];
  if (heritage) readHeritage(walk, heritage, supertypes, heritageExpressions, heritageTypes);
  const signature = walk.syntax.signature(walk.syntax.signatureStart(ctx.outer === node ? node : ctx.outer), body ? body.startIndex : node.endIndex);
  const index = walk.symbols.add(
    { ...declarationPlace(walk, node, f, { ...ctx, decorators }, signature), name, kind: 'class', supertypes, decorators: decoratorRefs(walk, decorators) },
    { inheritsExport: false },
  );
  const cls: ClassInfo = { name, index, declared: new Set(), ctorIndex: -1 };
  const frame = childFrame(f, index, { name, qualifier: EMPTY }, cls, own);
  for (const decorator of decorators) visitDecoratorArguments(walk, decorator, frame);
  for (const expression of heritageExpressions) walk.visit(expression, frame);
  for (const typeNode of heritageTypes) walk.typeReferences(typeNode, frame);
  if (body) visitClassBody(walk, body, frame, cls, index);
  if (ctx.isDefault) walk.modules.exportDefaultAs(name, ctx.outer.startPosition.row + 1);
  return index;
}

/** `class extends Base {}` passed around as a value: walk the body; its members are not symbols. */
export function onAnonymousClass(walk: ScriptWalk, node: Node, f: Frame): void {
  const frame = childFrame(f, f.def, undefined, undefined);
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'class_heritage') {
      const expressions: Node[] = [];
      const types: Node[] = [];
      readHeritage(walk, child, [], expressions, types);
      for (const expression of expressions) walk.visit(expression, f);
    } else if (child.type === 'class_body') {
      walk.visitChildren(child, frame);
    }
  }
}

/** Supertypes of a class; expressions worth walking (mixin calls) and generic arguments go to the out lists. */
function readHeritage(walk: ScriptWalk, heritage: Node, supertypes: SupertypeRef[], expressions: Node[], types: Node[]): void {
  const addExtends = (value: Node): void => {
    if (value.type === 'call_expression') {
      // `extends Mixin(Base)`: the arguments are the classes inherited from.
      expressions.push(value);
      const args = walk.syntax.field(value, 'arguments');
      for (const arg of args?.namedChildren ?? []) {
        const ref = arg ? walk.syntax.nameRef(arg) : undefined;
        if (ref && (arg?.type === 'identifier' || arg?.type === 'member_expression')) supertypes.push({ ...ref, relation: 'extends' });
      }
      return;
    }
    const ref = walk.syntax.nameRef(value);
    if (ref) supertypes.push({ ...ref, relation: 'extends' });
    else expressions.push(value);
  };
  for (const clause of heritage.namedChildren) {
    if (!clause) continue;
    if (clause.type === 'extends_clause') {
      for (const child of clause.namedChildren) {
        if (!child) continue;
        if (child.type === 'type_arguments') types.push(child);
        else addExtends(child);
      }
    } else if (clause.type === 'implements_clause') {
      for (const child of clause.namedChildren) {
        if (!child) continue;
        const ref = walk.syntax.nameRef(child);
        if (ref) supertypes.push({ ...ref, relation: 'implements' });
        if (child.type === 'generic_type') {
          const args = walk.syntax.field(child, 'type_arguments');
          if (args) types.push(args);
        }
      }
    } else {
      // JavaScript: the heritage holds the expression itself.
      addExtends(clause);
    }
  }
}

function visitClassBody(walk: ScriptWalk, body: Node, frame: Frame, cls: ClassInfo, classIndex: number): void {
  const members = body.namedChildren;
  // Declared members first: constructor assignments only declare fields the class does not.
  for (const member of members) {
    if (!member) continue;
    const type = member.type;
    if (type === 'public_field_definition' || type === 'field_definition') {
      const nameNode = walk.syntax.bindingParts(member).name;
      const name = nameNode ? walk.syntax.memberName(nameNode) : undefined;
      if (name !== undefined) cls.declared.add(name);
    } else if (type === 'method_definition' || type === 'method_signature' || type === 'abstract_method_signature') {
      const nameNode = walk.syntax.functionParts(member).name;
      const name = nameNode ? walk.syntax.memberName(nameNode) : undefined;
      if (name !== undefined) cls.declared.add(name);
      if (name === 'constructor') collectParameterProperties(walk, member, cls);
    }
  }
  let pendingDecorators: Node[] = [];
  for (const member of members) {
    if (!member) continue;
    switch (member.type) {
      case 'decorator':
        pendingDecorators.push(member);
        continue;
      case 'method_definition':
      case 'method_signature':
      case 'abstract_method_signature':
        onMethod(walk, member, frame, cls, classIndex, pendingDecorators);
        break;
      case 'public_field_definition':
      case 'field_definition':
        onField(walk, member, frame, cls, classIndex, pendingDecorators);
        break;
      case 'class_static_block':
        walk.visitField(member, 'body', frame);
        break;
      case 'comment':
      case 'index_signature':
        continue;
      default:
        walk.visit(member, frame);
    }
    pendingDecorators = [];
  }
}

function collectParameterProperties(walk: ScriptWalk, ctor: Node, cls: ClassInfo): void {
  const params = walk.syntax.functionParts(ctor).params;
  for (const param of params?.namedChildren ?? []) {
    const type = param?.type;
    if (type !== 'required_parameter' && type !== 'optional_parameter') continue;
    const pattern = walk.syntax.field(param, 'pattern');
    if (pattern?.type === 'identifier') cls.declared.add(walk.syntax.text(pattern));
  }
}

function onMethod(walk: ScriptWalk, node: Node, classFrame: Frame, cls: ClassInfo | undefined, parent: number, siblingDecorators: readonly Node[]): number {
  const parts = walk.syntax.functionParts(node);
  const nameNode = parts.name;
  const name = nameNode ? walk.syntax.memberName(nameNode) : undefined;
  const mods = walk.syntax.modifiers(node, nameNode);
  const decorators = [...siblingDecorators, ...mods.decorators];
  if (name === undefined) {
    // Computed name (`[Symbol.iterator]()`): no symbol; the body still counts for the container.
    if (nameNode) walk.visitChildren(nameNode, classFrame);
    walk.visitFunction(node, childFrame(classFrame, classFrame.def, classFrame.thisType, cls), undefined);
    return -1;
  }
  const own = walk.types.typeParameterNames(parts.typeParams);
  const kind: NodeKind = mods.accessor ? 'property' : name === 'constructor' && cls ? 'constructor' : 'method';
  const signatureOnly = parts.body === null;
  const start = walk.syntax.signatureStart(node);
  const index = walk.symbols.add(
    {
      name,
      kind,
      scope: walk.symbols.scopeOf(classFrame),
      startLine: (decorators[0] ?? node).startPosition.row + 1,
      endLine: node.endPosition.row + 1,
      signature: signatureOnly ? walk.syntax.wholeSignature(start, node) : walk.syntax.signature(start, parts.body!.startIndex),
      doc: walk.syntax.docFor(node),
      parent,
      exported: false,
      decorators: decoratorRefs(walk, decorators),
      overrides: mods.overrides || undefined,
      valueType: mods.accessor === 'get' ? walk.types.mainType(parts.returnType, classFrame, own) : undefined,
    },
    { inheritsExport: true, isPrivate: mods.isPrivate || name.startsWith('#') },
  );
  const frame = childFrame(classFrame, index, classFrame.thisType, cls, own);
  if (kind === 'constructor' && cls) cls.ctorIndex = index;
  for (const decorator of decorators) visitDecoratorArguments(walk, decorator, frame);
  const properties = visitDefinition(walk, node, frame, index, own);
  if (kind === 'constructor') for (const param of properties) onParameterProperty(walk, param, classFrame, parent);
  return index;
}

/** `constructor(private readonly store: Store)` declares a field. */
function onParameterProperty(walk: ScriptWalk, param: Node, classFrame: Frame, parent: number): void {
  const pattern = walk.syntax.field(param, 'pattern');
  if (pattern?.type !== 'identifier') return;
  const typeNode = walk.syntax.field(param, 'type');
  const mods = walk.syntax.modifiers(param, pattern);
  const decorators = mods.decorators;
  const start = decorators.length > 0 ? walk.syntax.signatureStart(param) : param.startIndex;
  walk.symbols.add(
    {
      name: walk.syntax.text(pattern),
      kind: 'field',
      scope: walk.symbols.scopeOf(classFrame),
      startLine: param.startPosition.row + 1,
      endLine: param.endPosition.row + 1,
      signature: walk.syntax.wholeSignature(start, param),
      parent,
      exported: false,
      decorators: decoratorRefs(walk, decorators),
      typeHints: walk.types.typesOf(typeNode, classFrame),
      valueType: walk.types.mainType(typeNode, classFrame),
    },
    { inheritsExport: true, isPrivate: mods.isPrivate },
  );
}

function onField(walk: ScriptWalk, node: Node, classFrame: Frame, cls: ClassInfo, parent: number, siblingDecorators: readonly Node[]): void {
  const binding = walk.syntax.bindingParts(node);
  const nameNode = binding.name;
  const name = nameNode ? walk.syntax.memberName(nameNode) : undefined;
  const value = binding.value;
  if (name === undefined) {
    if (nameNode) walk.visitChildren(nameNode, classFrame);
    if (value) walk.visit(value, classFrame);
    return;
  }
  const mods = walk.syntax.modifiers(node, nameNode);
  const decorators = [...siblingDecorators, ...mods.decorators];
  const typeNode = binding.type;
  const start = walk.syntax.signatureStart(node);
  const isPrivate = mods.isPrivate || name.startsWith('#');
  const member = {
    name,
    scope: walk.symbols.scopeOf(classFrame),
    startLine: (decorators[0] ?? node).startPosition.row + 1,
    endLine: node.endPosition.row + 1,
    doc: walk.syntax.docFor(node),
    parent,
    exported: false,
    decorators: decoratorRefs(walk, decorators),
    overrides: mods.overrides || undefined,
    typeHints: walk.types.typesOf(typeNode, classFrame),
  };
  if (value !== null && FUNCTION_VALUES.has(value.type)) {
    // `handle = (e) => { … }`: a method in all but syntax.
    const parts = walk.syntax.functionParts(value);
    const own = walk.types.typeParameterNames(parts.typeParams);
    const signature = walk.syntax.signature(start, parts.body ? parts.body.startIndex : node.endIndex);
    const index = walk.symbols.add({ ...member, kind: 'method', signature }, { inheritsExport: true, isPrivate });
    const frame = childFrame(classFrame, index, value.type === 'arrow_function' ? classFrame.thisType : undefined, cls, own);
    for (const decorator of decorators) visitDecoratorArguments(walk, decorator, frame);
    visitDefinition(walk, value, frame, index, own);
    return;
  }
  const valueType = walk.types.mainType(typeNode, classFrame) ?? walk.types.initialiserType(value, classFrame);
  const index = walk.symbols.add({ ...member, kind: 'field', signature: walk.syntax.wholeSignature(start, node), valueType }, { inheritsExport: true, isPrivate });
  const frame = childFrame(classFrame, index, classFrame.thisType, cls);
  for (const decorator of decorators) visitDecoratorArguments(walk, decorator, frame);
  if (value) walk.visit(value, frame);
}

function decoratorRefs(walk: ScriptWalk, decorators: readonly Node[]): NameRef[] | undefined {
  if (decorators.length === 0) return undefined;
  const refs: NameRef[] = [];
  for (const decorator of decorators) {
    const ref = walk.syntax.nameRef(decorator.firstNamedChild);
    if (ref) refs.push(ref);
  }
  return refs;
}

/** `@Module({ providers: [UserService] })`: the arguments are ordinary expressions of the decorated symbol. */
export function visitDecoratorArguments(walk: ScriptWalk, decorator: Node, f: Frame): void {
  let expression = decorator.firstNamedChild;
  while (expression?.type === 'parenthesized_expression') expression = expression.firstNamedChild;
  if (expression?.type === 'call_expression') {
    const args = walk.syntax.field(expression, 'arguments');
    if (args) walk.visitChildren(args, f);
  }
}
