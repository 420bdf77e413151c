import { describe, expect, it } from 'vitest';
import { normalizeSymbol, scoreTask, symbolsMatch, matches } from '../src/matching.js';

describe('normalizeSymbol (MATCHING.md §1)', () => {
  it.each([
    ['src/flask/app.py.Flask.run', 'Flask.run'],
    ['github.com/pallets/flask://src/flask/app.py.Flask.run', 'Flask.run'],
    ['modules/caddyhttp/encode/encode.go.Encode.ServeHTTP', 'Encode.ServeHTTP'],
    ['github.com/caddyserver/caddy/modules/caddyhttp.Server.ServeHTTP', 'Server.ServeHTTP'],
    ['flask.app.Flask.run', 'Flask.run'],
    ['django.utils.html.escape', 'escape'],
    ['server.go:120:func (s *Server) ServeHTTP(w, r)', ''], // cut at the first '(' as the rule says
    ['server.go:120:func NewServer(cfg Config)', 'NewServer'],
    ['app.py:42:def full_dispatch_request(self)', 'full_dispatch_request'],
    ['app.py:Flask', 'Flask'],
    ['app.py:42', ''],
    ['Flask.run(', 'Flask.run'],
    ['Flask.run.', 'Flask.run'],
    ['lib/jekyll/site.rb.Jekyll::Site.process', 'Jekyll::Site.process'],
    ['Jekyll::Site', 'Jekyll::Site'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeSymbol(raw)).toBe(expected);
  });
});

describe('symbolsMatch (MATCHING.md §2)', () => {
  it.each([
    ['Flask.run', 'Flask.run', true],
    ['flask.RUN', 'Flask.run', true],
    ['app.Flask.run', 'Flask.run', true], // suffix at a dot boundary
    ['run', 'Flask.run', true], // same terminal, one side undotted
    ['template.Library.filter', 'Library.filter', true], // shared qualifier
    ['QuerySet.filter', 'Library.filter', false], // same terminal, no shared qualifier
    ['QuerySet.query', 'QuerySet', true], // dot-bounded containment
    ['DatabaseBase', 'Base', false],
    ['Jekyll::Site.process', 'Jekyll::Site', true],
    ['Jekyll.Site', 'Jekyll::Site', true],
    ['', 'Flask', false],
  ])('%s ~ %s = %s', (r, g, expected) => {
    expect(symbolsMatch(r, g)).toBe(expected);
  });

  it('matches raw engine output against raw ground truth', () => {
    expect(matches('src/flask/sansio/scaffold.py.Scaffold.before_request', 'Scaffold.before_request')).toBe(true);
    expect(matches('src/flask/app.py.Flask.preprocess_request', 'Scaffold.before_request')).toBe(false);
  });
});

describe('scoreTask (MATCHING.md §3)', () => {
  const truth = ['Scaffold.before_request', 'Flask.preprocess_request', 'Flask.full_dispatch_request'];

  it('divides P@10 by 10 even for short lists and computes R@10, NDCG and MRR', () => {
    const returned = ['x.py.Other', 'src/flask/app.py.Flask.preprocess_request', 'src/flask/sansio/scaffold.py.Scaffold.before_request'];
    const m = scoreTask(returned, truth);
    expect(m.precisionAt10).toBeCloseTo(0.2);
    expect(m.recallAt10).toBeCloseTo(2 / 3);
    expect(m.mrr).toBeCloseTo(1 / 2);
    const dcg = 1 / Math.log2(3) + 1 / Math.log2(4);
    const ideal = 1 + 1 / Math.log2(3) + 1 / Math.log2(4);
    expect(m.ndcgAt10).toBeCloseTo(dcg / ideal);
  });

  it('credits each ground-truth entry once in the de-duplicated P@10', () => {
    const returned = ['a.py.Flask.run', 'b.py.Scaffold.run', 'c.py.Other'];
    const m = scoreTask(returned, ['run']);
    expect(m.precisionAt10).toBeCloseTo(0.2);
    expect(m.dedupPrecisionAt10).toBeCloseTo(0.1);
  });

  it('credits each ground-truth entry once in the de-duplicated NDCG, which stays at most 1 where the rule\'s NDCG passes it', () => {
    // One truth entry, matched by the first two returned: the rule gains 1 for each.
    const m = scoreTask(['a.py.Flask.run', 'b.py.Scaffold.run', 'c.py.Other'], ['run']);
    expect(m.ndcgAt10).toBeCloseTo(1 + 1 / Math.log2(3));
    expect(m.dedupNdcgAt10).toBeCloseTo(1);
    // Without repeats the two agree.
    const returned = ['x.py.Other', 'src/flask/app.py.Flask.preprocess_request', 'src/flask/sansio/scaffold.py.Scaffold.before_request'];
    const distinct = scoreTask(returned, truth);
    expect(distinct.dedupNdcgAt10).toBeCloseTo(distinct.ndcgAt10);
  });

  it('scores an empty list as zero', () => {
    const m = scoreTask([], truth);
    expect(m).toMatchObject({ precisionAt10: 0, recallAt10: 0, ndcgAt10: 0, mrr: 0 });
  });
});
