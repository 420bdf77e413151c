import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import type { Engine } from '../src/index.js';
import { boundedEditDistance, closestNames, nameEntry } from '../src/suggest.js';
import type { NameIndex } from '../src/suggest.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

const TASK = 'Add a before_request hook that rejects requests without an API key header';
/** The qualified name without its file prefix, as people write it. */
const short = (node: { qualifiedName: string; file: string }): string => node.qualifiedName.slice(node.file.length + 1);

describe('explainSymbol suggests the closest names for an unknown symbol', () => {
  let fixture: Fixture;
  let engine: Engine;

  beforeAll(async () => {
    fixture = await indexedFixture();
    engine = createEngine({ store: fixture.store });
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  it('finds Scaffold.before_request for a misspelled bare name (a deletion, not a substring)', async () => {
    const explanation = await engine.explainSymbol(TASK, 'befor_request');
    expect(explanation.stage).toBe('not_in_graph');
    expect(explanation.symbol).toBeNull();
    expect(short(explanation.suggestions[0]!)).toBe('Scaffold.before_request');
  });

  it('counts a swap of two letters as one edit (Damerau)', async () => {
    const explanation = await engine.explainSymbol(TASK, 'bfeore_request');
    expect(short(explanation.suggestions[0]!)).toBe('Scaffold.before_request');
  });

  it('compares a qualified query with the same number of trailing segments of each qualified name', async () => {
    const explanation = await engine.explainSymbol(TASK, 'Scafold.after_request');
    expect(short(explanation.suggestions[0]!)).toBe('Scaffold.after_request');
    // The right member under the wrong type is still offered.
    const wrongType = await engine.explainSymbol(TASK, 'Blueprint.before_request');
    expect(wrongType.symbol).toBeNull();
    expect(wrongType.suggestions.map(short)).toContain('Scaffold.before_request');
  });

  it('still offers names that contain the query, after the close ones', async () => {
    const explanation = await engine.explainSymbol(TASK, 'before');
    expect(explanation.symbol).toBeNull();
    expect(explanation.suggestions.map(short)).toContain('Scaffold.before_request');
  });

  it('suggests nothing for a name like no other, and nothing when the symbol is found', async () => {
    expect((await engine.explainSymbol(TASK, 'zqxjvkwp')).suggestions).toEqual([]);
    const found = await engine.explainSymbol(TASK, 'Scaffold.before_request');
    expect(found.symbol).not.toBeNull();
    expect(found.suggestions).toEqual([]);
  });

  it('reads the names again when the index changes', async () => {
    expect((await engine.explainSymbol(TASK, 'verify_api_kee')).suggestions).toEqual([]);
    writeFileSync(join(fixture.root, 'tinyweb', 'keys.py'), 'def verify_api_key(request):\n    return request.headers.get("X-Api-Key") is not None\n');
    await fixture.reindex();
    const after = await engine.explainSymbol(TASK, 'verify_api_kee');
    expect(after.suggestions.map((n) => n.name)).toEqual(['verify_api_key']);
  });
});

describe('closestNames', () => {
  it('measures optimal-string-alignment distance and stops past the limit', () => {
    expect(boundedEditDistance('befor_request', 'before_request', 3)).toBe(1);
    expect(boundedEditDistance('bfeore', 'before', 3)).toBe(1);
    expect(boundedEditDistance('kitten', 'sitting', 3)).toBe(3);
    expect(boundedEditDistance('kitten', 'sitting', 2)).toBe(3);
    expect(boundedEditDistance('a', 'abcdef', 2)).toBe(3);
    expect(boundedEditDistance('', 'ab', 3)).toBe(2);
  });

  it('agrees with the full distance table on random strings, within and past the limit', () => {
    const full = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      }
      return d[a.length]![b.length]!;
    };
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = (): string => Array.from({ length: random(9) }, () => 'abc_'[random(4)]).join('');
    for (let k = 0; k < 3000; k++) {
      const a = word();
      const b = word();
      const limit = random(4);
      expect(boundedEditDistance(a, b, limit), `${a} / ${b} / ${limit}`).toBe(Math.min(full(a, b), limit + 1));
    }
  });

  it('ranks the closest first among 50,000 names', () => {
    const entries = [];
    for (let i = 0; i < 50_000; i++) {
      const name = `handler_${i.toString(36)}_${['get', 'post', 'render', 'dispatch'][i % 4]}`;
      entries.push(nameEntry({ id: `id${i}`, name, qualifiedName: `pkg${i % 97}/mod${i % 13}.py.Class${i % 211}.${name}` }));
    }
    entries.push(nameEntry({ id: 'target', name: 'before_request', qualifiedName: 'src/flask/sansio/scaffold.py.Scaffold.before_request' }));
    entries.push(nameEntry({ id: 'other', name: 'before_requests', qualifiedName: 'src/flask/app.py.App.before_requests' }));
    const index: NameIndex = { entries };
    const bare = closestNames(index, 'befor_request');
    const qualified = closestNames(index, 'Scafold.befor_request');
    expect(bare[0]).toBe('target');
    expect(bare).toContain('other');
    expect(qualified[0]).toBe('target');
  });

  it('returns at most the limit, one per qualified name', () => {
    const entries = ['run', 'run', 'ran', 'rung', 'runs', 'urn', 'rn', 'ruin', 'rune', 'runt'].map((name, i) =>
      nameEntry({ id: `id${i}`, name, qualifiedName: i === 1 ? 'a.py.run' : `m${i}.py.${name}` }),
    );
    entries[0] = nameEntry({ id: 'id0', name: 'run', qualifiedName: 'a.py.run' });
    const ids = closestNames({ entries }, 'run', 5);
    expect(ids).toHaveLength(5);
    expect(ids[0]).toBe('id0');
    expect(ids).not.toContain('id1');
  });
});
