/**
 * What the Go and Rust extractors share when they walk a function body: the types of the
 * names bound in it, and how a method call's receiver is split into the segments the core
 * navigates. The grammars differ only in node and field names here; everything else about
 * typing stays in each language module.
 */
import type { Node } from 'web-tree-sitter';
import type { NameRef } from './types.js';
import { isNamedNode } from './common.js';

/**
 * The names bound in the body being walked, each with its type (`null`: bound, type unknown),
 * and the expression types already computed in it.
 */
export class TypeEnvironment {
  private readonly bound = new Map<string, NameRef | null>();
  /** Each name's previous binding, so that leaving a block can undo what it bound. */
  private readonly undo: [string, NameRef | null | undefined][] = [];
  private readonly computed = new Map<number, NameRef | undefined>();

  constructor(private readonly computeType: (node: Node) => NameRef | undefined) {}

  /** Forgets every binding and computed type: a new body starts. */
  reset(): void {
    this.bound.clear();
    this.computed.clear();
    this.undo.length = 0;
  }

  isBound(name: string): boolean {
    return this.bound.has(name);
  }

  /** `null` for a name bound without a known type, `undefined` for a name not bound. */
  boundType(name: string): NameRef | null | undefined {
    return this.bound.get(name);
  }

  bind(name: string, type: NameRef | null | undefined): void {
    if (name === '_' || name === '') return;
    this.undo.push([name, this.bound.get(name)]);
    this.bound.set(name, type ?? null);
  }

  /** Go's method receiver: in scope for the whole body, so no restore undoes it; kept even when named `_`. */
  bindReceiver(name: string, type: NameRef): void {
    this.bound.set(name, type);
  }

  mark(): number {
    return this.undo.length;
  }

  restore(mark: number): void {
    while (this.undo.length > mark) {
      const [name, previous] = this.undo.pop()!;
      if (previous === undefined) this.bound.delete(name);
      else this.bound.set(name, previous);
    }
  }

  /** The static type of an expression, computed once per node and body. */
  typeOf(node: Node | null): NameRef | undefined {
    if (!node) return undefined;
    // Receiver chains ask for the same inner expressions again and again.
    if (this.computed.has(node.id)) return this.computed.get(node.id);
    const type = this.computeType(node);
    this.computed.set(node.id, type);
    return type;
  }
}

/** The node and field names a grammar gives the parts of a receiver. */
export interface ReceiverSyntax {
  /** Member access `a.b`: Go's `selector_expression`, Rust's `field_expression`. */
  readonly memberAccess: string;
  /** The field holding `a` in `a.b`; both grammars give the operand of `*a`, `&a`, `a[i]` the same name. */
  readonly object: string;
  /** Rendered as written: plain names (and Rust's `self`). */
  readonly names: ReadonlySet<string>;
  /** Rendered as the expression inside: `(a)`, `*a`, Rust's `&a`. */
  readonly transparent: ReadonlySet<string>;
}

/** `renderInner(x)` renders a part of `node` one level deeper (`?` when the part is missing). */
export type RenderOwnHead = (node: Node, renderInner: (inner: Node | null | undefined) => string) => string | undefined;

/**
 * A method call's receiver split the way the core navigates it: the head expression, rendered
 * as one segment (`s`, `get()`, `items[]`), followed by the field names selected from it.
 * `receiverType` is then the head's type: `s.store.Put()` → `['s', 'store']` with the type of
 * `s`; the core finds `store` on it and follows the field's `valueType`. `renderOwn` renders
 * the heads only one language has, and returns undefined for the rest.
 */
export function receiverChain(node: Node, source: string, syntax: ReceiverSyntax, renderOwn: RenderOwnHead): { segments: string[]; head: Node } {
  const text = (n: Node): string => source.slice(n.startIndex, n.endIndex);
  const fields: string[] = [];
  let head = node;
  for (;;) {
    if (head.type === syntax.memberAccess) {
      const object = head.childForFieldName(syntax.object);
      const field = head.childForFieldName('field');
      // A numbered field (Rust's `self.0`) stays in the head.
      if (!object || field?.type !== 'field_identifier') break;
      fields.unshift(text(field));
      head = object;
    } else if (head.type === 'parenthesized_expression') {
      const inner = head.namedChildren.find(isNamedNode);
      if (!inner) break;
      head = inner;
    } else break;
  }

  const render = (expression: Node, depth: number): string => {
    if (depth > 3) return '…';
    const renderInner = (inner: Node | null | undefined): string => (inner ? render(inner, depth + 1) : '?');
    const type = expression.type;
    if (syntax.names.has(type)) return text(expression);
    if (type === syntax.memberAccess) {
      const field = expression.childForFieldName('field');
      return `${renderInner(expression.childForFieldName(syntax.object))}.${field ? text(field) : '?'}`;
    }
    if (type === 'call_expression') return `${renderInner(expression.childForFieldName('function'))}()`;
    if (type === 'index_expression') return `${renderInner(expression.childForFieldName(syntax.object) ?? expression.namedChild(0))}[]`;
    if (syntax.transparent.has(type)) return renderInner(expression.childForFieldName(syntax.object) ?? expression.namedChildren.find(isNamedNode));
    return renderOwn(expression, renderInner) ?? '?';
  };
  return { segments: [render(head, 0), ...fields], head };
}
