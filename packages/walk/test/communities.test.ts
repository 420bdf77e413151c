import { describe, expect, it } from 'vitest';
import { ErrorCode, NodeFlag, deserializeAdjacency, serializeAdjacency } from '@knowing/graph';
import { communityRestriction, deserializeCommunities, detectCommunities, randomWalkWithRestart, serializeCommunities } from '../src/index.js';
import { adjacencyFingerprint } from '../src/communities.js';
import { codeOf, graphOf } from './fixtures.js';
import type { EdgeSpec } from './fixtures.js';

function clique(members: readonly string[]): EdgeSpec[] {
  const edges: EdgeSpec[] = [];
  for (let i = 0; i < members.length; i++) for (let j = i + 1; j < members.length; j++) edges.push([members[i]!, members[j]!]);
  return edges;
}

const left = ['l0', 'l1', 'l2', 'l3', 'l4'];
const right = ['r0', 'r1', 'r2', 'r3', 'r4'];
// Interleave the node order so index order says nothing about the cliques.
const nodes = left.flatMap((l, i) => [l, right[i]!]).concat(['ext', 'lonely']);
const edges: EdgeSpec[] = [...clique(left), ...clique(right), ['l0', 'r0'], ['l1', 'ext', 'references'], ['r1', 'ext', 'references'], ['l2', 'r2', 'owned_by']];
const adjacency = graphOf(nodes, edges, { ext: NodeFlag.External });
const at = (id: string) => adjacency.indexOf(id);

describe('detectCommunities', () => {
  const found = detectCommunities(adjacency);

  it('finds two cliques joined by one edge', () => {
    const leftIds = new Set(left.map((id) => found.communities[at(id)]));
    const rightIds = new Set(right.map((id) => found.communities[at(id)]));
    expect(leftIds.size).toBe(1);
    expect(rightIds.size).toBe(1);
    expect([...leftIds][0]).not.toBe([...rightIds][0]);
  });

  it('skips external nodes and numbers communities from 0 by lowest node index', () => {
    expect(found.communities[at('ext')]).toBe(-1);
    expect(found.communities[at('l0')]).toBe(0);
    expect(found.communities[at('r0')]).toBe(1);
    // The node without edges is a community of its own.
    expect(found.count).toBe(3);
  });

  it('is deterministic for a given seed', () => {
    const again = detectCommunities(adjacency);
    expect([...again.communities]).toEqual([...found.communities]);
    expect(again.fingerprint).toBe(found.fingerprint);
  });

  it('round-trips through bytes and checks it is read against the same adjacency', () => {
    const bytes = serializeCommunities(found);
    const back = deserializeCommunities(bytes, { adjacency });
    expect([...back.communities]).toEqual([...found.communities]);
    expect(back.count).toBe(found.count);
    const other = graphOf([...nodes].reverse(), edges);
    expect(codeOf(() => deserializeCommunities(bytes, { adjacency: other }))).toBe(ErrorCode.BadFormat);
    expect(codeOf(() => deserializeCommunities(bytes.subarray(0, 20)))).toBe(ErrorCode.BadFormat);
    const wrongVersion = bytes.slice();
    wrongVersion[6] = 9;
    expect(codeOf(() => deserializeCommunities(wrongVersion))).toBe(ErrorCode.BadFormat);
    const outOfRange = bytes.slice();
    new DataView(outOfRange.buffer).setInt32(outOfRange.length - 4, 99, true);
    expect(codeOf(() => deserializeCommunities(outOfRange))).toBe(ErrorCode.BadFormat);
  });
});

describe('adjacencyFingerprint', () => {
  it('is the same for an adjacency decoded from bytes as for one built with the same ids', () => {
    const ids = ['a', 'b.\u00e9t\u00e9', '\u{1F600}', 'pkg/x.go.T.m', 'lone \uD800 half'];
    const built = graphOf(ids, [['a', 'b.\u00e9t\u00e9'], ['\u{1F600}', 'pkg/x.go.T.m']]);
    const decoded = deserializeAdjacency(serializeAdjacency(built));
    // A lone surrogate is written as U+FFFD: the decoded ids are what an index would hold.
    const rebuilt = graphOf(decoded.ids, [['a', 'b.\u00e9t\u00e9'], ['\u{1F600}', 'pkg/x.go.T.m']]);
    expect(adjacencyFingerprint(decoded)).toBe(adjacencyFingerprint(rebuilt));
    expect(adjacencyFingerprint(decoded)).not.toBe(adjacencyFingerprint(graphOf([...decoded.ids].reverse(), [])));
    // Communities stored for the built graph are read against the decoded one.
    const stored = serializeCommunities(detectCommunities(rebuilt));
    expect(deserializeCommunities(stored, { adjacency: decoded }).count).toBeGreaterThan(0);
  });
});

describe('communityRestriction', () => {
  const found = detectCommunities(adjacency);

  it('allows the one community all seeds share', () => {
    const allowed = communityRestriction(found, [at('l1'), at('l3')]);
    expect(allowed).toBeDefined();
    const allowedIds = nodes.filter((id) => allowed![at(id)] === 1);
    expect(allowedIds.sort()).toEqual([...left].sort());
    expect(communityRestriction(found, [at('l1')], { includeUnassigned: true })![at('ext')]).toBe(1);
  });

  it('does not restrict when seeds span communities, lack one, or are absent', () => {
    expect(communityRestriction(found, [at('l1'), at('r1')])).toBeUndefined();
    expect(communityRestriction(found, [at('l1'), at('ext')])).toBeUndefined();
    expect(communityRestriction(found, [])).toBeUndefined();
    expect(codeOf(() => communityRestriction(found, [99]))).toBe(ErrorCode.InvalidArgument);
  });

  it('keeps a restricted walk inside the community', () => {
    const allowed = communityRestriction(found, [at('l1')])!;
    const { scores } = randomWalkWithRestart(adjacency, [{ id: 'l1' }], { allowed });
    for (const id of right) expect(scores[at(id)]).toBe(0);
    expect(scores[at('l0')]).toBeGreaterThan(0);
    const free = randomWalkWithRestart(adjacency, [{ id: 'l1' }]);
    expect(free.scores[at('r3')]).toBeGreaterThan(0);
  });
});
