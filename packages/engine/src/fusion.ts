import type { GraphNode } from '@knowing/graph';
import { symbolPath } from '@knowing/graph';
import { termCounter } from '@knowing/keywords';
import type { ChannelHit, ChannelName, FusedCandidate } from './types.js';

/**
 * Weighted reciprocal rank fusion: each channel contributes weight / (k + rank + 1) for every
 * hit (rank 0-based). Zero-weight and empty channels are skipped. Ties are broken by the order
 * in which candidates first appeared (channels in the given order), so fusion is deterministic.
 */
export function fuseChannels(
  channels: Readonly<Partial<Record<ChannelName, readonly ChannelHit[]>>>,
  weights: Readonly<Record<ChannelName, number>>,
  k: number,
  limit: number,
): FusedCandidate[] {
  const entries = new Map<string, { node: GraphNode; score: number; order: number; channels: ChannelName[]; details: Partial<Record<ChannelName, string>> }>();
  let order = 0;
  for (const [name, hits] of Object.entries(channels) as [ChannelName, readonly ChannelHit[]][]) {
    const weight = weights[name] ?? 1;
    if (!hits || hits.length === 0 || weight <= 0) continue;
    hits.forEach((hit, rank) => {
      let entry = entries.get(hit.node.id);
      if (!entry) {
        entry = { node: hit.node, score: 0, order: order++, channels: [], details: {} };
        entries.set(hit.node.id, entry);
      }
      entry.score += weight / (k + rank + 1);
      if (!entry.channels.includes(name)) {
        entry.channels.push(name);
        entry.details[name] = hit.detail;
      }
    });
  }
  return [...entries.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ node, score, channels: names, details }) => ({ node, score, channels: names, details }));
}

/**
 * Add `bonus` per task term each candidate's own path names (at most `cap` terms) to its fused
 * score and re-sort, keeping the first `limit`. Order among equal scores is kept.
 */
export function boostTermMatches(
  candidates: readonly FusedCandidate[],
  terms: ReadonlySet<string>,
  bonus: number,
  limit: number,
  cap = 4,
): FusedCandidate[] {
  if (bonus <= 0 || terms.size === 0) return candidates.slice(0, limit);
  const termMatches = termCounter(terms);
  return candidates
    .map((candidate, order) => ({ candidate, order, score: candidate.score + bonus * Math.min(cap, termMatches(symbolPath(candidate.node.qualifiedName, candidate.node.file))) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ candidate, score }) => ({ ...candidate, score }));
}
