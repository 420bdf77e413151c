/**
 * The walk's two loops — the breadth-first cover of the seeds' neighbourhood and the iterations
 * — as WebAssembly. A query process is cold: V8 interprets these loops over every covered node
 * and edge (about 50 ms of a query on a graph of 180 K edges), while WebAssembly runs compiled
 * from its first call. Each operation is the one the TypeScript walk performs, in the same
 * order, so the scores are bit for bit equal (the tests compare both on random graphs).
 */
import { FunctionBuilder, Op, encodeModule, kernel, kernelBytes } from '@knowing/graph/wasm';
import type { KernelMemory } from '@knowing/graph/wasm';

/** Why the iterations stopped, as the kernel reports it. */
export const KERNEL_STOP = ['max-iterations', 'converged', 'top-k-stable'] as const;

/**
 * Loads the edge range of `node` in a CSR offsets array, [offsets[node], offsets[node + 1]),
 * into the locals `e` and `end` (through the local `p`).
 */
function edgeRange(f: FunctionBuilder, offsets: string, node: string): void {
  f.address(offsets, node, 2).tee('p').loadI32Offset(0).set('e');
  f.get('p').loadI32Offset(4).set('end');
}

/**
 * cover(offsets, neighbors, hops, allowed, active, seedCount, maxHops) → count: the seeds are in
 * `active[0..seedCount)` with hop 0, every other hop -1; fills hops and active breadth first.
 * `allowed` 0 means every node is.
 */
function coverFunction(): FunctionBuilder {
  const f = new FunctionBuilder(
    [
      ['offsets', 'i32'],
      ['neighbors', 'i32'],
      ['hops', 'i32'],
      ['allowed', 'i32'],
      ['active', 'i32'],
      ['seedCount', 'i32'],
      ['maxHops', 'i32'],
    ],
    'i32',
  );
  f.locals('i32', 'count', 'head', 'u', 'nextHop', 'e', 'end', 'v', 'p');
  f.get('seedCount').set('count');
  f.block('done', () =>
    f.loop('node', () => {
      f.get('head').get('count').op(Op.i32GeS).brIf('done');
      f.loadI32('active', 'head').set('u');
      f.get('head').i32(1).op(Op.i32Add).set('head');
      f.loadI32('hops', 'u').i32(1).op(Op.i32Add).tee('nextHop');
      f.get('maxHops').op(Op.i32LeS);
      f.if(() => {
        edgeRange(f, 'offsets', 'u');
        f.block('edgesDone', () =>
          f.loop('edge', () => {
            f.get('e').get('end').op(Op.i32GeS).brIf('edgesDone');
            f.loadI32('neighbors', 'e').set('v');
            f.get('e').i32(1).op(Op.i32Add).set('e');
            f.loadI32('hops', 'v').i32(-1).op(Op.i32Ne).brIf('edge');
            f.get('allowed').op(Op.i32Eqz);
            f.loadU8('allowed', 'v').op(Op.i32Or);
            f.if(() => {
              f.storeI32('hops', 'v', () => f.get('nextHop'));
              f.storeI32('active', 'count', () => f.get('v'));
              f.get('count').i32(1).op(Op.i32Add).set('count');
            });
            f.br('edge');
          }),
        );
      });
      f.br('node');
    }),
  );
  f.get('count');
  return f;
}

/**
 * weigh(outOffsets, outTargets, outTypes, outProvenance, typeWeights, n, lsp, lspWeight,
 * directed, offsets, neighbors, weights, cursor) → entries: `weightedTransitions` without
 * confidence or external nodes, written where the walk reads them. An edge weighs its type's
 * weight, × `lspWeight` when its provenance is `lsp`; an edge of weight 0 is left out; undirected,
 * each edge is listed at both ends (a self-loop once). The same loops in the same order as the
 * TypeScript, so every entry and weight is the same. `offsets` (n + 1 entries) must be zeroed;
 * `cursor` has n.
 */
function weighFunction(): FunctionBuilder {
  const f = new FunctionBuilder(
    [
      ['outOffsets', 'i32'],
      ['outTargets', 'i32'],
      ['outTypes', 'i32'],
      ['outProvenance', 'i32'],
      ['typeWeights', 'i32'],
      ['n', 'i32'],
      ['lsp', 'i32'],
      ['lspWeight', 'f64'],
      ['directed', 'i32'],
      ['offsets', 'i32'],
      ['neighbors', 'i32'],
      ['weights', 'i32'],
      ['cursor', 'i32'],
    ],
    'i32',
  );
  f.locals('i32', 'pass', 'source', 'e', 'end', 'p', 'type', 'target', 'slot', 'next', 'i');
  f.locals('f64', 'w');
  // Pass 0 counts each node's entries (at offsets[node + 1]); pass 1 fills them.
  f.block('passes', () =>
    f.loop('pass', () => {
      f.get('pass').i32(2).op(Op.i32GeS).brIf('passes');
      f.i32(0).set('source');
      f.block('sources', () =>
        f.loop('source', () => {
          f.get('source').get('n').op(Op.i32GeS).brIf('sources');
          edgeRange(f, 'outOffsets', 'source');
          f.block('edgesDone', () =>
            f.loop('edge', () => {
              f.get('e').get('end').op(Op.i32GeS).brIf('edgesDone');
              f.loadU8('outTypes', 'e').set('type');
              f.loadF64('typeWeights', 'type').set('w');
              f.loadU8('outProvenance', 'e').get('lsp').op(Op.i32Eq);
              f.if(() => f.get('w').get('lspWeight').op(Op.f64Mul).set('w'));
              f.loadI32('outTargets', 'e').set('target');
              f.get('e').i32(1).op(Op.i32Add).set('e');
              f.get('w').f64(0).op(Op.f64Eq).brIf('edge');
              f.get('pass').op(Op.i32Eqz);
              f.if(
                () => {
                  f.get('source').i32(1).op(Op.i32Add).set('next');
                  f.storeI32('offsets', 'next', () => f.loadI32('offsets', 'next').i32(1).op(Op.i32Add));
                  f.get('directed').op(Op.i32Eqz).get('target').get('source').op(Op.i32Ne, Op.i32And);
                  f.if(() => {
                    f.get('target').i32(1).op(Op.i32Add).set('next');
                    f.storeI32('offsets', 'next', () => f.loadI32('offsets', 'next').i32(1).op(Op.i32Add));
                  });
                },
                () => {
                  f.loadI32('cursor', 'source').set('slot');
                  f.storeI32('cursor', 'source', () => f.get('slot').i32(1).op(Op.i32Add));
                  f.storeI32('neighbors', 'slot', () => f.get('target'));
                  f.storeF64('weights', 'slot', () => f.get('w'));
                  f.get('directed').op(Op.i32Eqz).get('target').get('source').op(Op.i32Ne, Op.i32And);
                  f.if(() => {
                    f.loadI32('cursor', 'target').set('slot');
                    f.storeI32('cursor', 'target', () => f.get('slot').i32(1).op(Op.i32Add));
                    f.storeI32('neighbors', 'slot', () => f.get('source'));
                    f.storeF64('weights', 'slot', () => f.get('w'));
                  });
                },
              );
              f.br('edge');
            }),
          );
          f.get('source').i32(1).op(Op.i32Add).set('source');
          f.br('source');
        }),
      );
      // After counting: offsets become running sums, and each node's cursor its first slot.
      f.get('pass').op(Op.i32Eqz);
      f.if(() => {
        f.i32(0).set('i');
        f.block('summed', () =>
          f.loop('sum', () => {
            f.get('i').get('n').op(Op.i32GeS).brIf('summed');
            f.storeI32('cursor', 'i', () => f.loadI32('offsets', 'i'));
            f.get('i').i32(1).op(Op.i32Add).set('next');
            f.storeI32('offsets', 'next', () => f.loadI32('offsets', 'next').loadI32('offsets', 'i').op(Op.i32Add));
            f.get('next').set('i');
            f.br('sum');
          }),
        );
      });
      f.get('pass').i32(1).op(Op.i32Add).set('pass');
      f.br('pass');
    }),
  );
  f.loadI32('offsets', 'n');
  return f;
}

/**
 * iterate(…) → iterations, writing the stop reason (i32) at out+4, the last residual (f64) at
 * out+8 and the address of the final scores (i32) at out+16.
 */
function iterateFunction(): FunctionBuilder {
  const f = new FunctionBuilder(
    [
      ['offsets', 'i32'],
      ['neighbors', 'i32'],
      ['weights', 'i32'],
      ['hops', 'i32'],
      ['active', 'i32'],
      ['activeCount', 'i32'],
      ['share', 'i32'],
      ['current', 'i32'],
      ['next', 'i32'],
      ['seeds', 'i32'],
      ['probabilities', 'i32'],
      ['seedCount', 'i32'],
      ['topIndex', 'i32'],
      ['previousTop', 'i32'],
      ['topValue', 'i32'],
      ['topK', 'i32'],
      ['stableNeeded', 'i32'],
      ['trackTopK', 'i32'],
      ['maxIterations', 'i32'],
      ['alpha', 'f64'],
      ['tolerance', 'f64'],
      ['minMass', 'f64'],
      ['out', 'i32'],
    ],
    'i32',
  );
  f.locals('i32', 'iterations', 'reason', 'a', 'u', 'e', 'end', 'v', 's', 'p', 'count', 'previousCount', 'stableFor', 'slot', 'below', 'node', 'last', 'i', 'j', 'key', 'same', 'swap');
  f.locals('f64', 'mass', 'perWeight', 'total', 'moving', 'deadMass', 'toSeeds', 'residual', 'value', 'previousValue', 'keep');

  f.i32(-1).set('previousCount');
  f.f64(Number.POSITIVE_INFINITY).set('residual');
  f.f64(1).get('alpha').op(Op.f64Sub).set('keep');
  f.block('finished', () =>
    f.loop('iteration', () => {
      f.get('iterations').get('maxIterations').op(Op.i32GeS).brIf('finished');
      f.get('iterations').i32(1).op(Op.i32Add).set('iterations');

      // next[u] = 0 for every covered node.
      f.i32(0).set('a');
      f.block('zeroed', () =>
        f.loop('zero', () => {
          f.get('a').get('activeCount').op(Op.i32GeS).brIf('zeroed');
          f.loadI32('active', 'a').set('u');
          f.storeF64('next', 'u', () => f.f64(0));
          f.get('a').i32(1).op(Op.i32Add).set('a');
          f.br('zero');
        }),
      );

      // Move each node's mass to its covered neighbours.
      f.f64(0).set('deadMass');
      f.i32(0).set('a');
      f.block('moved', () =>
        f.loop('move', () => {
          f.get('a').get('activeCount').op(Op.i32GeS).brIf('moved');
          f.loadI32('active', 'a').set('u');
          f.get('a').i32(1).op(Op.i32Add).set('a');
          f.loadF64('current', 'u').tee('mass').f64(0).op(Op.f64Eq);
          f.get('mass').get('minMass').op(Op.f64Lt, Op.i32Or).brIf('move');
          f.loadF64('share', 'u').tee('perWeight').f64(0).op(Op.f64Lt);
          f.if(() => {
            f.f64(0).set('total');
            edgeRange(f, 'offsets', 'u');
            f.block('summed', () =>
              f.loop('sum', () => {
                f.get('e').get('end').op(Op.i32GeS).brIf('summed');
                f.loadI32('neighbors', 'e').set('v');
                f.loadI32('hops', 'v').i32(0).op(Op.i32GeS);
                f.if(() => f.get('total').loadF64('weights', 'e').op(Op.f64Add).set('total'));
                f.get('e').i32(1).op(Op.i32Add).set('e');
                f.br('sum');
              }),
            );
            f.get('total').f64(0).op(Op.f64Gt);
            f.if(
              () => f.get('keep').get('total').op(Op.f64Div).set('perWeight'),
              () => f.f64(0).set('perWeight'),
            );
            f.storeF64('share', 'u', () => f.get('perWeight'));
          });
          f.get('perWeight').f64(0).op(Op.f64Eq);
          f.if(() => {
            f.get('deadMass').get('mass').op(Op.f64Add).set('deadMass');
            f.br('move');
          });
          f.get('mass').get('perWeight').op(Op.f64Mul).set('moving');
          edgeRange(f, 'offsets', 'u');
          f.block('spread', () =>
            f.loop('edge', () => {
              f.get('e').get('end').op(Op.i32GeS).brIf('spread');
              f.loadI32('neighbors', 'e').set('v');
              f.loadI32('hops', 'v').i32(0).op(Op.i32GeS);
              f.if(() =>
                f.storeF64('next', 'v', () => {
                  f.loadF64('next', 'v');
                  f.get('moving').loadF64('weights', 'e').op(Op.f64Mul, Op.f64Add);
                }),
              );
              f.get('e').i32(1).op(Op.i32Add).set('e');
              f.br('edge');
            }),
          );
          f.br('move');
        }),
      );

      // The restart, and what dead ends send back, to the seeds.
      f.get('alpha').get('keep').get('deadMass').op(Op.f64Mul, Op.f64Add).set('toSeeds');
      f.i32(0).set('s');
      f.block('restarted', () =>
        f.loop('restart', () => {
          f.get('s').get('seedCount').op(Op.i32GeS).brIf('restarted');
          f.loadI32('seeds', 's').set('v');
          f.storeF64('next', 'v', () => {
            f.loadF64('next', 'v');
            f.get('toSeeds').loadF64('probabilities', 's').op(Op.f64Mul, Op.f64Add);
          });
          f.get('s').i32(1).op(Op.i32Add).set('s');
          f.br('restart');
        }),
      );

      // The L1 change, then next becomes current.
      f.f64(0).set('residual');
      f.i32(0).set('a');
      f.block('measured', () =>
        f.loop('measure', () => {
          f.get('a').get('activeCount').op(Op.i32GeS).brIf('measured');
          f.loadI32('active', 'a').set('u');
          f.get('residual').loadF64('next', 'u').loadF64('current', 'u').op(Op.f64Sub, Op.f64Abs, Op.f64Add).set('residual');
          f.get('a').i32(1).op(Op.i32Add).set('a');
          f.br('measure');
        }),
      );
      f.get('current').set('swap');
      f.get('next').set('current');
      f.get('swap').set('next');
      f.get('residual').get('tolerance').op(Op.f64Lt);
      f.if(() => {
        f.i32(1).set('reason');
        f.br('finished');
      });

      f.get('trackTopK');
      f.if(() => {
        topK(f);
        sortTop(f);
        // Stable when the same set as the previous iteration's.
        f.i32(0).set('same');
        f.get('count').get('previousCount').op(Op.i32Eq);
        f.if(() => {
          f.i32(1).set('same');
          f.i32(0).set('i');
          f.block('compared', () =>
            f.loop('compare', () => {
              f.get('i').get('count').op(Op.i32GeS).brIf('compared');
              f.loadI32('topIndex', 'i').loadI32('previousTop', 'i').op(Op.i32Ne);
              f.if(() => {
                f.i32(0).set('same');
                f.br('compared');
              });
              f.get('i').i32(1).op(Op.i32Add).set('i');
              f.br('compare');
            }),
          );
        });
        f.get('same');
        f.if(
          () => f.get('stableFor').i32(1).op(Op.i32Add).set('stableFor'),
          () => f.i32(0).set('stableFor'),
        );
        f.get('count').set('previousCount');
        f.get('previousTop').set('swap');
        f.get('topIndex').set('previousTop');
        f.get('swap').set('topIndex');
        f.get('stableFor').get('stableNeeded').op(Op.i32GeS);
        f.if(() => {
          f.i32(2).set('reason');
          f.br('finished');
        });
      });
      f.br('iteration');
    }),
  );
  f.storeI32At('out', 4, () => f.get('reason'));
  f.storeF64At('out', 8, () => f.get('residual'));
  f.storeI32At('out', 16, () => f.get('current'));
  f.get('iterations');
  return f;
}

/**
 * The `topK` covered nodes of highest mass into topIndex/topValue (ties: lower index first),
 * best first; their number into `count`.
 */
function topK(f: FunctionBuilder): void {
  f.i32(0).set('count');
  f.get('topK').i32(1).op(Op.i32Sub).set('last');
  f.i32(0).set('a');
  f.block('ranked', () =>
    f.loop('candidate', () => {
      f.get('a').get('activeCount').op(Op.i32GeS).brIf('ranked');
      f.loadI32('active', 'a').set('node');
      f.get('a').i32(1).op(Op.i32Add).set('a');
      f.loadF64('current', 'node').tee('value').f64(0).op(Op.f64Le).brIf('candidate');
      f.get('count').get('topK').op(Op.i32Eq);
      f.if(
        () => {
          f.get('value').loadF64('topValue', 'last').op(Op.f64Lt).brIf('candidate');
          f.get('value').loadF64('topValue', 'last').op(Op.f64Eq);
          f.get('node').loadI32('topIndex', 'last').op(Op.i32GtS, Op.i32And).brIf('candidate');
        },
        () => f.get('count').i32(1).op(Op.i32Add).set('count'),
      );
      f.get('count').i32(1).op(Op.i32Sub).set('slot');
      f.block('placed', () =>
        f.loop('shift', () => {
          f.get('slot').i32(0).op(Op.i32LeS).brIf('placed');
          f.get('slot').i32(1).op(Op.i32Sub).set('below');
          f.loadF64('topValue', 'below').tee('previousValue').get('value').op(Op.f64Gt).brIf('placed');
          f.get('previousValue').get('value').op(Op.f64Eq);
          f.loadI32('topIndex', 'below').get('node').op(Op.i32LtS, Op.i32And).brIf('placed');
          f.storeI32('topIndex', 'slot', () => f.loadI32('topIndex', 'below'));
          f.storeF64('topValue', 'slot', () => f.get('previousValue'));
          f.get('below').set('slot');
          f.br('shift');
        }),
      );
      f.storeI32('topIndex', 'slot', () => f.get('node'));
      f.storeF64('topValue', 'slot', () => f.get('value'));
      f.br('candidate');
    }),
  );
}

/** topIndex[0..count) in ascending order (insertion sort: at most topK entries). */
function sortTop(f: FunctionBuilder): void {
  f.i32(1).set('i');
  f.block('sorted', () =>
    f.loop('sort', () => {
      f.get('i').get('count').op(Op.i32GeS).brIf('sorted');
      f.loadI32('topIndex', 'i').set('key');
      f.get('i').i32(1).op(Op.i32Sub).set('j');
      f.block('inserted', () =>
        f.loop('insert', () => {
          f.get('j').i32(0).op(Op.i32LtS).brIf('inserted');
          f.loadI32('topIndex', 'j').get('key').op(Op.i32LeS).brIf('inserted');
          f.get('j').i32(1).op(Op.i32Add).set('below');
          f.storeI32('topIndex', 'below', () => f.loadI32('topIndex', 'j'));
          f.get('j').i32(1).op(Op.i32Sub).set('j');
          f.br('insert');
        }),
      );
      f.get('j').i32(1).op(Op.i32Add).set('below');
      f.storeI32('topIndex', 'below', () => f.get('key'));
      f.get('i').i32(1).op(Op.i32Add).set('i');
      f.br('sort');
    }),
  );
}

/** The kernel's exports. */
export interface WalkKernel {
  readonly memory: KernelMemory;
  cover(offsets: number, neighbors: number, hops: number, allowed: number, active: number, seedCount: number, maxHops: number): number;
  iterate(...args: number[]): number;
  weigh(...args: number[]): number;
}

/** The kernel's module, emitted from the functions above. */
export function encodeWalkKernel(): Uint8Array {
  return encodeModule([['cover', coverFunction()], ['iterate', iterateFunction()], ['weigh', weighFunction()]]);
}

/**
 * {@link encodeWalkKernel}'s bytes (base64), kept here: emitting them runs the builder as
 * cold code in every query process. The tests check that the two agree.
 */
export const WALK_KERNEL = 'AGFzbQEAAAABOANgB39/f39/f38Bf2AXf39/f39/f39/f39/f39/f39/f3x8fH8Bf2ANf39/f39/f3x/f39/fwF/Ag8BA2VudgZtZW1vcnkCAAEDBAMAAQIHGwMFY292ZXIAAAdpdGVyYXRlAAEFd2VpZ2gAAgqKDwO8AQEIfyAFIQcCQANAIAggB04NASAEIAhBAnRqKAIAIQkgCEEBaiEIIAIgCUECdGooAgBBAWoiCiAGTARAIAAgCUECdGoiDigCACELIA4oAgQhDAJAA0AgCyAMTg0BIAEgC0ECdGooAgAhDSALQQFqIQsgAiANQQJ0aigCAEF/Rw0AIANFIAMgDWotAAByBEAgAiANQQJ0aiAKNgIAIAQgB0ECdGogDTYCACAHQQFqIQcLDAALCwsMAAsLIAcL6gkCFX8KfEF/ISFEAAAAAAAA8H8hMkQAAAAAAADwPyAToSE1AkADQCAXIBJODQEgF0EBaiEXQQAhGQJAA0AgGSAFTg0BIAQgGUECdGooAgAhGiAIIBpBA3RqRAAAAAAAAAAAOQMAIBlBAWohGQwACwtEAAAAAAAAAAAhMEEAIRkCQANAIBkgBU4NASAEIBlBAnRqKAIAIRogGUEBaiEZIAcgGkEDdGorAwAiLEQAAAAAAAAAAGEgLCAVY3INACAGIBpBA3RqKwMAIi1EAAAAAAAAAABjBEBEAAAAAAAAAAAhLiAAIBpBAnRqIh8oAgAhGyAfKAIEIRwCQANAIBsgHE4NASABIBtBAnRqKAIAIR0gAyAdQQJ0aigCAEEATgRAIC4gAiAbQQN0aisDAKAhLgsgG0EBaiEbDAALCyAuRAAAAAAAAAAAZARAIDUgLqMhLQVEAAAAAAAAAAAhLQsgBiAaQQN0aiAtOQMACyAtRAAAAAAAAAAAYQRAIDAgLKAhMAwBCyAsIC2iIS8gACAaQQJ0aiIfKAIAIRsgHygCBCEcAkADQCAbIBxODQEgASAbQQJ0aigCACEdIAMgHUECdGooAgBBAE4EQCAIIB1BA3RqIAggHUEDdGorAwAgLyACIBtBA3RqKwMAoqA5AwALIBtBAWohGwwACwsMAAsLIBMgNSAwoqAhMUEAIR4CQANAIB4gC04NASAJIB5BAnRqKAIAIR0gCCAdQQN0aiAIIB1BA3RqKwMAIDEgCiAeQQN0aisDAKKgOQMAIB5BAWohHgwACwtEAAAAAAAAAAAhMkEAIRkCQANAIBkgBU4NASAEIBlBAnRqKAIAIRogMiAIIBpBA3RqKwMAIAcgGkEDdGorAwChmaAhMiAZQQFqIRkMAAsLIAchKyAIIQcgKyEIIDIgFGMEQEEBIRgMAgsgEQRAQQAhICAPQQFrISZBACEZAkADQCAZIAVODQEgBCAZQQJ0aigCACElIBlBAWohGSAHICVBA3RqKwMAIjNEAAAAAAAAAABlDQAgICAPRgRAIDMgDiAmQQN0aisDAGMNASAzIA4gJkEDdGorAwBhICUgDCAmQQJ0aigCAEpxDQEFICBBAWohIAsgIEEBayEjAkADQCAjQQBMDQEgI0EBayEkIA4gJEEDdGorAwAiNCAzZA0BIDQgM2EgDCAkQQJ0aigCACAlSHENASAMICNBAnRqIAwgJEECdGooAgA2AgAgDiAjQQN0aiA0OQMAICQhIwwACwsgDCAjQQJ0aiAlNgIAIA4gI0EDdGogMzkDAAwACwtBASEnAkADQCAnICBODQEgDCAnQQJ0aigCACEpICdBAWshKAJAA0AgKEEASA0BIAwgKEECdGooAgAgKUwNASAoQQFqISQgDCAkQQJ0aiAMIChBAnRqKAIANgIAIChBAWshKAwACwsgKEEBaiEkIAwgJEECdGogKTYCACAnQQFqIScMAAsLQQAhKiAgICFGBEBBASEqQQAhJwJAA0AgJyAgTg0BIAwgJ0ECdGooAgAgDSAnQQJ0aigCAEcEQEEAISoMAgsgJ0EBaiEnDAALCwsgKgRAICJBAWohIgVBACEiCyAgISEgDSErIAwhDSArIQwgIiAQTgRAQQIhGAwDCwsMAAsLIBYgGDYCBCAWIDI5AwggFiAHNgIQIBcL3QMCCn8BfAJAA0AgDUECTg0BQQAhDgJAA0AgDiAFTg0BIAAgDkECdGoiESgCACEPIBEoAgQhEAJAA0AgDyAQTg0BIAIgD2otAAAhEiAEIBJBA3RqKwMAIRcgAyAPai0AACAGRgRAIBcgB6IhFwsgASAPQQJ0aigCACETIA9BAWohDyAXRAAAAAAAAAAAYQ0AIA1FBEAgDkEBaiEVIAkgFUECdGogCSAVQQJ0aigCAEEBajYCACAIRSATIA5HcQRAIBNBAWohFSAJIBVBAnRqIAkgFUECdGooAgBBAWo2AgALBSAMIA5BAnRqKAIAIRQgDCAOQQJ0aiAUQQFqNgIAIAogFEECdGogEzYCACALIBRBA3RqIBc5AwAgCEUgEyAOR3EEQCAMIBNBAnRqKAIAIRQgDCATQQJ0aiAUQQFqNgIAIAogFEECdGogDjYCACALIBRBA3RqIBc5AwALCwwACwsgDkEBaiEODAALCyANRQRAQQAhFgJAA0AgFiAFTg0BIAwgFkECdGogCSAWQQJ0aigCADYCACAWQQFqIRUgCSAVQQJ0aiAJIBVBAnRqKAIAIAkgFkECdGooAgBqNgIAIBUhFgwACwsLIA1BAWohDQwACwsgCSAFQQJ0aigCAAs=';

const instantiate = kernel(() => kernelBytes(WALK_KERNEL));

/** An instance over a fresh, zeroed memory of at least `bytes`; undefined where WebAssembly is unavailable or the memory cannot be had. */
export function instantiateWalkKernel(bytes: number): WalkKernel | undefined {
  const instance = instantiate(bytes);
  if (!instance) return undefined;
  return {
    memory: instance.memory,
    cover: instance.exports['cover'] as WalkKernel['cover'],
    iterate: instance.exports['iterate'] as WalkKernel['iterate'],
    weigh: instance.exports['weigh'] as WalkKernel['weigh'],
  };
}
