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
        f.address('offsets', 'u', 2).tee('p').loadI32Offset(0).set('e');
        f.get('p').loadI32Offset(4).set('end');
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
            f.address('offsets', 'u', 2).tee('p').loadI32Offset(0).set('e');
            f.get('p').loadI32Offset(4).set('end');
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
          f.address('offsets', 'u', 2).tee('p').loadI32Offset(0).set('e');
          f.get('p').loadI32Offset(4).set('end');
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
}

/** The kernel's module, emitted from the functions above. */
export function encodeWalkKernel(): Uint8Array {
  return encodeModule([['cover', coverFunction()], ['iterate', iterateFunction()]]);
}

/**
 * {@link encodeWalkKernel}'s bytes (base64), kept here: emitting them runs the builder as
 * cold code in every query process. The tests check that the two agree.
 */
export const WALK_KERNEL = 'AGFzbQEAAAABJwJgB39/f39/f38Bf2AXf39/f39/f39/f39/f39/f39/f3x8fH8BfwIPAQNlbnYGbWVtb3J5AgABAwMCAAEHEwIFY292ZXIAAAdpdGVyYXRlAAEKqwsCvAEBCH8gBSEHAkADQCAIIAdODQEgBCAIQQJ0aigCACEJIAhBAWohCCACIAlBAnRqKAIAQQFqIgogBkwEQCAAIAlBAnRqIg4oAgAhCyAOKAIEIQwCQANAIAsgDE4NASABIAtBAnRqKAIAIQ0gC0EBaiELIAIgDUECdGooAgBBf0cNACADRSADIA1qLQAAcgRAIAIgDUECdGogCjYCACAEIAdBAnRqIA02AgAgB0EBaiEHCwwACwsLDAALCyAHC+oJAhV/CnxBfyEhRAAAAAAAAPB/ITJEAAAAAAAA8D8gE6EhNQJAA0AgFyASTg0BIBdBAWohF0EAIRkCQANAIBkgBU4NASAEIBlBAnRqKAIAIRogCCAaQQN0akQAAAAAAAAAADkDACAZQQFqIRkMAAsLRAAAAAAAAAAAITBBACEZAkADQCAZIAVODQEgBCAZQQJ0aigCACEaIBlBAWohGSAHIBpBA3RqKwMAIixEAAAAAAAAAABhICwgFWNyDQAgBiAaQQN0aisDACItRAAAAAAAAAAAYwRARAAAAAAAAAAAIS4gACAaQQJ0aiIfKAIAIRsgHygCBCEcAkADQCAbIBxODQEgASAbQQJ0aigCACEdIAMgHUECdGooAgBBAE4EQCAuIAIgG0EDdGorAwCgIS4LIBtBAWohGwwACwsgLkQAAAAAAAAAAGQEQCA1IC6jIS0FRAAAAAAAAAAAIS0LIAYgGkEDdGogLTkDAAsgLUQAAAAAAAAAAGEEQCAwICygITAMAQsgLCAtoiEvIAAgGkECdGoiHygCACEbIB8oAgQhHAJAA0AgGyAcTg0BIAEgG0ECdGooAgAhHSADIB1BAnRqKAIAQQBOBEAgCCAdQQN0aiAIIB1BA3RqKwMAIC8gAiAbQQN0aisDAKKgOQMACyAbQQFqIRsMAAsLDAALCyATIDUgMKKgITFBACEeAkADQCAeIAtODQEgCSAeQQJ0aigCACEdIAggHUEDdGogCCAdQQN0aisDACAxIAogHkEDdGorAwCioDkDACAeQQFqIR4MAAsLRAAAAAAAAAAAITJBACEZAkADQCAZIAVODQEgBCAZQQJ0aigCACEaIDIgCCAaQQN0aisDACAHIBpBA3RqKwMAoZmgITIgGUEBaiEZDAALCyAHISsgCCEHICshCCAyIBRjBEBBASEYDAILIBEEQEEAISAgD0EBayEmQQAhGQJAA0AgGSAFTg0BIAQgGUECdGooAgAhJSAZQQFqIRkgByAlQQN0aisDACIzRAAAAAAAAAAAZQ0AICAgD0YEQCAzIA4gJkEDdGorAwBjDQEgMyAOICZBA3RqKwMAYSAlIAwgJkECdGooAgBKcQ0BBSAgQQFqISALICBBAWshIwJAA0AgI0EATA0BICNBAWshJCAOICRBA3RqKwMAIjQgM2QNASA0IDNhIAwgJEECdGooAgAgJUhxDQEgDCAjQQJ0aiAMICRBAnRqKAIANgIAIA4gI0EDdGogNDkDACAkISMMAAsLIAwgI0ECdGogJTYCACAOICNBA3RqIDM5AwAMAAsLQQEhJwJAA0AgJyAgTg0BIAwgJ0ECdGooAgAhKSAnQQFrISgCQANAIChBAEgNASAMIChBAnRqKAIAIClMDQEgKEEBaiEkIAwgJEECdGogDCAoQQJ0aigCADYCACAoQQFrISgMAAsLIChBAWohJCAMICRBAnRqICk2AgAgJ0EBaiEnDAALC0EAISogICAhRgRAQQEhKkEAIScCQANAICcgIE4NASAMICdBAnRqKAIAIA0gJ0ECdGooAgBHBEBBACEqDAILICdBAWohJwwACwsLICoEQCAiQQFqISIFQQAhIgsgICEhIA0hKyAMIQ0gKyEMICIgEE4EQEECIRgMAwsLDAALCyAWIBg2AgQgFiAyOQMIIBYgBzYCECAXCw==';

const instantiate = kernel(() => kernelBytes(WALK_KERNEL));

/** An instance over a fresh, zeroed memory of at least `bytes`; undefined where WebAssembly is unavailable or the memory cannot be had. */
export function instantiateWalkKernel(bytes: number): WalkKernel | undefined {
  const instance = instantiate(bytes);
  if (!instance) return undefined;
  return { memory: instance.memory, cover: instance.exports['cover'] as WalkKernel['cover'], iterate: instance.exports['iterate'] as WalkKernel['iterate'] };
}
