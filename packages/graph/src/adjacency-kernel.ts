/**
 * The adjacency's two loops over every edge — the check of a decoded blob and the in-edge index
 * — as WebAssembly: a query process decodes the adjacency cold, and V8 interpreted these loops
 * (about 20 ms of a query on cargo's 180 K edges). Integer work only, so the results are the
 * TypeScript loops' exactly (the tests compare both).
 */
import { FunctionBuilder, KernelLayout, Op, encodeModule, kernel, kernelBytes } from './wasm.js';

/**
 * check(offsets, targets, types, provenance, n, m, typeCount, provenanceCount, out) → 0 when
 * the arrays describe a graph; else 1 (the offsets do not span the edges), 2 (they decrease at
 * the node written at `out`) or 3 (the edge written at `out` is out of range).
 */
function checkFunction(): FunctionBuilder {
  const f = new FunctionBuilder(
    [
      ['offsets', 'i32'],
      ['targets', 'i32'],
      ['types', 'i32'],
      ['provenance', 'i32'],
      ['n', 'i32'],
      ['m', 'i32'],
      ['typeCount', 'i32'],
      ['provenanceCount', 'i32'],
      ['out', 'i32'],
    ],
    'i32',
  );
  f.locals('i32', 'i', 'next', 'target');
  f.get('offsets').loadI32Offset(0).i32(0).op(Op.i32Ne);
  f.loadI32('offsets', 'n').get('m').op(Op.i32Ne, Op.i32Or);
  f.if(() => f.i32(1).op(Op.return));
  f.block('ordered', () =>
    f.loop('node', () => {
      f.get('i').get('n').op(Op.i32GeS).brIf('ordered');
      f.get('i').i32(1).op(Op.i32Add).set('next');
      f.loadI32('offsets', 'i').loadI32('offsets', 'next').op(Op.i32GtS);
      f.if(() => {
        f.storeI32At('out', 0, () => f.get('i'));
        f.i32(2).op(Op.return);
      });
      f.get('next').set('i');
      f.br('node');
    }),
  );
  f.i32(0).set('i');
  f.block('inRange', () =>
    f.loop('edge', () => {
      f.get('i').get('m').op(Op.i32GeS).brIf('inRange');
      f.loadI32('targets', 'i').tee('target').i32(0).op(Op.i32LtS);
      f.get('target').get('n').op(Op.i32GeS, Op.i32Or);
      f.loadU8('types', 'i').get('typeCount').op(Op.i32GeS, Op.i32Or);
      f.loadU8('provenance', 'i').get('provenanceCount').op(Op.i32GeS, Op.i32Or);
      f.if(() => {
        f.storeI32At('out', 0, () => f.get('i'));
        f.i32(3).op(Op.return);
      });
      f.get('i').i32(1).op(Op.i32Add).set('i');
      f.br('edge');
    }),
  );
  f.i32(0);
  return f;
}

/** inverse(offsets, targets, n, m, inOffsets, inSources, inEdges, cursor): the in-edges, by target then source. */
function inverseFunction(): FunctionBuilder {
  const f = new FunctionBuilder(
    [
      ['offsets', 'i32'],
      ['targets', 'i32'],
      ['n', 'i32'],
      ['m', 'i32'],
      ['inOffsets', 'i32'],
      ['inSources', 'i32'],
      ['inEdges', 'i32'],
      ['cursor', 'i32'],
    ],
    undefined,
  );
  f.locals('i32', 'e', 'i', 'next', 'end', 'slot', 'target');
  // inOffsets[target + 1]++ for every edge (the memory starts zeroed).
  f.block('counted', () =>
    f.loop('count', () => {
      f.get('e').get('m').op(Op.i32GeS).brIf('counted');
      f.loadI32('targets', 'e').i32(1).op(Op.i32Add).set('next');
      f.storeI32('inOffsets', 'next', () => f.loadI32('inOffsets', 'next').i32(1).op(Op.i32Add));
      f.get('e').i32(1).op(Op.i32Add).set('e');
      f.br('count');
    }),
  );
  // Prefix sums, and each target's first slot into the cursor.
  f.block('summed', () =>
    f.loop('sum', () => {
      f.get('i').get('n').op(Op.i32GeS).brIf('summed');
      f.get('i').i32(1).op(Op.i32Add).set('next');
      f.storeI32('inOffsets', 'next', () => f.loadI32('inOffsets', 'next').loadI32('inOffsets', 'i').op(Op.i32Add));
      f.storeI32('cursor', 'i', () => f.loadI32('inOffsets', 'i'));
      f.get('next').set('i');
      f.br('sum');
    }),
  );
  f.i32(0).set('i');
  f.block('placed', () =>
    f.loop('source', () => {
      f.get('i').get('n').op(Op.i32GeS).brIf('placed');
      f.loadI32('offsets', 'i').set('e');
      f.get('i').i32(1).op(Op.i32Add).set('next');
      f.loadI32('offsets', 'next').set('end');
      f.block('edgesPlaced', () =>
        f.loop('edge', () => {
          f.get('e').get('end').op(Op.i32GeS).brIf('edgesPlaced');
          f.loadI32('targets', 'e').set('target');
          f.loadI32('cursor', 'target').set('slot');
          f.storeI32('cursor', 'target', () => f.get('slot').i32(1).op(Op.i32Add));
          f.storeI32('inSources', 'slot', () => f.get('i'));
          f.storeI32('inEdges', 'slot', () => f.get('e'));
          f.get('e').i32(1).op(Op.i32Add).set('e');
          f.br('edge');
        }),
      );
      f.get('next').set('i');
      f.br('source');
    }),
  );
  return f;
}

/** The kernel's module, emitted from the functions above. */
export function encodeAdjacencyKernel(): Uint8Array {
  return encodeModule([['check', checkFunction()], ['inverse', inverseFunction()]]);
}

/**
 * {@link encodeAdjacencyKernel}'s bytes (base64), kept here: emitting them runs the builder as
 * cold code in every query process. The tests check that the two agree.
 */
export const ADJACENCY_KERNEL = 'AGFzbQEAAAABGQJgCX9/f39/f39/fwF/YAh/f39/f39/fwACDwEDZW52Bm1lbW9yeQIAAQMDAgABBxMCBWNoZWNrAAAHaW52ZXJzZQABCuIDArYBAQN/IAAoAgBBAEcgACAEQQJ0aigCACAFR3IEQEEBDwsCQANAIAkgBE4NASAJQQFqIQogACAJQQJ0aigCACAAIApBAnRqKAIASgRAIAggCTYCAEECDwsgCiEJDAALC0EAIQkCQANAIAkgBU4NASABIAlBAnRqKAIAIgtBAEggCyAETnIgAiAJai0AACAGTnIgAyAJai0AACAHTnIEQCAIIAk2AgBBAw8LIAlBAWohCQwACwtBAAunAgEGfwJAA0AgCCADTg0BIAEgCEECdGooAgBBAWohCiAEIApBAnRqIAQgCkECdGooAgBBAWo2AgAgCEEBaiEIDAALCwJAA0AgCSACTg0BIAlBAWohCiAEIApBAnRqIAQgCkECdGooAgAgBCAJQQJ0aigCAGo2AgAgByAJQQJ0aiAEIAlBAnRqKAIANgIAIAohCQwACwtBACEJAkADQCAJIAJODQEgACAJQQJ0aigCACEIIAlBAWohCiAAIApBAnRqKAIAIQsCQANAIAggC04NASABIAhBAnRqKAIAIQ0gByANQQJ0aigCACEMIAcgDUECdGogDEEBajYCACAFIAxBAnRqIAk2AgAgBiAMQQJ0aiAINgIAIAhBAWohCAwACwsgCiEJDAALCws=';

const instantiate = kernel(() => kernelBytes(ADJACENCY_KERNEL));

/** What {@link checkAndInvert} found wrong, in the words of the adjacency's format errors. */
export type OutEdgeProblem = { readonly kind: 'span' } | { readonly kind: 'decrease'; readonly node: number } | { readonly kind: 'range'; readonly edge: number };

/** The in-edge index of an adjacency: in-edges grouped by target, each group in source order. */
export interface InEdges {
  readonly inOffsets: Int32Array;
  readonly inSources: Int32Array;
  readonly inEdges: Int32Array;
}

interface OutEdges {
  readonly n: number;
  readonly outOffsets: Int32Array;
  readonly outTargets: Int32Array;
  readonly outTypes: Uint8Array;
  readonly outProvenance: Uint8Array;
}

/**
 * Checks a decoded adjacency's out-edges against `limits` (offsets span the edges and never
 * decrease; every target, type and provenance in range; no check without limits: an adjacency
 * built here is right by construction) and builds its in-edge index, in the kernel where it
 * runs; undefined where it cannot (the caller runs the TypeScript loops).
 */
export function checkAndInvert(
  edges: OutEdges,
  limits?: { readonly typeCount: number; readonly provenanceCount: number },
): { readonly problem: OutEdgeProblem | undefined; readonly inverse: InEdges | undefined } | undefined {
  const { n, outOffsets, outTargets, outTypes, outProvenance } = edges;
  const m = outTargets.length;
  const layout = new KernelLayout();
  const at = {
    offsets: layout.take(4 * (n + 1)),
    targets: layout.take(4 * m),
    types: layout.take(m),
    provenance: layout.take(m),
    inOffsets: layout.take(4 * (n + 1)),
    inSources: layout.take(4 * m),
    inEdges: layout.take(4 * m),
    cursor: layout.take(4 * n),
    out: layout.take(8),
  };
  const instance = instantiate(layout.bytes);
  if (!instance) return undefined;
  const buffer = instance.memory.buffer;
  new Int32Array(buffer, at.offsets, n + 1).set(outOffsets);
  new Int32Array(buffer, at.targets, m).set(outTargets);
  const check = instance.exports['check'] as (...args: number[]) => number;
  if (limits) {
    new Uint8Array(buffer, at.types, m).set(outTypes);
    new Uint8Array(buffer, at.provenance, m).set(outProvenance);
  }
  const code = limits ? check(at.offsets, at.targets, at.types, at.provenance, n, m, limits.typeCount, limits.provenanceCount, at.out) : 0;
  if (code !== 0) {
    const where = new Int32Array(buffer, at.out, 1)[0]!;
    const problem: OutEdgeProblem = code === 1 ? { kind: 'span' } : code === 2 ? { kind: 'decrease', node: where } : { kind: 'range', edge: where };
    return { problem, inverse: undefined };
  }
  const inverse = instance.exports['inverse'] as (...args: number[]) => void;
  inverse(at.offsets, at.targets, n, m, at.inOffsets, at.inSources, at.inEdges, at.cursor);
  return {
    problem: undefined,
    inverse: {
      inOffsets: new Int32Array(buffer, at.inOffsets, n + 1).slice(),
      inSources: new Int32Array(buffer, at.inSources, m).slice(),
      inEdges: new Int32Array(buffer, at.inEdges, m).slice(),
    },
  };
}

/** The in-edge index alone, built by {@link checkAndInvert}'s kernel where it runs. */
export function invertEdges(edges: OutEdges): InEdges | undefined {
  return checkAndInvert(edges)?.inverse;
}
