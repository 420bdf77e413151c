/**
 * Type annotations as the script extractor reads them: the project types a type subtree
 * names (for hints and `type` references), the one type a value of an annotation or an
 * initialiser evidently has (for receivers), and the type parameters a declaration
 * introduces. Not part of the language-module contract.
 */
import type { Node } from 'web-tree-sitter';
import { EMPTY } from './script-syntax.js';
import type { ScriptSyntax } from './script-syntax.js';
import { isTypeParameter } from './script-walk.js';
import type { Frame } from './script-walk.js';
import type { NameRef } from './types.js';

/**
 * Types named in annotations that are never project symbols: primitives, the standard
 * library's containers and utility types. Their type arguments are still looked into, which
 * is how `Promise<User[]>` yields `User`.
 */
const BUILTIN_TYPES: ReadonlySet<string> = new Set([
  'string', 'number', 'boolean', 'any', 'unknown', 'void', 'never', 'object', 'symbol', 'bigint', 'undefined', 'null',
  'Promise', 'PromiseLike', 'Array', 'ReadonlyArray', 'Record', 'Partial', 'Required', 'Readonly', 'Pick', 'Omit',
  'Exclude', 'Extract', 'NonNullable', 'ReturnType', 'Parameters', 'InstanceType', 'ConstructorParameters', 'Awaited',
  'ThisType', 'ThisParameterType', 'OmitThisParameter', 'NoInfer', 'Uppercase', 'Lowercase', 'Capitalize', 'Uncapitalize',
  'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'ReadonlyMap', 'ReadonlySet', 'Iterable', 'Iterator', 'IterableIterator',
  'AsyncIterable', 'AsyncIterator', 'AsyncIterableIterator', 'Generator', 'AsyncGenerator', 'ArrayLike', 'PropertyKey',
  'Function', 'Object', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Date', 'RegExp', 'Error', 'TypeError',
  'RangeError', 'SyntaxError', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Uint8Array', 'Int8Array',
  'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
  'BigUint64Array', 'Uint8ClampedArray', 'TemplateStringsArray', 'JSON', 'Math', 'Console', 'Intl',
]);

export class ScriptTypes {
  constructor(private readonly syntax: ScriptSyntax) {}

  /** Collect the non-builtin named types in a type subtree. */
  private collectTypes(node: Node, f: Frame, own: ReadonlySet<string> | undefined, out: NameRef[]): void {
    switch (node.type) {
      case 'type_identifier': {
        const name = this.syntax.text(node);
        if (!BUILTIN_TYPES.has(name) && !isTypeParameter(name, f, own)) out.push({ name, qualifier: EMPTY });
        return;
      }
      case 'nested_type_identifier': {
        const ref = this.syntax.nameRef(node);
        if (ref) out.push(ref);
        return;
      }
      case 'generic_type': {
        const name = this.syntax.field(node, 'name');
        if (name) this.collectTypes(name, f, own, out);
        const args = this.syntax.field(node, 'type_arguments');
        if (args) this.collectTypes(args, f, own, out);
        return;
      }
      case 'predefined_type':
      case 'literal_type':
      case 'type_query':
      case 'template_literal_type':
      case 'this_type':
      case 'infer_type':
      case 'string':
      case 'number':
      case 'identifier':
      case 'property_identifier':
        return;
      case 'mapped_type_clause': {
        const inner = this.syntax.field(node, 'type');
        if (inner) this.collectTypes(inner, f, own, out);
        return;
      }
      default:
        for (const child of node.namedChildren) if (child) this.collectTypes(child, f, own, out);
    }
  }

  typesOf(node: Node | null, f: Frame, own?: ReadonlySet<string>): NameRef[] {
    if (!node) return [];
    const out: NameRef[] = [];
    this.collectTypes(node, f, own, out);
    return out;
  }

  /** The type a value of this annotation has, for receivers: `Store | undefined` → `Store`, `Repo<User>` → `Repo`. */
  mainType(node: Node | null, f: Frame, own?: ReadonlySet<string>): NameRef | undefined {
    if (!node) return undefined;
    switch (node.type) {
      case 'type_annotation':
      case 'parenthesized_type':
      case 'readonly_type':
        return node.firstNamedChild ? this.mainType(node.firstNamedChild, f, own) : undefined;
      case 'type_identifier': {
        const name = this.syntax.text(node);
        return BUILTIN_TYPES.has(name) || isTypeParameter(name, f, own) ? undefined : { name, qualifier: EMPTY };
      }
      case 'nested_type_identifier':
        return this.syntax.nameRef(node);
      case 'generic_type':
        return this.mainType(this.syntax.field(node, 'name'), f, own);
      case 'union_type': {
        let found: NameRef | undefined;
        for (const member of node.namedChildren) {
          if (!member || member.type === 'literal_type' || member.type === 'predefined_type') continue;
          if (found) return undefined;
          found = this.mainType(member, f, own);
          if (!found) return undefined;
        }
        return found;
      }
      default:
        return undefined;
    }
  }

  /** The type an initialiser evidently produces: `new Foo()`, `x as Foo`, `<Foo>x`. */
  initialiserType(value: Node | null, f: Frame): NameRef | undefined {
    if (!value) return undefined;
    switch (value.type) {
      case 'new_expression': {
        const ref = this.syntax.nameRef(value.namedChildren[0] ?? null);
        return ref && !(ref.qualifier.length === 0 && BUILTIN_TYPES.has(ref.name)) ? ref : undefined;
      }
      case 'as_expression':
      case 'satisfies_expression':
        return this.mainType(value.lastNamedChild, f);
      case 'type_assertion':
        return this.mainType(value.firstNamedChild?.firstNamedChild ?? null, f);
      case 'await_expression':
      case 'parenthesized_expression':
      case 'non_null_expression':
        return this.initialiserType(value.firstNamedChild, f);
      default:
        return undefined;
    }
  }

  /** The type parameters `node` introduces, added to the frame's. */
  declareTypeParameters(node: Node | null, f: Frame): Set<string> | undefined {
    const names = this.typeParameterNames(node);
    if (names) {
      if (f.typeParams) for (const name of names) f.typeParams.add(name);
      else f.typeParams = names;
    }
    return names;
  }

  typeParameterNames(node: Node | null): Set<string> | undefined {
    if (!node) return undefined;
    let names: Set<string> | undefined;
    for (const param of node.namedChildren) {
      if (param?.type !== 'type_parameter') continue;
      const name = this.syntax.field(param, 'name');
      if (name) (names ??= new Set()).add(this.syntax.text(name));
    }
    return names;
  }
}
