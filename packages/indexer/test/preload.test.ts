import { describe, expect, it, vi } from 'vitest';
import { Language } from 'web-tree-sitter';
import { createParser, loadGrammar, preloadGrammars, withTree } from '../src/parser.js';
import type { GrammarName } from '../src/parser.js';

describe('preloadGrammars', () => {
  it('starts loading the grammars named without being awaited, and a later parse gets that very grammar', async () => {
    const load = vi.spyOn(Language, 'load');
    try {
      preloadGrammars(['ruby']);
      // Nothing asked for the grammar yet: the preload itself reads it, and hands over its bytes.
      await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
      const bytes = load.mock.calls[0]![0] as Uint8Array;
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('\0asm');
      expect(await loadGrammar('ruby')).toBe(await load.mock.results[0]!.value);
      expect(load).toHaveBeenCalledTimes(1);
      const parser = await createParser('ruby');
      expect(withTree(parser, 'class A; def b; end; end\n', (tree) => tree.rootNode.firstNamedChild?.type)).toBe('class');
    } finally {
      load.mockRestore();
    }
  });

  it('leaves a grammar that cannot load to the parse that needs it, without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      preloadGrammars(['cobol' as GrammarName]);
      await expect(loadGrammar('cobol' as GrammarName)).rejects.toThrow(/cobol/);
      // A turn of the event loop for a rejection nobody handled to be reported.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
