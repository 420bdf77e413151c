/**
 * Ground-truth matching and metrics: whether a returned symbol is one a task's ground truth
 * names, and P@10, R@10, NDCG@10, MRR of a ranked list. The rules are the retrieval
 * benchmark's (shared/bench/MATCHING.md), implemented exactly so that figures compare with the
 * published ones; training labels candidates with the same rules.
 */

const SOURCE_EXTENSIONS = ['.go', '.py', '.ts', '.tsx', '.js', '.jsx', '.rs', '.java', '.cs', '.rb'];
const PATH_MARKERS = SOURCE_EXTENSIONS.map((ext) => `${ext}.`);
const DECLARATION_KEYWORDS = ['func ', 'type ', 'var ', 'const ', 'def ', 'class ', 'interface ', 'struct '];

const endsWithSourceExtension = (part: string): boolean => SOURCE_EXTENSIONS.some((ext) => part.endsWith(ext));

/**
 * Rule 1: a raw symbol string (engine output or ground truth) → a normalised symbol path.
 *
 * @example
 * ```ts
 * normalizeSymbol('src/flask/app.py.Flask.run'); // 'Flask.run'
 * ```
 */
export function normalizeSymbol(raw: string): string {
  let s = raw.trim();
  // 1. trailing '.' and '('
  while (s.endsWith('.') || s.endsWith('(')) s = s.slice(0, -1);
  // 2. file.ext:LINE:decl Name(...)
  const parts = s.split(':');
  if (parts.length === 3 && endsWithSourceExtension(parts[0]!)) {
    let decl = parts[2]!.trim();
    for (const keyword of DECLARATION_KEYWORDS) {
      if (decl.startsWith(keyword)) {
        decl = decl.slice(keyword.length);
        break;
      }
    }
    const cut = decl.search(/[( {[<]/);
    s = (cut >= 0 ? decl.slice(0, cut) : decl).trim();
  } else if (parts.length === 2 && endsWithSourceExtension(parts[0]!)) {
    // 3. file.ext:Name
    s = /^\d+$/.test(parts[1]!) ? '' : parts[1]!;
  }
  // 4. repo URL prefix
  const scheme = s.lastIndexOf('://');
  if (scheme >= 0) s = s.slice(scheme + 3);
  // 5. file path
  let markerAt = -1;
  let markerLength = 0;
  for (const marker of PATH_MARKERS) {
    const at = s.lastIndexOf(marker);
    if (at > markerAt) {
      markerAt = at;
      markerLength = marker.length;
    }
  }
  if (markerAt >= 0) {
    s = s.slice(markerAt + markerLength);
  } else if (s.includes('/')) {
    const last = s.slice(s.lastIndexOf('/') + 1);
    const dot = last.indexOf('.');
    s = dot >= 0 ? last.slice(dot + 1) : last;
  } else if (s.includes('.')) {
    const components = s.split('.');
    const upper = components.findIndex((c) => /^[A-Z]/.test(c));
    s = upper >= 0 ? components.slice(upper).join('.') : components[components.length - 1]!;
  }
  // 6. domain/org/repo/ prefix, then what follows the last '/'
  if (s.includes('/')) s = s.slice(s.lastIndexOf('/') + 1);
  return s;
}

const lastComponent = (s: string): string => s.slice(s.lastIndexOf('.') + 1);

/**
 * Rule 2: whether two normalised symbols match.
 *
 * @example
 * ```ts
 * symbolsMatch('Flask.run', 'app.Flask.run'); // true
 * ```
 */
export function symbolsMatch(returned: string, truth: string): boolean {
  const r = returned;
  const g = truth;
  if (!r || !g) return false;
  const rl = r.toLowerCase();
  const gl = g.toLowerCase();
  // 1. equal, or equal ignoring case
  if (r === g || rl === gl) return true;
  // 2. suffix at a dot boundary
  if (r.endsWith('.' + g) || g.endsWith('.' + r) || rl.endsWith('.' + gl) || gl.endsWith('.' + rl)) return true;
  // 3. same terminal name and (either has no dot, or they share a non-terminal component)
  if (lastComponent(rl) === lastComponent(gl)) {
    if (!r.includes('.') || !g.includes('.')) return true;
    const rq = new Set(rl.split('.').slice(0, -1));
    if (gl.split('.').slice(0, -1).some((c) => rq.has(c))) return true;
  }
  // 4. dot-bounded containment, with '::' as '.'
  const rd = `.${r.replace(/::/g, '.')}.`;
  const gd = `.${g.replace(/::/g, '.')}.`;
  return rd.includes(gd) || gd.includes(rd);
}

/**
 * Whether a raw returned string matches a raw ground-truth entry.
 *
 * @example
 * ```ts
 * matches('src/flask/app.py.Flask.run', 'flask/app.py:Flask.run'); // true
 * ```
 */
export function matches(returnedRaw: string, truthRaw: string): boolean {
  return symbolsMatch(normalizeSymbol(returnedRaw), normalizeSymbol(truthRaw));
}

/** Metrics of one ranked list against one task's ground truth. */
export interface TaskMetrics {
  readonly precisionAt10: number;
  readonly dedupPrecisionAt10: number;
  readonly recallAt10: number;
  readonly ndcgAt10: number;
  /**
   * NDCG@10 with each ground-truth entry credited once (the de-duplicated P@10's credits): at most
   * 1, where the rule's NDCG passes 1 when several returned entries match one truth entry.
   */
  readonly dedupNdcgAt10: number;
  readonly mrr: number;
  /** For each of the first 10 returned: the index of the first ground-truth entry it matches, or -1. */
  readonly hits: readonly number[];
}

/**
 * P@10, de-duplicated P@10, R@10, NDCG@10 (also de-duplicated) and MRR of a ranked list (rule 3).
 *
 * @example
 * ```ts
 * scoreTask(['a.py.f', 'a.py.g'], ['a.py.g']).mrr; // 0.5
 * ```
 */
export function scoreTask(returned: readonly string[], groundTruth: readonly string[]): TaskMetrics {
  const top = returned.slice(0, 10);
  const truth = groundTruth.map(normalizeSymbol);
  const hits = top.map((raw) => {
    const r = normalizeSymbol(raw);
    return truth.findIndex((g) => symbolsMatch(r, g));
  });
  const relevant = hits.filter((h) => h >= 0).length;
  // De-duplicated: each ground-truth entry credits at most one returned entry (greedy, in rank order,
  // preferring a truth entry not credited yet among those the returned entry matches).
  const credited = new Set<number>();
  let dedup = 0;
  let dedupDcg = 0;
  top.forEach((raw, rank) => {
    const r = normalizeSymbol(raw);
    const index = truth.findIndex((g, i) => !credited.has(i) && symbolsMatch(r, g));
    if (index >= 0) {
      credited.add(index);
      dedup++;
      dedupDcg += 1 / Math.log2(rank + 2);
    }
  });
  const found = new Set<number>();
  for (const raw of top) {
    const r = normalizeSymbol(raw);
    truth.forEach((g, i) => {
      if (symbolsMatch(r, g)) found.add(i);
    });
  }
  let dcg = 0;
  hits.forEach((h, i) => {
    if (h >= 0) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, truth.length); i++) ideal += 1 / Math.log2(i + 2);
  let mrr = 0;
  for (let i = 0; i < returned.length; i++) {
    const r = normalizeSymbol(returned[i]!);
    if (truth.some((g) => symbolsMatch(r, g))) {
      mrr = 1 / (i + 1);
      break;
    }
  }
  return {
    precisionAt10: relevant / 10,
    dedupPrecisionAt10: dedup / 10,
    recallAt10: truth.length === 0 ? 0 : found.size / truth.length,
    ndcgAt10: ideal === 0 ? 0 : dcg / ideal,
    dedupNdcgAt10: ideal === 0 ? 0 : dedupDcg / ideal,
    mrr,
    hits,
  };
}
