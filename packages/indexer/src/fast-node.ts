/**
 * Leaner JS↔WASM glue for web-tree-sitter's `Node` and `TreeCursor`, installed once per thread.
 *
 * Extraction reads node types, fields and child lists hundreds of thousands of times per
 * repository, and in web-tree-sitter 0.25 the glue around each call into WASM costs more than
 * the call: every node is written to and read from the transfer buffer through emscripten's
 * generic `setValue`/`getValue` (a type-string switch and a DataView each), every returned node
 * is built through a class-field constructor from an options object, and `childForFieldName`
 * looks the field name up with `indexOf`. The accessors below call the same WASM functions with
 * the same arguments, moving the five words of a node through an `Int32Array` view and building
 * nodes with a plain constructor; they return what the originals return.
 *
 * The replacement is made only when this package started the WASM runtime itself (so it holds
 * the emscripten module object) and the platform is little-endian (WASM memory is, and an
 * `Int32Array` uses the platform's order); otherwise web-tree-sitter runs unchanged. Once made,
 * it serves every user of web-tree-sitter in the thread, with the same results. It relies on
 * web-tree-sitter's internal layout, which is why that dependency is pinned; test/fast-node.test.ts
 * checks every replaced accessor against the library's own, so an upgrade that changes the glue
 * fails there.
 */
import { endianness } from 'node:os';
import { Node, TreeCursor } from 'web-tree-sitter';
import type { Tree } from 'web-tree-sitter';

/** The emscripten module members used here (web-tree-sitter 0.25's exports of `tree-sitter.wasm`). */
interface TreeSitterRuntime {
  readonly HEAP32: Int32Array;
  _ts_init(): number;
  _free(pointer: number): void;
  _ts_node_symbol_wasm(tree: number): number;
  _ts_node_is_named_wasm(tree: number): number;
  _ts_node_is_missing_wasm(tree: number): number;
  _ts_node_has_error_wasm(tree: number): number;
  _ts_node_end_index_wasm(tree: number): number;
  _ts_node_end_point_wasm(tree: number): void;
  _ts_node_child_count_wasm(tree: number): number;
  _ts_node_named_child_count_wasm(tree: number): number;
  _ts_node_child_wasm(tree: number, index: number): void;
  _ts_node_named_child_wasm(tree: number, index: number): void;
  _ts_node_child_by_field_id_wasm(tree: number, fieldId: number): void;
  _ts_node_children_wasm(tree: number): void;
  _ts_node_named_children_wasm(tree: number): void;
  _ts_node_parent_wasm(tree: number): void;
  _ts_node_next_sibling_wasm(tree: number): void;
  _ts_node_prev_sibling_wasm(tree: number): void;
  _ts_node_next_named_sibling_wasm(tree: number): void;
  _ts_node_prev_named_sibling_wasm(tree: number): void;
  _ts_tree_cursor_current_node_wasm(tree: number): void;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_named_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_missing_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
}

const REQUIRED: readonly (keyof TreeSitterRuntime)[] = [
  '_ts_init', '_free', '_ts_node_symbol_wasm', '_ts_node_is_named_wasm', '_ts_node_is_missing_wasm',
  '_ts_node_has_error_wasm', '_ts_node_end_index_wasm', '_ts_node_end_point_wasm', '_ts_node_child_count_wasm',
  '_ts_node_named_child_count_wasm', '_ts_node_child_wasm', '_ts_node_named_child_wasm',
  '_ts_node_child_by_field_id_wasm', '_ts_node_children_wasm', '_ts_node_named_children_wasm',
  '_ts_node_parent_wasm', '_ts_node_next_sibling_wasm', '_ts_node_prev_sibling_wasm',
  '_ts_node_next_named_sibling_wasm', '_ts_node_prev_named_sibling_wasm', '_ts_tree_cursor_current_node_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm', '_ts_tree_cursor_current_node_is_named_wasm',
  '_ts_tree_cursor_current_node_is_missing_wasm', '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm', '_ts_tree_cursor_end_index_wasm', '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm', '_ts_tree_cursor_goto_parent_wasm',
];

/** The fields of a web-tree-sitter tree cursor: four words of cursor state, and its tree. */
interface CursorFields {
  0: number;
  1: number;
  2: number;
  3: number;
  tree: Tree;
}

/**
 * The fields of a web-tree-sitter node as its (internal) constructor sets them, plus `_context`,
 * where nodes built here keep the word the library keeps at index 0.
 */
interface NodeFields {
  0: number;
  _context?: number;
  _children: Node[] | undefined;
  _namedChildren: Node[] | undefined;
  id: number;
  startIndex: number;
  startPosition: { row: number; column: number };
  tree: Tree;
}

/** The words of a node in the transfer buffer: id, start index, start row, start column, context. */
const NODE_WORDS = 5;

let installed = false;

/**
 * Replace the hot `Node` and `TreeCursor` accessors with leaner glue over `runtime`, the object given to
 * `Parser.init` (emscripten fills it in as the module). Returns whether the glue is in place.
 */
export function installFastNodeAccess(runtime: object): boolean {
  if (installed) return true;
  const wasm = runtime as Partial<TreeSitterRuntime>;
  if (endianness() !== 'LE' || !(wasm.HEAP32 instanceof Int32Array) || REQUIRED.some((name) => typeof wasm[name] !== 'function')) return false;
  const C = wasm as TreeSitterRuntime;
  const nodes = nodeTransfer(C);
  installNodeAccessors(C, nodes, fieldIdLookup());
  installCursorAccessors(C, nodes);
  installed = true;
  return true;
}

/**
 * Nodes moved through the transfer buffer. The accessors installed below call these closures
 * directly (no object in between): they run for every node an extraction reads.
 */
type NodeTransfer = ReturnType<typeof nodeTransfer>;

function nodeTransfer(C: TreeSitterRuntime) {
  // The transfer buffer is static: asking for it again only rewrites two version words in it.
  const transfer = C._ts_init() >>> 2;
  let heap = C.HEAP32;
  /** The heap view, renewed after the WASM memory grew (growth detaches the old buffer). */
  const memory = (): Int32Array => {
    if (heap.length === 0) heap = C.HEAP32;
    return heap;
  };

  // A plain constructor whose prototype inherits Node's: `instanceof Node` holds and every
  // accessor works on these nodes as on the library's own. The context word lives in a named
  // field, read at index 0 through a getter: storing an indexed property on a new object is
  // V8's slow path, and it alone cost more than the rest of the node.
  const FastNode = function (this: NodeFields, tree: Tree, id: number, startIndex: number, row: number, column: number, context: number) {
    this._context = context;
    this._children = undefined;
    this._namedChildren = undefined;
    this.id = id;
    this.startIndex = startIndex;
    this.startPosition = { row, column };
    this.tree = tree;
  } as unknown as new (tree: Tree, id: number, startIndex: number, row: number, column: number, context: number) => Node;
  const fastProto = Object.create(Node.prototype) as object;
  Object.defineProperty(fastProto, 0, {
    get(this: NodeFields) {
      return this._context;
    },
  });
  FastNode.prototype = fastProto as Node;

  const marshal = (node: NodeFields): number => {
    const h = memory();
    h[transfer] = node.id;
    h[transfer + 1] = node.startIndex;
    h[transfer + 2] = node.startPosition.row;
    h[transfer + 3] = node.startPosition.column;
    const context = node._context;
    h[transfer + 4] = context === undefined ? node[0] : context;
    return (node.tree as unknown as { 0: number })[0];
  };
  const unmarshal = (tree: Tree, at: number): Node | null => {
    const h = memory();
    const id = h[at]!;
    if (id === 0) return null;
    return new FastNode(tree, id, h[at + 1]!, h[at + 2]!, h[at + 3]!, h[at + 4]!);
  };
  /** A node list the WASM side allocated: `[count, pointer]` in the transfer buffer. */
  const unmarshalList = (tree: Tree): Node[] => {
    const h = memory();
    const count = h[transfer]!;
    const buffer = h[transfer + 1]!;
    const list = new Array<Node>(count);
    if (count > 0) {
      let at = buffer >>> 2;
      for (let i = 0; i < count; i++, at += NODE_WORDS) {
        list[i] = new FastNode(tree, h[at]!, h[at + 1]!, h[at + 2]!, h[at + 3]!, h[at + 4]!);
      }
      C._free(buffer);
    }
    return list;
  };

  return { transfer, memory, marshal, unmarshal, unmarshalList };
}

function fieldIdLookup(): (tree: Tree, name: string) => number {
  /** Field ids by name, per language (`childForFieldName` would search the name list each time). */
  const fieldIdCache = new WeakMap<readonly (string | null)[], Map<string, number>>();
  let lastFields: readonly (string | null)[] | undefined;
  let lastIds: Map<string, number> | undefined;
  return (tree: Tree, name: string): number => {
    const fields = tree.language.fields;
    if (fields !== lastFields) {
      let ids = fieldIdCache.get(fields);
      if (!ids) {
        ids = new Map();
        fields.forEach((field, id) => {
          if (field !== null && !ids!.has(field)) ids!.set(field, id);
        });
        fieldIdCache.set(fields, ids);
      }
      lastFields = fields;
      lastIds = ids;
    }
    return lastIds!.get(name) ?? -1;
  };
}

function installNodeAccessors(C: TreeSitterRuntime, { transfer, memory, marshal, unmarshal, unmarshalList }: NodeTransfer, fieldId: (tree: Tree, name: string) => number): void {
  const proto = Node.prototype as unknown as Record<string, unknown>;
  const getter = (name: string, get: (this: NodeFields) => unknown): void => {
    Object.defineProperty(proto, name, { get, configurable: true, enumerable: false });
  };
  const method = (name: string, value: (this: NodeFields, ...args: never[]) => unknown): void => {
    Object.defineProperty(proto, name, { value, configurable: true, enumerable: false, writable: true });
  };
  const nodeResult = (name: string, call: (tree: number) => void): void => {
    getter(name, function () {
      call(marshal(this));
      return unmarshal(this.tree, transfer);
    });
  };

  getter('typeId', function () {
    return C._ts_node_symbol_wasm(marshal(this));
  });
  getter('type', function () {
    return this.tree.language.types[C._ts_node_symbol_wasm(marshal(this))] || 'ERROR';
  });
  getter('isNamed', function () {
    return C._ts_node_is_named_wasm(marshal(this)) === 1;
  });
  getter('isMissing', function () {
    return C._ts_node_is_missing_wasm(marshal(this)) === 1;
  });
  getter('hasError', function () {
    return C._ts_node_has_error_wasm(marshal(this)) === 1;
  });
  getter('endIndex', function () {
    return C._ts_node_end_index_wasm(marshal(this));
  });
  getter('endPosition', function () {
    C._ts_node_end_point_wasm(marshal(this));
    const h = memory();
    // Rows and columns are unsigned in C; the library reads them as such.
    return { row: h[transfer]! >>> 0, column: h[transfer + 1]! >>> 0 };
  });
  getter('childCount', function () {
    return C._ts_node_child_count_wasm(marshal(this));
  });
  getter('namedChildCount', function () {
    return C._ts_node_named_child_count_wasm(marshal(this));
  });
  method('child', function (index: number) {
    C._ts_node_child_wasm(marshal(this), index);
    return unmarshal(this.tree, transfer);
  });
  method('namedChild', function (index: number) {
    C._ts_node_named_child_wasm(marshal(this), index);
    return unmarshal(this.tree, transfer);
  });
  method('childForFieldId', function (id: number) {
    C._ts_node_child_by_field_id_wasm(marshal(this), id);
    return unmarshal(this.tree, transfer);
  });
  method('childForFieldName', function (name: string) {
    const id = fieldId(this.tree, name);
    if (id === -1) return null;
    C._ts_node_child_by_field_id_wasm(marshal(this), id);
    return unmarshal(this.tree, transfer);
  });
  getter('children', function () {
    if (!this._children) {
      C._ts_node_children_wasm(marshal(this));
      this._children = unmarshalList(this.tree);
    }
    return this._children;
  });
  getter('namedChildren', function () {
    if (!this._namedChildren) {
      C._ts_node_named_children_wasm(marshal(this));
      this._namedChildren = unmarshalList(this.tree);
    }
    return this._namedChildren;
  });
  nodeResult('parent', (tree) => C._ts_node_parent_wasm(tree));
  nodeResult('nextSibling', (tree) => C._ts_node_next_sibling_wasm(tree));
  nodeResult('previousSibling', (tree) => C._ts_node_prev_sibling_wasm(tree));
  nodeResult('nextNamedSibling', (tree) => C._ts_node_next_named_sibling_wasm(tree));
  nodeResult('previousNamedSibling', (tree) => C._ts_node_prev_named_sibling_wasm(tree));
}

function installCursorAccessors(C: TreeSitterRuntime, { transfer, memory, unmarshal }: NodeTransfer): void {
  // Tree cursors: the same words moved through the same buffer, without emscripten's helpers.
  const marshalCursor = (cursor: CursorFields): number => {
    const h = memory();
    h[transfer] = cursor[0];
    h[transfer + 1] = cursor[1];
    h[transfer + 2] = cursor[2];
    h[transfer + 3] = cursor[3];
    return (cursor.tree as unknown as { 0: number })[0];
  };
  const unmarshalCursor = (cursor: CursorFields): void => {
    const h = memory();
    cursor[0] = h[transfer]!;
    cursor[1] = h[transfer + 1]!;
    cursor[2] = h[transfer + 2]!;
    cursor[3] = h[transfer + 3]!;
  };
  const cursorProto = TreeCursor.prototype as unknown as Record<string, unknown>;
  const cursorGetter = (name: string, get: (this: CursorFields) => unknown): void => {
    Object.defineProperty(cursorProto, name, { get, configurable: true, enumerable: false });
  };
  const cursorMove = (name: string, move: (tree: number) => number): void => {
    Object.defineProperty(cursorProto, name, {
      value(this: CursorFields) {
        const moved = move(marshalCursor(this));
        unmarshalCursor(this);
        return moved === 1;
      },
      configurable: true,
      enumerable: false,
      writable: true,
    });
  };
  cursorGetter('currentNode', function () {
    C._ts_tree_cursor_current_node_wasm(marshalCursor(this));
    return unmarshal(this.tree, transfer);
  });
  cursorGetter('nodeTypeId', function () {
    return C._ts_tree_cursor_current_node_type_id_wasm(marshalCursor(this));
  });
  cursorGetter('nodeType', function () {
    return this.tree.language.types[C._ts_tree_cursor_current_node_type_id_wasm(marshalCursor(this))] || 'ERROR';
  });
  cursorGetter('nodeIsNamed', function () {
    return C._ts_tree_cursor_current_node_is_named_wasm(marshalCursor(this)) === 1;
  });
  cursorGetter('nodeIsMissing', function () {
    return C._ts_tree_cursor_current_node_is_missing_wasm(marshalCursor(this)) === 1;
  });
  cursorGetter('currentFieldId', function () {
    return C._ts_tree_cursor_current_field_id_wasm(marshalCursor(this));
  });
  cursorGetter('currentFieldName', function () {
    return this.tree.language.fields[C._ts_tree_cursor_current_field_id_wasm(marshalCursor(this))];
  });
  cursorGetter('startIndex', function () {
    return C._ts_tree_cursor_start_index_wasm(marshalCursor(this));
  });
  cursorGetter('endIndex', function () {
    return C._ts_tree_cursor_end_index_wasm(marshalCursor(this));
  });
  cursorMove('gotoFirstChild', (tree) => C._ts_tree_cursor_goto_first_child_wasm(tree));
  cursorMove('gotoNextSibling', (tree) => C._ts_tree_cursor_goto_next_sibling_wasm(tree));
  cursorMove('gotoParent', (tree) => C._ts_tree_cursor_goto_parent_wasm(tree));
}
