import { describe, expect, it } from 'vitest';
import { createParser, loadGrammar, preloadGrammars, withTree } from '../src/parser.js';
import type { GrammarName } from '../src/parser.js';

describe('preloadGrammars', () => {
  it('starts the load a later parse uses: the grammar loaded in the background is the one handed out', async () => {
    preloadGrammars(['ruby']);
    const [first, second] = await Promise.all([loadGrammar('ruby'), loadGrammar('ruby')]);
    expect(second).toBe(first);
    const parser = await createParser('ruby');
    expect(withTree(parser, 'class A; def b; end; end\n', (tree) => tree.rootNode.firstNamedChild?.type)).toBe('class');
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
