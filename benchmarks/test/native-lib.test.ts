import { describe, expect, it } from 'vitest';
import { NATIVE_GRAMMARS, NATIVE_RUNTIME, nativePackageSpecs, peerConflict } from '../src/native-lib.js';

describe('nativePackageSpecs', () => {
  it('names the runtime and each grammar package once, at its pinned version', () => {
    const specs = nativePackageSpecs();
    expect(specs[0]).toBe(`${NATIVE_RUNTIME.name}@${NATIVE_RUNTIME.version}`);
    // typescript and tsx come from one package.
    expect(specs.filter((spec) => spec.startsWith('tree-sitter-typescript@'))).toEqual(['tree-sitter-typescript@0.23.2']);
    expect(new Set(specs).size).toBe(specs.length);
    for (const grammar of NATIVE_GRAMMARS) expect(specs).toContain(`${grammar.packageName}@${grammar.version}`);
  });
});

describe('peerConflict', () => {
  it("reads the package npm could not resolve from an ERESOLVE failure, in npm's current and older wording", () => {
    const current = ['npm error code ERESOLVE', 'npm error ERESOLVE could not resolve', 'npm error', 'npm error While resolving: tree-sitter-c-sharp@0.23.1', 'npm error Found: tree-sitter@0.25.0'].join('\n');
    expect(peerConflict(current)).toBe('tree-sitter-c-sharp@0.23.1');
    expect(peerConflict('npm ERR! code ERESOLVE\nnpm ERR! While resolving: tree-sitter-java@0.23.5\n')).toBe('tree-sitter-java@0.23.5');
  });

  it('is undefined when the install resolved, even with a warning about an overridden peer', () => {
    expect(peerConflict('npm warn ERESOLVE overriding peer dependency\nadded 9 packages in 36s\n')).toBeUndefined();
    expect(peerConflict('added 9 packages in 2s\n')).toBeUndefined();
  });
});
