import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeExtraction, decodeTables, encodeExtraction, encodeTables, EXTRACTION_CODEC_VERSION, peekContentHash, peekTablesId, TABLES_CODEC_VERSION } from '../src/codec.js';
import type { FileExtraction, LanguageModule } from '../src/languages/types.js';
import { pythonLanguage } from '../src/languages/python.js';
import { rubyLanguage } from '../src/languages/ruby.js';
import { rustLanguage } from '../src/languages/rust.js';
import { createParser, withTree } from '../src/parser.js';
import { tableOf } from '../src/state.js';

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

  it('tells the content hash a note was made for without decoding it', async () => {
    const extraction = await extractFixture(pythonLanguage, shop, 'src/shop/models.py');
    const hash = 'ab'.repeat(32);
    expect(peekContentHash(encodeExtraction(extraction, hash, '1'))).toBe(hash);
    expect(peekContentHash(encodeExtraction(extraction, '', '1'))).toBe('');
    const other = new TextEncoder().encode(JSON.stringify([EXTRACTION_CODEC_VERSION + 1, hash, '1', 'a.py', 'python', '', 0, [], [], []]));
    expect(peekContentHash(other)).toBeUndefined();
  });

  it('ignores notes of another codec version or damaged notes', () => {
    const other = new TextEncoder().encode(JSON.stringify([EXTRACTION_CODEC_VERSION + 1, 'h', '1', 'a.py', 'python', '', 0, [], [], []]));
    expect(decodeExtraction(other)).toBeUndefined();
    expect(decodeExtraction(new TextEncoder().encode('{not json'))).toBeUndefined();
  });
});

async function extractFixture(module: LanguageModule, root: string, file: string): Promise<FileExtraction> {
  const parser = await createParser(module.grammarFor(file));
  const source = await readFile(path.join(root, file), 'utf8');
  return withTree(parser, source, (tree) => module.extract(tree.rootNode, source, file));
}

describe('symbol tables codec', () => {
  const cases = [
    { module: pythonLanguage, root: shop, file: 'src/shop/service.py' },
    { module: rubyLanguage, root: path.join(fixtures, 'ruby'), file: 'lib/shop/pricing/calculator.rb' },
    { module: rustLanguage, root: path.join(fixtures, 'rust'), file: 'crates/inventory/src/report.rs' },
  ];

  it('round-trips full extractions and their tables exactly, in order', async () => {
    const extractions = await Promise.all(cases.map(({ module, root, file }) => extractFixture(module, root, file)));
    const tables = extractions.map(tableOf);
    for (const list of [extractions, tables]) {
      const decoded = decodeTables(encodeTables(list).bytes);
      expect(decoded?.tables).toEqual(JSON.parse(JSON.stringify(list)));
    }
  });

  it('names the blob by its content, so a state can tell its own tables from others', async () => {
    const tables = (await Promise.all(cases.map(({ module, root, file }) => extractFixture(module, root, file)))).map(tableOf);
    const first = encodeTables(tables);
    expect(encodeTables(tables).id).toBe(first.id);
    expect(decodeTables(first.bytes)?.id).toBe(first.id);
    expect(peekTablesId(first.bytes)).toBe(first.id);
    expect(encodeTables(tables.slice(1)).id).not.toBe(first.id);
  });

  it('ignores blobs of another codec version, damaged or of the wrong shape', () => {
    const encoder = new TextEncoder();
    const otherVersion = encoder.encode(JSON.stringify([TABLES_CODEC_VERSION + 1, 'id', [[''], [], []]]));
    expect(decodeTables(otherVersion)).toBeUndefined();
    expect(peekTablesId(otherVersion)).toBeUndefined();
    expect(decodeTables(encoder.encode('[1,"id",'))).toBeUndefined();
    expect(decodeTables(encoder.encode(JSON.stringify([TABLES_CODEC_VERSION, 'id', [[''], [], [7]]])))).toBeUndefined();
  });
});
