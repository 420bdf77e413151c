import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Node, TreeCursor } from 'web-tree-sitter';
import type { Tree } from 'web-tree-sitter';
import { createParser } from '../src/parser.js';
import type { GrammarName } from '../src/parser.js';

// Captured before any grammar loads, i.e. before the fast accessors replace them (each test
// file gets its own module instances).
const library = Object.getOwnPropertyDescriptors(Node.prototype);
const libraryCursor = Object.getOwnPropertyDescriptors(TreeCursor.prototype);
const original = (name: string, node: Node, ...args: unknown[]): unknown => {
  const descriptor = library[name]!;
  return descriptor.get ? descriptor.get.call(node) : (descriptor.value as (...a: unknown[]) => unknown).apply(node, args);
};
const originalCursor = (name: string, cursor: TreeCursor): unknown => libraryCursor[name]!.get!.call(cursor);
const idOf = (value: unknown): number | undefined => (value as Node | null)?.id;

/** What one node looks like, read through a TreeCursor (each of its accessors checked against the library's). */
interface Seen {
  type: string;
  field: string | null;
  named: boolean;
  missing: boolean;
  start: number;
  end: number;
  startRow: number;
  startColumn: number;
  endRow: number;
  endColumn: number;
  children: Seen[];
}

function throughCursor(cursor: TreeCursor, field: string | null): Seen {
  for (const accessor of ['nodeTypeId', 'nodeIsNamed', 'nodeIsMissing', 'currentFieldId', 'startIndex', 'endIndex'] as const) {
    expect(cursor[accessor], accessor).toBe(originalCursor(accessor, cursor));
  }
  expect(cursor.currentNode.id).toBe((originalCursor('currentNode', cursor) as Node).id);
  const seen: Seen = {
    type: cursor.nodeType,
    field,
    named: cursor.nodeIsNamed,
    missing: cursor.nodeIsMissing,
    start: cursor.startIndex,
    end: cursor.endIndex,
    startRow: cursor.startPosition.row,
    startColumn: cursor.startPosition.column,
    endRow: cursor.endPosition.row,
    endColumn: cursor.endPosition.column,
    children: [],
  };
  if (cursor.gotoFirstChild()) {
    do seen.children.push(throughCursor(cursor, cursor.currentFieldName ?? null));
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  return seen;
}

/** The same, read through Node accessors (the fast path once a grammar was loaded). */
function throughNodes(node: Node, field: string | null): Seen {
  const children = node.children as Node[];
  const seen: Seen = {
    type: node.type,
    field,
    named: node.isNamed,
    missing: node.isMissing,
    start: node.startIndex,
    end: node.endIndex,
    startRow: node.startPosition.row,
    startColumn: node.startPosition.column,
    endRow: node.endPosition.row,
    endColumn: node.endPosition.column,
    children: children.map((child, i) => throughNodes(child, node.fieldNameForChild(i))),
  };
  const named = node.namedChildren as Node[];
  expect(named.map((c) => c.id)).toEqual(children.filter((c) => c.isNamed).map((c) => c.id));
  expect(node.childCount).toBe(children.length);
  expect(node.namedChildCount).toBe(named.length);
  expect(node.namedChild(0)?.id).toBe(named[0]?.id);
  expect(node.child(children.length - 1)?.id).toBe(children[children.length - 1]?.id);
  for (const [i, child] of children.entries()) {
    const name = node.fieldNameForChild(i);
    // childForFieldName returns the first child holding the field.
    if (name && children.findIndex((_, j) => node.fieldNameForChild(j) === name) === i) expect(node.childForFieldName(name)?.id).toBe(child.id);
    for (const accessor of ['parent', 'nextSibling', 'previousSibling', 'nextNamedSibling', 'previousNamedSibling'] as const) {
      expect(idOf(child[accessor]), accessor).toBe(idOf(original(accessor, child)));
    }
  }
  for (const accessor of ['typeId', 'hasError', 'isMissing', 'endIndex'] as const) expect(node[accessor], accessor).toBe(original(accessor, node));
  for (const field of ['name', 'body', 'value', 'no_such_field']) expect(idOf(node.childForFieldName(field))).toBe(idOf(original('childForFieldName', node, field)));
  return seen;
}

const fixtures: [GrammarName, string][] = [
  ['rust', './fixtures/rust/crates/inventory/src/store/index.rs'],
  ['rust', './fixtures/rust/testdata/broken.rs'],
  ['python', './fixtures/python/shop/src/shop/service.py'],
  ['python', './fixtures/python/broken/partial.py'],
];

describe('node access after a grammar is loaded', () => {
  it('replaces the library accessors (else this file tests nothing)', async () => {
    await createParser('rust');
    expect(Object.getOwnPropertyDescriptor(Node.prototype, 'type')!.get).not.toBe(library.type!.get);
    expect(Object.getOwnPropertyDescriptor(TreeCursor.prototype, 'currentNode')!.get).not.toBe(libraryCursor.currentNode!.get);
  });

  for (const [grammar, file] of fixtures) {
    it(`reads ${file.split('/').pop()} the same through nodes as through a tree cursor`, async () => {
      const parser = await createParser(grammar);
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      const tree = parser.parse(source)!;
      try {
        const cursor = tree.walk();
        expect(throughNodes(tree.rootNode, null)).toEqual(throughCursor(cursor, null));
        cursor.delete();
      } finally {
        tree.delete();
      }
    });
  }

  it('builds nodes the rest of web-tree-sitter accepts', async () => {
    const parser = await createParser('python');
    const source = 'def f(x):\n    return g(x)\n';
    const tree = parser.parse(source)!;
    try {
      const fn = tree.rootNode.namedChildren[0]!;
      expect(fn).toBeInstanceOf(Node);
      expect(fn.text).toBe(source.trimEnd());
      const body = fn.childForFieldName('body')!;
      expect(body.descendantsOfType('call').map((c) => c?.text)).toEqual(['g(x)']);
      const cursor = body.walk();
      expect(cursor.nodeType).toBe('block');
      cursor.delete();
      expect(fn.childForFieldName('name')!.equals(fn.namedChildren[0]!)).toBe(true);
    } finally {
      tree.delete();
    }
  });

  it('keeps working after the WASM memory grew', async () => {
    const parser = await createParser('rust');
    const small = parser.parse('fn main() { run(1); }\n')!;
    const trees: Tree[] = [small];
    try {
      const fn = small.rootNode.namedChildren[0]!;
      const before = throughNodes(fn, null);
      // Large trees held at once make the WASM memory grow (which replaces its buffer).
      const body = 'fn f() { let x = a.b(c, d) + e[0]; }\n'.repeat(20_000);
      for (let i = 0; i < 2; i++) trees.push(parser.parse(body)!);
      expect(throughNodes(fn, null)).toEqual(before);
      expect(trees[2]!.rootNode.namedChildren[19_999]!.childForFieldName('name')!.text).toBe('f');
    } finally {
      for (const tree of trees) tree.delete();
    }
  });
});
