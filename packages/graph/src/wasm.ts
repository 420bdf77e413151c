/**
 * `@knowing/graph/wasm`: a minimal WebAssembly emitter for the packages' numeric kernels —
 * functions over one imported memory, written as structured code (blocks, loops and branches by
 * label) and encoded to a module's bytes. A query runs in a fresh process, where V8 interprets
 * the loops over every node and edge of a graph; a kernel runs compiled from its first call.
 */

export type ValueType = 'i32' | 'f64';

const TYPE_CODE: Readonly<Record<ValueType, number>> = { i32: 0x7f, f64: 0x7c };

/** Opcodes without immediates. */
export const Op = {
  return: 0x0f,
  drop: 0x1a,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32Ne: 0x47,
  i32LtS: 0x48,
  i32GtS: 0x4a,
  i32LeS: 0x4c,
  i32GeS: 0x4e,
  f64Eq: 0x61,
  f64Lt: 0x63,
  f64Gt: 0x64,
  f64Le: 0x65,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Or: 0x72,
  i32Shl: 0x74,
  f64Abs: 0x99,
  f64Add: 0xa0,
  f64Sub: 0xa1,
  f64Mul: 0xa2,
  f64Div: 0xa3,
} as const;

function unsignedLeb(value: number, out: number[]): void {
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
}

function signedLeb(value: number, out: number[]): void {
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return;
    }
    out.push(byte | 0x80);
  }
}

/** One function's code: named parameters and locals, labelled blocks and loops. */
export class FunctionBuilder {
  readonly code: number[] = [];
  private readonly names = new Map<string, number>();
  private readonly localTypes: ValueType[] = [];
  private readonly labels: string[] = [];

  constructor(
    readonly params: readonly (readonly [string, ValueType])[],
    readonly result: ValueType | undefined,
  ) {
    params.forEach(([name], i) => this.names.set(name, i));
  }

  /** Declares locals (zero-initialised by WebAssembly). */
  locals(type: ValueType, ...names: string[]): this {
    for (const name of names) {
      if (this.names.has(name)) throw new Error(`local ${name} declared twice`);
      this.names.set(name, this.params.length + this.localTypes.length);
      this.localTypes.push(type);
    }
    return this;
  }

  private index(name: string): number {
    const index = this.names.get(name);
    if (index === undefined) throw new Error(`unknown local ${name}`);
    return index;
  }

  op(...codes: number[]): this {
    this.code.push(...codes);
    return this;
  }

  get(name: string): this {
    this.code.push(0x20);
    unsignedLeb(this.index(name), this.code);
    return this;
  }

  set(name: string): this {
    this.code.push(0x21);
    unsignedLeb(this.index(name), this.code);
    return this;
  }

  tee(name: string): this {
    this.code.push(0x22);
    unsignedLeb(this.index(name), this.code);
    return this;
  }

  i32(value: number): this {
    this.code.push(0x41);
    signedLeb(value | 0, this.code);
    return this;
  }

  f64(value: number): this {
    this.code.push(0x44);
    const bytes = new Uint8Array(new Float64Array([value]).buffer);
    this.code.push(...bytes);
    return this;
  }

  /** `base + (index << 2)` or `<< 3`: the address of an element, both locals. */
  address(base: string, index: string, shift: 2 | 3): this {
    return this.get(base).get(index).i32(shift).op(Op.i32Shl, Op.i32Add);
  }

  /** Loads the i32 at `base[index]`. */
  loadI32(base: string, index: string): this {
    this.address(base, index, 2);
    return this.op(0x28, 2, 0);
  }

  /** Loads the f64 at `base[index]`. */
  loadF64(base: string, index: string): this {
    this.address(base, index, 3);
    return this.op(0x2b, 3, 0);
  }

  /** Loads the i32 at the address on the stack plus `offset` bytes. */
  loadI32Offset(offset: number): this {
    this.code.push(0x28, 2);
    unsignedLeb(offset, this.code);
    return this;
  }

  /** Loads the byte at `base + index`, unsigned. */
  loadU8(base: string, index: string): this {
    return this.get(base).get(index).op(Op.i32Add, 0x2d, 0, 0);
  }

  /** Stores an i32 at `base[index]`: `value` pushes it. */
  storeI32(base: string, index: string, value: () => void): this {
    this.address(base, index, 2);
    value();
    return this.op(0x36, 2, 0);
  }

  /** Stores an f64 at `base[index]`: `value` pushes it. */
  storeF64(base: string, index: string, value: () => void): this {
    this.address(base, index, 3);
    value();
    return this.op(0x39, 3, 0);
  }

  /** Stores an i32 at a fixed offset from the address in local `base`. */
  storeI32At(base: string, offset: number, value: () => void): this {
    this.get(base);
    value();
    this.code.push(0x36, 2);
    unsignedLeb(offset, this.code);
    return this;
  }

  /** Stores an f64 at a fixed offset from the address in local `base`. */
  storeF64At(base: string, offset: number, value: () => void): this {
    this.get(base);
    value();
    this.code.push(0x39, 3);
    unsignedLeb(offset, this.code);
    return this;
  }

  block(label: string, body: () => void): this {
    this.code.push(0x02, 0x40);
    this.labels.push(label);
    body();
    this.labels.pop();
    this.code.push(0x0b);
    return this;
  }

  loop(label: string, body: () => void): this {
    this.code.push(0x03, 0x40);
    this.labels.push(label);
    body();
    this.labels.pop();
    this.code.push(0x0b);
    return this;
  }

  /** `if` on the i32 on the stack, with an optional `else`. */
  if(then: () => void, otherwise?: () => void): this {
    this.code.push(0x04, 0x40);
    this.labels.push('');
    then();
    if (otherwise) {
      this.code.push(0x05);
      otherwise();
    }
    this.labels.pop();
    this.code.push(0x0b);
    return this;
  }

  private depth(label: string): number {
    const at = this.labels.lastIndexOf(label);
    if (at < 0 || label === '') throw new Error(`no enclosing label ${label}`);
    return this.labels.length - 1 - at;
  }

  br(label: string): this {
    this.code.push(0x0c);
    unsignedLeb(this.depth(label), this.code);
    return this;
  }

  brIf(label: string): this {
    this.code.push(0x0d);
    unsignedLeb(this.depth(label), this.code);
    return this;
  }

  /** The function's body as the code section holds it: locals, then the code and `end`. */
  encode(): number[] {
    const body: number[] = [];
    const runs: [number, ValueType][] = [];
    for (const type of this.localTypes) {
      const last = runs[runs.length - 1];
      if (last && last[1] === type) last[0]++;
      else runs.push([1, type]);
    }
    unsignedLeb(runs.length, body);
    for (const [count, type] of runs) {
      unsignedLeb(count, body);
      body.push(TYPE_CODE[type]);
    }
    body.push(...this.code, 0x0b);
    const out: number[] = [];
    unsignedLeb(body.length, out);
    out.push(...body);
    return out;
  }
}

function section(id: number, content: number[]): number[] {
  const out = [id];
  unsignedLeb(content.length, out);
  out.push(...content);
  return out;
}

function name(text: string, out: number[]): void {
  const bytes = new TextEncoder().encode(text);
  unsignedLeb(bytes.length, out);
  out.push(...bytes);
}

/** A module importing `env.memory` and exporting the functions under their names. */
export function encodeModule(functions: readonly (readonly [string, FunctionBuilder])[]): Uint8Array {
  const types: number[] = [];
  unsignedLeb(functions.length, types);
  for (const [, fn] of functions) {
    types.push(0x60);
    unsignedLeb(fn.params.length, types);
    for (const [, type] of fn.params) types.push(TYPE_CODE[type]);
    if (fn.result) types.push(1, TYPE_CODE[fn.result]);
    else types.push(0);
  }
  const imports: number[] = [1];
  name('env', imports);
  name('memory', imports);
  imports.push(0x02, 0x00, 0x01);
  const declared: number[] = [];
  unsignedLeb(functions.length, declared);
  functions.forEach((_, i) => unsignedLeb(i, declared));
  const exports: number[] = [];
  unsignedLeb(functions.length, exports);
  functions.forEach(([exported], i) => {
    name(exported, exports);
    exports.push(0x00);
    unsignedLeb(i, exports);
  });
  const code: number[] = [];
  unsignedLeb(functions.length, code);
  for (const [, fn] of functions) code.push(...fn.encode());
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, types),
    ...section(2, imports),
    ...section(3, declared),
    ...section(7, exports),
    ...section(10, code),
  ]);
}

/** What a kernel needs of the WebAssembly API (typed here: the project's libraries do not declare it). */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Memory: new (descriptor: { initial: number }) => KernelMemory;
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

/** A kernel instance's memory. */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
}

/** An instance of a kernel over its own memory. */
export interface KernelInstance {
  readonly memory: KernelMemory;
  readonly exports: Readonly<Record<string, unknown>>;
}

const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;

/** Addresses are i32: a kernel's memory stays below 2 GiB. */
export const KERNEL_MAX_BYTES = 2 ** 31 - 1;

/**
 * A kernel's instantiation: the module is encoded and compiled on first use, once per process;
 * each call gives an instance over a fresh, zeroed memory of at least `bytes`. Undefined where
 * WebAssembly is unavailable or the memory cannot be had: the caller then runs its TypeScript.
 *
 * @example
 * ```ts
 * const instantiate = kernel(() => encodeModule([['sum', sumFunction()]]));
 * const instance = instantiate(4 * values.length);
 * ```
 */
export function kernel(encode: () => Uint8Array): (bytes: number) => KernelInstance | undefined {
  let compiled: object | null | undefined;
  return (bytes) => {
    if (compiled === undefined) {
      try {
        compiled = api ? new api.Module(encode()) : null;
      } catch {
        compiled = null;
      }
    }
    if (compiled === null || !api || !(bytes <= KERNEL_MAX_BYTES)) return undefined;
    try {
      const memory = new api.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
      const { exports } = new api.Instance(compiled, { env: { memory } });
      return { memory, exports };
    } catch {
      return undefined;
    }
  };
}

/**
 * A module's bytes from base64: kernels keep their emitted bytes as text, since running the
 * emitter is cold code in every process.
 *
 * @example
 * ```ts
 * const instantiate = kernel(() => kernelBytes(SUM_KERNEL));
 * ```
 */
export function kernelBytes(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * A memory layout: each region 8-byte aligned, in the order taken.
 *
 * @example
 * ```ts
 * const layout = new KernelLayout();
 * const values = layout.take(8 * n);
 * const instance = instantiate(layout.bytes);
 * ```
 */
export class KernelLayout {
  bytes = 0;

  take(size: number): number {
    const at = this.bytes;
    this.bytes += Math.ceil(size / 8) * 8;
    return at;
  }
}
