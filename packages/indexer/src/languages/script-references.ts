/**
 * The references the script extractor records in one file: one per source, kind, name, line
 * and receiver, and the tentative ones (identifier uses, calls of JavaScript globals) that
 * survive only if the file imports or defines the name after all. Not part of the
 * language-module contract.
 */
import { lookupLocal } from './script-walk.js';
import type { Frame } from './script-walk.js';
import type { NameRef, Reference, ReferenceKind } from './types.js';

/** Global functions and constructors of JavaScript runtimes: calls to them lead nowhere in the repository. */
const GLOBAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'Array', 'ArrayBuffer', 'BigInt', 'Boolean', 'DataView', 'Date', 'Error', 'EvalError', 'Function', 'Map', 'Number',
  'Object', 'Promise', 'Proxy', 'RangeError', 'ReferenceError', 'RegExp', 'Set', 'String', 'Symbol', 'SyntaxError',
  'TypeError', 'URIError', 'WeakMap', 'WeakRef', 'WeakSet', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
  'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
  'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'AbortController', 'Headers', 'Request', 'Response',
  'FormData', 'Blob', 'Event', 'EventTarget', 'CustomEvent', 'parseInt', 'parseFloat', 'isNaN', 'isFinite',
  'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI', 'setTimeout', 'clearTimeout', 'setInterval',
  'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'structuredClone', 'fetch', 'atob', 'btoa',
  'require', 'eval', 'alert',
  // Test-runner globals (Jest, Mocha, Jasmine) when a test file does not import them.
  'describe', 'it', 'test', 'expect', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'before', 'after', 'xit',
  'xdescribe', 'fit', 'fdescribe',
]);

/** Global objects whose methods are runtime APIs (`console.log`, `Object.assign`, `JSON.parse`). */
const GLOBAL_OBJECTS: ReadonlySet<string> = new Set([
  'console', 'Math', 'JSON', 'Object', 'Array', 'Promise', 'Number', 'String', 'Reflect', 'Symbol', 'Date', 'Intl',
  'BigInt', 'Atomics', 'process', 'globalThis', 'window', 'document', 'navigator', 'Buffer', 'URL', 'localStorage',
  'sessionStorage', 'performance', 'crypto', 'module', 'exports', 'jest', 'vi', 'describe', 'it', 'test', 'expect',
]);

export class ReferenceTable {
  private readonly references: Reference[] = [];
  private readonly keys = new Set<string>();
  /** Identifier uses kept only if the name turns out to be imported or defined at file level. */
  private readonly valueCandidates = new Set<Reference>();
  /** Calls of JavaScript globals, kept only if the file imports or defines the name after all. */
  private readonly globalCandidates = new Set<Reference>();

  add(name: string, qualifier: readonly string[], kind: ReferenceKind, from: number, line: number, receiverType: NameRef | undefined): Reference | undefined {
    const key = `${from}|${kind}|${qualifier.join('.')}|${name}|${line}|${receiverType ? receiverType.name : ''}`;
    if (this.keys.has(key)) return undefined;
    this.keys.add(key);
    const ref: { -readonly [K in keyof Reference]: Reference[K] } = { name, qualifier, from, kind, line };
    if (receiverType) ref.receiverType = receiverType;
    this.references.push(ref);
    return ref;
  }

  /** A `value` use, kept only if its head turns out to be imported or defined at file level. */
  addValueUse(name: string, qualifier: readonly string[], from: number, line: number): void {
    const ref = this.add(name, qualifier, 'value', from, line, undefined);
    if (ref) this.valueCandidates.add(ref);
  }

  /**
   * A call or construction, unless it cannot lead anywhere: a bare call of a parameter or local
   * (`next()`, `onPress()`), or of a JavaScript global (`new Map()`, `console.log()`,
   * `Object.assign()`) that the file neither imports nor defines.
   */
  addCall(name: string, qualifier: readonly string[], kind: ReferenceKind, f: Frame, line: number, receiverType: NameRef | undefined): void {
    const head = qualifier[0];
    if (head === undefined) {
      const local = lookupLocal(name, f);
      if (local && !local.moduleLevel) return;
      const ref = this.add(name, qualifier, kind, f.def, line, receiverType);
      if (ref && GLOBAL_FUNCTIONS.has(name) && !local) this.globalCandidates.add(ref);
      return;
    }
    const ref = this.add(name, qualifier, kind, f.def, line, receiverType);
    if (ref && GLOBAL_OBJECTS.has(head) && !lookupLocal(head, f)) this.globalCandidates.add(ref);
  }

  /** The references to emit: the tentative ones only when `isDeclared` says their head is imported or defined. */
  kept(isDeclared: (head: string) => boolean): Reference[] {
    if (this.valueCandidates.size === 0 && this.globalCandidates.size === 0) return this.references;
    return this.references.filter((ref) => {
      if (!this.valueCandidates.has(ref) && !this.globalCandidates.has(ref)) return true;
      return isDeclared(ref.qualifier[0] ?? ref.name);
    });
  }
}
