import { describe, expect, it } from 'vitest';
import { ErrorCode, KnowingError, isKnowingError } from '../src/index.js';

describe('KnowingError across copies of the package', () => {
  it("recognises another copy's errors, as a bundled CLI must recognise the indexer's", async () => {
    // A second instance of the module, as a bundle or a plugin's own dependency would load it.
    const copy: string = '../src/errors.ts?another-copy';
    const other = (await import(/* @vite-ignore */ copy)) as typeof import('../src/errors.js');
    expect(other.KnowingError).not.toBe(KnowingError);
    const foreign = new other.KnowingError(ErrorCode.NotFound, 'no such file', { source: 'indexer' });
    expect(foreign instanceof KnowingError).toBe(true);
    expect(isKnowingError(foreign, ErrorCode.NotFound)).toBe(true);
    expect(isKnowingError(foreign, ErrorCode.InvalidArgument)).toBe(false);
    expect(other.isKnowingError(new KnowingError(ErrorCode.Corrupt, 'bad page'), ErrorCode.Corrupt)).toBe(true);
  });

  it('is not fooled by a plain error of the same name', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'KnowingError', code: ErrorCode.NotFound });
    expect(lookalike instanceof KnowingError).toBe(false);
    expect(isKnowingError(lookalike)).toBe(false);
    expect(isKnowingError(null)).toBe(false);
    expect(isKnowingError('KnowingError')).toBe(false);
  });

  it('keeps instanceof exact for classes that extend it', () => {
    class StoreError extends KnowingError {}
    expect(new StoreError(ErrorCode.Internal, 'x') instanceof StoreError).toBe(true);
    expect(new KnowingError(ErrorCode.Internal, 'x') instanceof StoreError).toBe(false);
    expect(new StoreError(ErrorCode.Internal, 'x') instanceof KnowingError).toBe(true);
  });
});
