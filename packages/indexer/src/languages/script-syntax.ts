/**
 * Reading one TypeScript/JavaScript file's syntax for the script extractor: fields by id,
 * node text, dotted names, the parts of functions and bindings, member names and modifiers,
 * and the doc comment, start line and signature of a declaration. Nothing here records
 * anything; see `typescript.ts` for the walk. Not part of the language-module contract.
 */
import type { Language, Node } from 'web-tree-sitter';
import { C_COMMENT_OPENERS, MAX_SIGNATURE_CHARS, cleanDoc, signatureText, sliceWithoutComments, truncate } from './common.js';
import type { CommentScan } from './common.js';
import type { DeclContext } from './script-walk.js';
import type { NameRef } from './types.js';

export const EMPTY: readonly string[] = Object.freeze([]);

export const EMPTY_NODES: readonly Node[] = Object.freeze([]);

export const FUNCTION_VALUES: ReadonlySet<string> = new Set([
  'arrow_function', 'function_expression', 'function', 'generator_function',
]);

const LITERAL_NODES: ReadonlySet<string> = new Set([
  'number', 'string', 'template_string', 'true', 'false', 'null', 'undefined', 'regex', 'object', 'array',
]);

/** Fields this module reads. Looked up by id: `childForFieldName` scans the grammar's field list on every call. */
const FIELD_NAMES = [
  'alias', 'arguments', 'body', 'function', 'key', 'left', 'name', 'parameter', 'pattern', 'right', 'source', 'type',
  'type_arguments', 'type_parameters', 'value',
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
type FieldIds = Readonly<Record<FieldName, number>>;
const fieldIdCache = new WeakMap<Language, FieldIds>();

function fieldIdsOf(language: Language): FieldIds {
  let ids = fieldIdCache.get(language);
  if (!ids) {
    const table: Partial<Record<FieldName, number>> = {};
    for (const name of FIELD_NAMES) table[name] = language.fieldIdForName(name) ?? -1;
    ids = table as FieldIds;
    fieldIdCache.set(language, ids);
  }
  return ids;
}

interface FunctionParts {
  name: Node | null;
  params: Node | null;
  returnType: Node | null;
  body: Node | null;
  typeParams: Node | null;
}

export class ScriptSyntax {
  private readonly fieldIds: FieldIds;
  /** The file's comments, cut out of signatures. */
  private readonly commentScan: CommentScan;

  constructor(
    readonly src: string,
    root: Node,
  ) {
    this.fieldIds = fieldIdsOf(root.tree.language);
    this.commentScan = { root, openers: C_COMMENT_OPENERS };
  }

  field(node: Node | null | undefined, name: FieldName): Node | null {
    if (!node) return null;
    const id = this.fieldIds[name];
    return id < 0 ? null : node.childForFieldId(id);
  }

  text(node: Node): string {
    return this.src.slice(node.startIndex, node.endIndex);
  }

  /** An identifier or dotted chain as a name: `a.b.C` → `C` qualified by `['a', 'b']`. */
  nameRef(node: Node | null): NameRef | undefined {
    if (!node) return undefined;
    const type = node.type;
    switch (type) {
      case 'identifier':
      case 'type_identifier':
      case 'property_identifier':
      case 'private_property_identifier':
        return { name: this.text(node), qualifier: EMPTY };
      case 'this':
      case 'super':
        return { name: type, qualifier: EMPTY };
      case 'member_expression':
      case 'nested_type_identifier':
      case 'nested_identifier': {
        // Named children: object (module), optional `?.`, property (name).
        const children = node.namedChildren;
        const object = children[0] ?? null;
        const property = children.length > 1 ? children[children.length - 1] : undefined;
        const outer = this.nameRef(object);
        if (!outer || !property) return undefined;
        return { name: this.text(property), qualifier: [...outer.qualifier, outer.name] };
      }
      case 'generic_type':
        return this.nameRef(this.field(node, 'name'));
      case 'call_expression':
        return this.nameRef(node.namedChildren[0] ?? null);
      case 'parenthesized_expression':
      case 'non_null_expression':
        return this.nameRef(node.firstNamedChild);
      default:
        return undefined;
    }
  }

  /** Name of a class/object/interface member; undefined for computed names. */
  memberName(node: Node): string | undefined {
    switch (node.type) {
      case 'property_identifier':
      case 'private_property_identifier':
      case 'identifier':
      case 'type_identifier':
      case 'number':
        return this.text(node);
      case 'string': {
        const text = this.text(node);
        return text.slice(1, -1);
      }
      default:
        return undefined;
    }
  }

  /** An export/import specifier name: an identifier, or a string (`export { x as "a-b" }`). */
  moduleExportName(node: Node): string {
    return node.type === 'string' ? this.text(node).slice(1, -1) : this.text(node);
  }

  /** Segments of a plain dotted target (`module.exports.x`, `Foo.prototype.bar`), else undefined. */
  plainChain(node: Node): string[] | undefined {
    const ref = this.nameRef(node);
    if (!ref || (node.type !== 'member_expression' && node.type !== 'identifier')) return undefined;
    return [...ref.qualifier, ref.name];
  }

  /** Names bound by a destructuring pattern. */
  patternNames(pattern: Node): string[] {
    const out: string[] = [];
    const walk = (node: Node): void => {
      switch (node.type) {
        case 'identifier':
        case 'shorthand_property_identifier_pattern':
          out.push(this.text(node));
          return;
        case 'pair_pattern': {
          const value = this.field(node, 'value');
          if (value) walk(value);
          return;
        }
        case 'assignment_pattern':
        case 'object_assignment_pattern': {
          const left = this.field(node, 'left');
          if (left) walk(left);
          return;
        }
        case 'object_pattern':
        case 'array_pattern':
        case 'rest_pattern':
          for (const child of node.namedChildren) if (child) walk(child);
          return;
        default:
          return;
      }
    };
    walk(pattern);
    return out;
  }

  /** Fields of a function-like node without walking it. */
  functionParts(node: Node): FunctionParts {
    const parts: FunctionParts = { name: null, params: null, returnType: null, body: null, typeParams: null };
    const children = node.namedChildren;
    const isArrow = node.type === 'arrow_function';
    const last = children.length - 1;
    for (let i = 0; i <= last; i++) {
      const child = children[i];
      if (!child) continue;
      if (isArrow && i === last) {
        parts.body = child;
        break;
      }
      switch (child.type) {
        case 'formal_parameters':
          parts.params = child;
          break;
        case 'statement_block':
          if (i === last) parts.body = child;
          break;
        case 'type_annotation':
        case 'type_predicate_annotation':
        case 'asserts_annotation':
          parts.returnType = child;
          break;
        case 'type_parameters':
          parts.typeParams = child;
          break;
        case 'identifier':
          // `x => …` has a bare parameter where other functions have a name.
          if (isArrow) parts.params = child;
          else parts.name ??= child;
          break;
        case 'property_identifier':
        case 'private_property_identifier':
        case 'computed_property_name':
        case 'string':
        case 'number':
          parts.name ??= child;
          break;
        default:
          break;
      }
    }
    return parts;
  }

  /** `name: Type = value` of a variable declarator or class field, from one read of its children. */
  bindingParts(node: Node): { name: Node | null; type: Node | null; value: Node | null } {
    const parts: { name: Node | null; type: Node | null; value: Node | null } = { name: null, type: null, value: null };
    for (const child of node.namedChildren) {
      if (!child) continue;
      switch (child.type) {
        case 'decorator':
        case 'accessibility_modifier':
        case 'override_modifier':
        case 'comment':
          break;
        case 'type_annotation':
          parts.type = child;
          break;
        default:
          if (parts.name === null) parts.name = child;
          else parts.value = child;
      }
    }
    return parts;
  }

  /** Modifier keywords written before a member's name. */
  modifiers(node: Node, nameNode: Node | null): {
    accessor: 'get' | 'set' | undefined;
    isPrivate: boolean;
    overrides: boolean;
    isStatic: boolean;
    decorators: Node[];
  } {
    const result = { accessor: undefined as 'get' | 'set' | undefined, isPrivate: false, overrides: false, isStatic: false, decorators: [] as Node[] };
    const stop = nameNode ? nameNode.startIndex : node.endIndex;
    for (const child of node.children) {
      if (!child || child.startIndex >= stop) break;
      switch (child.type) {
        case 'get':
        case 'set':
          result.accessor = child.type;
          break;
        case 'static':
          result.isStatic = true;
          break;
        case 'override_modifier':
          result.overrides = true;
          break;
        case 'accessibility_modifier':
          if (this.text(child) === 'private') result.isPrivate = true;
          break;
        case 'decorator':
          result.decorators.push(child);
          break;
        default:
          break;
      }
    }
    return result;
  }

  /** The `/** … *\/` comment right before `outer` (decorators and blank lines aside). */
  docFor(outer: Node): string {
    let previous = outer.previousNamedSibling;
    while (previous && previous.type === 'decorator') previous = previous.previousNamedSibling;
    if (!previous || previous.type !== 'comment') return '';
    const start = previous.startIndex;
    if (this.src.charCodeAt(start + 2) !== 42 /* * */ || this.src.charCodeAt(start + 1) !== 42) return '';
    if (previous.endPosition.row < outer.startPosition.row - 2) return '';
    const raw = this.src.slice(start + 3, previous.endIndex);
    const body = raw.endsWith('*/') ? raw.slice(0, -2) : raw;
    return cleanDoc(body.replace(/^[ \t]*\*(?!\/) ?/gm, ''));
  }

  /** Where a declaration's signature starts: after its decorators. */
  signatureStart(outer: Node): number {
    if (outer.firstNamedChild?.type !== 'decorator') return outer.startIndex;
    for (const child of outer.children) if (child && child.type !== 'decorator' && child.type !== 'comment') return child.startIndex;
    return outer.startIndex;
  }

  signature(from: number, to: number): string {
    return signatureText(this.src, from, Math.min(to, from + MAX_SIGNATURE_CHARS * 3), this.commentScan);
  }

  /** Signature of a whole declaration without a body (fields, members, aliases), trailing `;` dropped. */
  wholeSignature(from: number, node: Node): string {
    const end = Math.min(node.endIndex, from + MAX_SIGNATURE_CHARS * 3);
    return truncate(sliceWithoutComments(this.src, from, end, this.commentScan).replace(/\s+/g, ' ').trim().replace(/[;,]$/, ''), MAX_SIGNATURE_CHARS);
  }

  startLineOf(ctx: DeclContext): number {
    const first = ctx.decorators[0];
    const row = first && first.startIndex < ctx.outer.startIndex ? first.startPosition.row : ctx.outer.startPosition.row;
    return row + 1;
  }
}

/** Strip wrappers that do not change what a value is: parentheses, `as const`, `satisfies T`, `!`. */
export function unwrapValue(value: Node | null): Node | null {
  let current = value;
  while (current) {
    switch (current.type) {
      case 'parenthesized_expression':
      case 'as_expression':
      case 'satisfies_expression':
      case 'non_null_expression':
        current = current.firstNamedChild;
        continue;
      default:
        return current;
    }
  }
  return null;
}

/** Literal initialisers make a `const` a constant: numbers, strings, objects, arrays, `-1`. */
export function isLiteral(value: Node | null): boolean {
  if (!value) return false;
  if (LITERAL_NODES.has(value.type)) return true;
  if (value.type === 'unary_expression') {
    const operand = value.childForFieldName('argument');
    return operand !== null && (operand.type === 'number' || operand.type === 'true' || operand.type === 'false');
  }
  return false;
}
