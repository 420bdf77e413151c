import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexRepository } from '../src/index.js';
import { isTestSupportPath } from '../src/languages/common.js';
import { createMemoryStore } from './helpers/memory-store.js';

describe('test code by layout', () => {
  it('counts a top-level testing/ and test-support packages, in any language', () => {
    expect(isTestSupportPath('crates/cargo-test-support/src/lib.rs')).toBe(true);
    expect(isTestSupportPath('internal/testutil/server.go')).toBe(true);
    expect(isTestSupportPath('pkg/test_helpers/fixtures.py')).toBe(true);
    expect(isTestSupportPath('testing/Ocelot.AcceptanceTests/Steps.cs')).toBe(true);
    // A library's own module about testing, a nested testing/ package, a file named like a folder.
    expect(isTestSupportPath('src/flask/testing.py')).toBe(false);
    expect(isTestSupportPath('lib/rails/testing/assertions.rb')).toBe(false);
    expect(isTestSupportPath('src/test_support.rs')).toBe(false);
    expect(isTestSupportPath('testing')).toBe(false);
  });

  describe('in an index', () => {
    let root: string;
    beforeEach(async () => {
      root = await mkdtemp(path.join(tmpdir(), 'knowing-test-support-'));
      await mkdir(path.join(root, 'crates', 'shop-test-support', 'src'), { recursive: true });
      await mkdir(path.join(root, 'crates', 'shop', 'src'), { recursive: true });
      await writeFile(path.join(root, 'crates', 'shop-test-support', 'src', 'lib.rs'), 'pub fn sample_cart() -> u32 { 1 }\n');
      await writeFile(path.join(root, 'crates', 'shop', 'src', 'lib.rs'), 'pub fn total() -> u32 { 2 }\n');
    });
    afterEach(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it('marks the symbols of a test-support crate as test code, and the library beside it not', async () => {
      const store = createMemoryStore();
      await indexRepository({ root, store, repoId: 'shop', workers: 0 });
      const [support] = await store.findNodesByName('sample_cart', { match: 'exact' });
      const [library] = await store.findNodesByName('total', { match: 'exact' });
      expect(support?.isTest).toBe(true);
      expect(library?.isTest).toBe(false);
    });
  });
});
