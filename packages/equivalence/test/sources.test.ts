import { describe, expect, it } from 'vitest';
import {
  autoConcepts,
  expandWithThesaurus,
  graphAliases,
  isForcedInjectionEligible,
  learnedClasses,
} from '../src/stage.js';
import { learnedWeight } from '../src/learned.js';
import { matchClasses, resolveTargets } from '../src/index.js';
import type { VocabAssociation } from '@knowing/graph';
import { FakeGraph, FakeVocab, edge, node } from './fake-graph.js';

describe('graphAliases', () => {
  const seed = node('internal/graph/walk.go', 'TransitiveCallers');
  const caller = node('internal/mcp/tools.go', 'handleBlastRadius');
  const test = node('internal/graph/walk_test.go', 'TestTransitiveCallersDepth', 'function', { isTest: true });
  const callee = node('internal/store/sqlite.go', 'SQLiteStore.EdgesTo', 'method');
  const other = node('internal/mcp/tools.go', 'handleImpactAnalysis');
  const unrelated = node('internal/x/y.go', 'Unrelated');
  const graph = new FakeGraph(
    [seed, caller, test, callee, other, unrelated],
    [edge(caller, seed), edge(test, seed), edge(seed, callee), edge(other, seed), edge(unrelated, seed, 'imports')],
  );

  it('turns words of callers and callees into phrases of a class targeting the seed', async () => {
    const [alias] = await graphAliases(graph, [seed]);
    expect(alias).toMatchObject({
      concept: 'GRAPH_TransitiveCallers',
      targets: ['TransitiveCallers'],
      targetIds: [seed.id],
      weight: 0.7,
      source: 'graph',
    });
    const phrases = alias!.phrases;
    expect(phrases).toEqual(
      expect.arrayContaining(['blast', 'radius', 'blast radius', 'impact', 'analysis', 'impact analysis', 'sqlite', 'store', 'edges', 'depth']),
    );
    // generic words, words of the seed's own name and words of edges of other types are left out
    for (const word of ['handle', 'test', 'transitive', 'callers', 'unrelated']) expect(phrases).not.toContain(word);
  });

  it('lets a task that uses a neighbour\u2019s words find the seed, but never forces it', async () => {
    const aliases = await graphAliases(graph, [seed]);
    const matches = matchClasses('show the blast radius of a change', aliases);
    expect(matches.map((m) => m.equivalenceClass.concept)).toEqual(['GRAPH_TransitiveCallers']);
    expect(isForcedInjectionEligible(matches[0]!)).toBe(false);
    const [resolved] = await resolveTargets(graph, matches);
    expect(resolved!.nodes.map((n) => n.id)).toEqual([seed.id]);
  });

  it('honours maxSeeds, edge types and the phrase cap, and skips seeds without neighbours', async () => {
    expect(await graphAliases(graph, [unrelated, seed], { maxSeeds: 1 })).toEqual([]);
    const withImports = await graphAliases(graph, [seed], { edgeTypes: ['calls', 'imports'] });
    expect(withImports[0]!.phrases).toContain('unrelated');
    const capped = await graphAliases(graph, [seed], { maxPhrases: 2, bigrams: false });
    expect(capped[0]!.phrases).toHaveLength(2);
  });
});

describe('autoConcepts', () => {
  it('groups role-named symbols under the phrase their names share', () => {
    const classes = autoConcepts(['RateLimitMiddleware', 'handleRateLimit', 'rate_limit_handler', 'Parser', 'Handler', 'doIt']);
    expect(classes).toEqual([
      expect.objectContaining({
        concept: 'AUTO_RATE_LIMIT',
        phrases: ['rate limit'],
        targets: ['RateLimitMiddleware', 'handleRateLimit', 'rate_limit_handler'],
        weight: 0.6,
        source: 'auto',
      }),
    ]);
  });

  it('turns directories of class-like nodes into phrases, skipping tests and generic directory names', () => {
    const nodes = [
      node('src/billing/invoice.ts', 'Invoice', 'class'),
      node('src/billing/tax.ts', 'TaxRule', 'class'),
      node('src/billing/tax.ts', 'computeTax'), // not class-like
      node('src/utils/strings.ts', 'StringBag', 'class'), // generic directory
      node('test/billing/fake.ts', 'FakeInvoice', 'class', { isTest: true }),
    ];
    const classes = autoConcepts(nodes);
    expect(classes.map((c) => [c.concept, c.phrases, c.targets])).toEqual([['AUTO_DIR_BILLING', ['billing'], ['Invoice', 'TaxRule']]]);
    expect(autoConcepts(nodes, { directories: false })).toEqual([]);
  });

  it('caps targets per concept and the number of classes', () => {
    const names = ['AlphaHandler', 'handleAlpha', 'onAlpha', 'BetaHandler'];
    expect(autoConcepts(names, { maxTargetsPerConcept: 2 })[0]!.targets).toEqual(['AlphaHandler', 'handleAlpha']);
    expect(autoConcepts(names, { maxClasses: 1 })).toHaveLength(1);
  });
});

describe('expandWithThesaurus', () => {
  it('adds related vocabulary for each keyword, head clusters first, up to maxTerms', () => {
    expect(expandWithThesaurus(['consumer'], { maxTerms: 4 })).toEqual(['subscriber', 'listener', 'handler', 'processor']);
    expect(expandWithThesaurus(['parser']).slice(0, 3)).toEqual(['decoder', 'unmarshaler', 'lexer']);
  });

  it('folds plurals, skips terms already present and multi-word keywords, and stops at maxTerms', () => {
    const terms = expandWithThesaurus(['Consumers', 'listener', 'blast radius']);
    expect(terms[0]).toBe('subscriber');
    expect(terms).not.toContain('listener');
    expect(terms).not.toContain('consumer');
    expect(terms.length).toBeLessThanOrEqual(10);
    expect(expandWithThesaurus(['consumer'], { maxTerms: 0 })).toEqual([]);
    expect(expandWithThesaurus(['blast radius'])).toEqual([]);
  });

  it('uses a custom thesaurus', () => {
    const thesaurus = [{ concept: 'widget', terms: ['widget', 'gadget', 'gizmo'] }];
    expect(expandWithThesaurus(['widgets'], { thesaurus })).toEqual(['gadget', 'gizmo']);
  });
});

describe('learned classes', () => {
  it('weights 0.3 at two observations rising linearly to 0.8 at ten and beyond', () => {
    expect(learnedWeight(2)).toBeCloseTo(0.3);
    expect(learnedWeight(6)).toBeCloseTo(0.55);
    expect(learnedWeight(10)).toBeCloseTo(0.8);
    expect(learnedWeight(40)).toBeCloseTo(0.8);
    expect(learnedWeight(1)).toBeCloseTo(0.3);
  });

  const row = (keyword: string, symbol: string, count: number, cluster: string | null = 'c1'): VocabAssociation => ({
    keyword,
    symbol,
    symbolName: symbol.toUpperCase(),
    count,
    cluster,
    packageRoot: null,
  });

  it('makes one class per association seen at least twice, targeting that node, never forced', async () => {
    const vocab = new FakeVocab([row('autodetector', 'n1', 10), row('autodetector', 'n2', 4), row('rename', 'n3', 1), row('other', 'n4', 9)]);
    const classes = await learnedClasses(vocab, ['autodetector', 'rename']);
    expect(classes.map((c) => [c.phrases[0], c.targetIds, c.weight, c.source])).toEqual([
      ['autodetector', ['n1'], 0.8, 'learned'],
      ['autodetector', ['n2'], 0.3 + 0.5 * (2 / 8), 'learned'],
    ]);
    expect(vocab.calls[0]!.options).toEqual({ minCount: 2 });
    const [match] = matchClasses('the migration autodetector misses renames', classes);
    expect(isForcedInjectionEligible(match!)).toBe(false);
  });

  it('scopes by keyword cluster and honours minCount and maxClasses', async () => {
    const vocab = new FakeVocab([row('autodetector', 'n1', 10, 'c1'), row('autodetector', 'n2', 5, 'c2'), row('autodetector', 'n3', 3, 'c1')]);
    expect((await learnedClasses(vocab, ['autodetector'], { cluster: 'c2' })).map((c) => c.targetIds)).toEqual([['n2']]);
    expect(vocab.calls[0]!.options).toEqual({ minCount: 2, cluster: 'c2' });
    expect(await learnedClasses(vocab, ['autodetector'], { minCount: 4 })).toHaveLength(2);
    expect(await learnedClasses(vocab, ['autodetector'], { maxClasses: 1 })).toHaveLength(1);
    expect(await learnedClasses(vocab, [])).toEqual([]);
  });
});
