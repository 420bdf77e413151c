import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  edgeWeight,
  EDGE_TYPES,
  isStructuralEdge,
  merkleRoot,
  nodeId,
  sha256Hex,
  packageOf,
  qualifiedName,
  symbolPath,
  KnowingError,
  ErrorCode,
} from '../src/index.js';
import { DEFAULT_EDGE_WEIGHT } from '../src/edge-types.js';

describe('nodeId', () => {
  it('is 32 hex chars and depends on repo, qualified name and kind', () => {
    const id = nodeId('r', 'src/a.py.A.run', 'method');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(nodeId('r', 'src/a.py.A.run', 'method')).toBe(id);
    expect(nodeId('r2', 'src/a.py.A.run', 'method')).not.toBe(id);
    expect(nodeId('r', 'src/a.py.A.runs', 'method')).not.toBe(id);
    expect(nodeId('r', 'src/a.py.A.run', 'function')).not.toBe(id);
  });

  it('does not collide when fields are re-split', () => {
    expect(nodeId('ab', 'c', 'method')).not.toBe(nodeId('a', 'bc', 'method'));
  });
});

describe('edge weights', () => {
  it('uses the registry, respects explicit zeros and defaults unknown types', () => {
    expect(edgeWeight('calls')).toBe(1);
    expect(edgeWeight('owned_by')).toBe(0);
    expect(edgeWeight('something_new')).toBe(DEFAULT_EDGE_WEIGHT);
    expect(edgeWeight('calls', { calls: 0 })).toBe(0);
    expect(edgeWeight('imports', { calls: 0 })).toBe(0.5);
  });

  it('lists every type once and marks structural ones', () => {
    const types = EDGE_TYPES.map((t) => t.type);
    expect(new Set(types).size).toBe(types.length);
    for (const t of ['calls', 'imports', 'contains', 'member_of', 'inherits', 'tests', 'tested_by', 'co_tested_with', 'accesses_field', 'type_hint_of', 'decorates', 'overrides', 'extends', 'implements', 'references']) {
      expect(types).toContain(t);
    }
    expect(isStructuralEdge('contains')).toBe(true);
    expect(isStructuralEdge('calls')).toBe(false);
  });
});

describe('merkleRoot', () => {
  const leaves = ['a', 'b', 'c'].map((x) => sha256Hex(x));
  it('ignores input order and changes with content', () => {
    expect(merkleRoot(leaves)).toBe(merkleRoot([...leaves].reverse()));
    expect(merkleRoot(leaves)).not.toBe(merkleRoot(leaves.slice(0, 2)));
  });
  it('returns the single leaf and zeros for none', () => {
    expect(merkleRoot([leaves[0]!])).toBe(leaves[0]);
    expect(merkleRoot([])).toBe('0'.repeat(64));
  });

  /** The documented rule, spelled out: sort, pair left to right (odd last leaf with itself), hash `merkle\0‖left‖right`. */
  function byTheRule(input: readonly string[]): string {
    let level = [...input].sort();
    while (level.length > 1) {
      const next: string[] = [];
      for (let i = 0; i < level.length; i += 2) {
        const pair = Buffer.concat([Buffer.from('merkle\0'), Buffer.from(level[i]!, 'hex'), Buffer.from(level[i + 1] ?? level[i]!, 'hex')]);
        next.push(createHash('sha256').update(pair).digest('hex'));
      }
      level = next;
    }
    return level[0]!;
  }

  it.each([2, 3, 4, 5, 7, 8, 9, 1000, 1001])('follows the documented rule over %i digests', (count) => {
    const digests = Array.from({ length: count }, (_, i) => sha256Hex(`leaf ${i}`));
    expect(merkleRoot(digests)).toBe(byTheRule(digests));
  });

  it('follows the same rule for leaves that are not 64-digit digests (upper case, short, not hex)', () => {
    const mixed = [sha256Hex('x').toUpperCase(), sha256Hex('y'), 'abcd', 'not hex at all', sha256Hex('z')];
    expect(merkleRoot(mixed)).toBe(byTheRule(mixed));
    const badDigest = [sha256Hex('p'), `${sha256Hex('q').slice(0, 62)}zz`, sha256Hex('r')];
    expect(merkleRoot(badDigest)).toBe(byTheRule(badDigest));
    const upper = [sha256Hex('u').toUpperCase(), sha256Hex('v').toUpperCase(), sha256Hex('w')];
    expect(merkleRoot(upper)).toBe(byTheRule(upper));
  });
});

describe('names', () => {
  it('builds and splits qualified names', () => {
    const qn = qualifiedName('src/flask/app.py', ['Flask'], 'run');
    expect(qn).toBe('src/flask/app.py.Flask.run');
    expect(symbolPath(qn, 'src/flask/app.py')).toBe('Flask.run');
    expect(packageOf('src/flask/app.py')).toBe('src/flask');
    expect(packageOf('setup.py')).toBe('.');
  });
});

describe('KnowingError', () => {
  it('carries a code, a source prefix and a hint', () => {
    const error = new KnowingError(ErrorCode.SchemaTooNew, 'x.db was written by schema v7', { source: 'store-sqlite', hint: 'upgrade knowing' });
    expect(error.code).toBe('STORE_SCHEMA_TOO_NEW');
    expect(error.message).toBe('[knowing:store-sqlite] x.db was written by schema v7 — upgrade knowing');
  });
});
