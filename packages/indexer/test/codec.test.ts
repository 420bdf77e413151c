import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeExtraction, encodeExtraction, EXTRACTION_CODEC_VERSION } from '../src/codec.js';
import { pythonLanguage } from '../src/languages/python.js';
import { rubyLanguage } from '../src/languages/ruby.js';
import { rustLanguage } from '../src/languages/rust.js';
import { createParser, withTree } from '../src/parser.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const shop = path.join(fixtures, 'python', 'shop');

describe('extraction codec', () => {
  it('round-trips an extraction exactly, with its hash and module version', async () => {
    const parser = await createParser('python');
    for (const file of ['src/shop/models.py', 'src/shop/service.py', 'tests/test_service.py']) {
      const source = await readFile(path.join(shop, file), 'utf8');
      const extraction = withTree(parser, source, (tree) => pythonLanguage.extract(tree.rootNode, source, file));
      const decoded = decodeExtraction(encodeExtraction(extraction, 'abc', '7'));
      expect(decoded).toEqual({ contentHash: 'abc', moduleVersion: '7', extraction: JSON.parse(JSON.stringify(extraction)) });
    }
  });

  it('round-trips local names (Ruby) and implementations (Rust)', async () => {
    const cases = [
      { module: rubyLanguage, file: 'lib/shop/pricing/calculator.rb', root: path.join(fixtures, 'ruby') },
      { module: rustLanguage, file: 'crates/inventory/src/report.rs', root: path.join(fixtures, 'rust') },
    ];
    for (const { module, file, root } of cases) {
      const parser = await createParser(module.grammarFor(file));
      const source = await readFile(path.join(root, file), 'utf8');
      const extraction = withTree(parser, source, (tree) => module.extract(tree.rootNode, source, file));
      expect(extraction.symbols.some((symbol) => symbol.localName !== undefined) || (extraction.implementations?.length ?? 0) > 0).toBe(true);
      const decoded = decodeExtraction(encodeExtraction(extraction, 'h', '1'));
      expect(decoded?.extraction).toEqual(JSON.parse(JSON.stringify(extraction)));
    }
  });

  it('ignores notes of another codec version or damaged notes', () => {
    const other = new TextEncoder().encode(JSON.stringify([EXTRACTION_CODEC_VERSION + 1, 'h', '1', 'a.py', 'python', '', 0, [], [], []]));
    expect(decodeExtraction(other)).toBeUndefined();
    expect(decodeExtraction(new TextEncoder().encode('{not json'))).toBeUndefined();
  });
});
