import type { GraphNode, NodeId } from '@knowing/graph';
import { symbolPath } from '@knowing/graph';
import { termMatcher } from '@knowing/keywords';

/**
 * How well each candidate's text matches the task's terms, 0..1 relative to the best
 * candidate: a blend (`docShare` for the second) of two scores, one over everything the
 * symbol says about itself (name, enclosing types, file path, signature, doc comment) and one
 * over its doc comment alone. Each score sums, over the task terms the text contains, a rarity weight
 * `ln(1 + N / df)` computed among the N candidates, so a word every candidate shares
 * (the project's name, `request` in a web framework) counts little. A symbol whose
 * documentation talks about what the task asks is likelier to be what the task is about,
 * whatever it is named.
 *
 * @example
 * ```ts
 * const scores = textMatches(new Set(taskTerms('retry failed uploads')), candidates);
 * scores.get(uploader.id); // 1 for the best match
 * ```
 */
export function textMatches(terms: ReadonlySet<string>, nodes: readonly GraphNode[], docShare = 0.5): Map<NodeId, number> {
  const result = new Map<NodeId, number>();
  if (terms.size === 0 || nodes.length === 0) return result;
  // Candidates repeat the same words (their file's path, the project's vocabulary): the matcher
  // reads each distinct word once, and most words, holding none of the terms' cores, without
  // splitting and folding them.
  const termsIn = termMatcher(terms);
  const collect = (text: string, found: Set<string>): void => {
    for (const word of text.split(/[^A-Za-z0-9_]+/)) if (word) for (const term of termsIn(word)) found.add(term);
  };
  // The doc is read once: the terms of the whole text, in the order they first occur, are those
  // of the name, path and signature, then the doc's own that those lack.
  const everything: string[][] = [];
  const docs: string[][] = [];
  for (const n of nodes) {
    const found = new Set<string>();
    collect(`${symbolPath(n.qualifiedName, n.file)} ${n.file} ${n.signature}`, found);
    const inDoc = new Set<string>();
    collect(n.doc, inDoc);
    for (const term of inDoc) found.add(term);
    everything.push([...found]);
    docs.push([...inDoc]);
  }
  for (const [perNode, share] of [[everything, 1 - docShare], [docs, docShare]] as const) {
    if (share <= 0) continue;
    const df = new Map<string, number>();
    for (const found of perNode) for (const t of found) df.set(t, (df.get(t) ?? 0) + 1);
    const scores = perNode.map((found) => found.reduce((sum, t) => sum + Math.log(1 + nodes.length / df.get(t)!), 0));
    const best = Math.max(...scores);
    if (best <= 0) continue;
    scores.forEach((score, i) => {
      if (score > 0) result.set(nodes[i]!.id, (result.get(nodes[i]!.id) ?? 0) + (score / best) * share);
    });
  }
  return result;
}
