import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeExtraction, encodeExtraction, EXTRACTION_CODEC_VERSION } from '../src/codec.js';
import { pythonLanguage } from '../src/languages/python.js';
import { createParser, withTree } from '../src/parser.js';

const shop = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'python', 'shop');

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

  it('ignores notes of another codec version or damaged notes', () => {
    const other = new TextEncoder().encode(JSON.stringify([EXTRACTION_CODEC_VERSION + 1, 'h', '1', 'a.py', 'python', '', 0, [], [], []]));
    expect(decodeExtraction(other)).toBeUndefined();
    expect(decodeExtraction(new TextEncoder().encode('{not json'))).toBeUndefined();
  });
});
