import { describe, expect, it } from 'vitest';
import { capEquivalenceResults, collectEquivalenceHits } from '../src/stage.js';
import { matchClasses, resolveTargets } from '../src/index.js';
import type { EquivalenceClass } from '../src/index.js';
import { FakeGraph, node } from './fake-graph.js';

function cls(concept: string, targets: string[], extra: Partial<EquivalenceClass> = {}): EquivalenceClass {
  return { concept, phrases: ['template tag', 'custom filter'], targets, targetType: 'any', weight: 0.9, source: 'framework', ...extra };
}

// A small Django/Flask-like graph: the dotted targets must pick the right `filter`, `tag`, `before_request`.
const libraryClass = node('django/template/library.py', 'Library', 'class');
const libraryFilter = node('django/template/library.py', 'Library.filter', 'method');
const libraryTag = node('django/template/library.py', 'Library.tag', 'method');
const querysetFilter = node('django/db/models/query.py', 'QuerySet.filter', 'method');
const filterFunction = node('django/utils/functional.py', 'filter');
const scaffoldHook = node('src/flask/sansio/scaffold.py', 'Scaffold.before_request', 'method');
const blueprintHook = node('src/flask/blueprints.py', 'BlueprintSetupState.before_request', 'method');
const escape = node('django/utils/html.py', 'escape');
const otherEscape = node('django/template/defaultfilters.py', 'escape');
const initModuleFn = node('django/utils/__init__.py', 'helper');
const emailValidator = node('django/core/validators.py', 'EmailValidator', 'class');
const emailValidatorTest = node('tests/validators/tests.py', 'EmailValidator', 'class', { isTest: true });
const emailValidatorFn = node('legacy/validators.py', 'EmailValidator', 'function');
const rustRead = node('src/fs.rs', 'fs::read', 'function');
const external = node('', 'EmailValidator', 'external', { external: true, file: '', qualifiedName: 'external://x.EmailValidator' });

const graph = () =>
  new FakeGraph([
    libraryClass, libraryFilter, libraryTag, querysetFilter, filterFunction, scaffoldHook, blueprintHook,
    escape, otherEscape, initModuleFn, emailValidatorTest, emailValidator, emailValidatorFn, rustRead, external,
  ]);

async function resolveOne(c: EquivalenceClass, reader = graph(), options = {}) {
  const matches = matchClasses('add a custom filter as a template tag', [c]);
  expect(matches).toHaveLength(1);
  const [resolved] = await resolveTargets(reader, matches, options);
  return resolved!;
}

const ids = (nodes: readonly { id: string }[]) => nodes.map((n) => n.id);

describe('resolveTargets', () => {
  it('resolves a dotted target only to nodes whose qualified name ends with it at a boundary', async () => {
    const r = await resolveOne(cls('TAGS', ['Library.filter', 'Library.tag']));
    expect(ids(r.nodes)).toEqual([libraryFilter.id, libraryTag.id]);
  });

  it('resolves Class.method paths and module-qualified paths, and `::` paths', async () => {
    expect(ids((await resolveOne(cls('HOOK', ['Scaffold.before_request']))).nodes)).toEqual([scaffoldHook.id]);
    expect(ids((await resolveOne(cls('ESC', ['django.utils.html.escape']))).nodes)).toEqual([escape.id]);
    expect(ids((await resolveOne(cls('ESC2', ['html.escape']))).nodes)).toEqual([escape.id]);
    expect(ids((await resolveOne(cls('PKG', ['django.utils.helper']))).nodes)).toEqual([initModuleFn.id]);
    expect(ids((await resolveOne(cls('RS', ['fs::read']))).nodes)).toEqual([rustRead.id]);
    // a partial segment is not a boundary
    expect((await resolveOne(cls('PARTIAL', ['ibrary.filter']))).nodes).toEqual([]);
  });

  it('resolves a terminal name case-insensitively to every non-external node, tests last', async () => {
    const r = await resolveOne(cls('VALID', ['emailvalidator']));
    expect(ids(r.nodes)).toEqual([emailValidatorFn.id, emailValidator.id, emailValidatorTest.id]);
  });

  it('restricts kinds by targetType', async () => {
    expect(ids((await resolveOne(cls('T', ['EmailValidator'], { targetType: 'type' }))).nodes)).toEqual([emailValidator.id, emailValidatorTest.id]);
    expect(ids((await resolveOne(cls('C', ['EmailValidator'], { targetType: 'callable' }))).nodes)).toEqual([emailValidatorFn.id]);
  });

  it('skips generic targets and reports them', async () => {
    const r = await resolveOne(cls('GEN', ['filter', 'run', 'get', 'Library']));
    expect(r.skippedTargets).toEqual(['run', 'get']);
    // shallower first, then by qualified name
    expect(ids(r.nodes)).toEqual([filterFunction.id, querysetFilter.id, libraryFilter.id, libraryClass.id]);
  });

  it('caps nodes per target', async () => {
    const r = await resolveOne(cls('VALID', ['EmailValidator']), graph(), { maxNodesPerTarget: 1 });
    expect(ids(r.nodes)).toEqual([emailValidatorFn.id]);
  });

  it('resolves classes with target ids to exactly those nodes, without name lookups', async () => {
    const reader = graph();
    const r = await resolveOne(cls('IDS', ['EmailValidator'], { targetIds: [emailValidator.id, 'missing'] }), reader);
    expect(ids(r.nodes)).toEqual([emailValidator.id]);
    expect(reader.nameLookups).toEqual([]);
  });

  it('shares lookups of the same terminal name between targets and matches', async () => {
    const reader = graph();
    const a = cls('A', ['Library.filter', 'QuerySet.filter']);
    const b = cls('B', ['filter']);
    const resolved = await resolveTargets(reader, matchClasses('custom filter', [a, b]));
    expect(reader.nameLookups).toEqual(['filter']);
    expect(ids(resolved[0]!.nodes)).toEqual([libraryFilter.id, querysetFilter.id]);
  });

  it('marks strong framework matches as forced and carries the class weight', async () => {
    const framework = cls('FW', ['Library']);
    const weak = { ...framework, concept: 'WEAK', phrases: ['library'] };
    const resolved = await resolveTargets(graph(), matchClasses('the template tag library', [framework, weak]));
    expect(resolved.map((r) => [r.match.equivalenceClass.concept, r.forced, r.weight])).toEqual([
      ['FW', true, 0.9],
      ['WEAK', false, 0.9],
    ]);
  });
});

describe('collectEquivalenceHits', () => {
  it('lists each node once in match order, and forced nodes separately', async () => {
    const forcedClass = cls('FORCED', ['Library.filter', 'Library']);
    const universal = cls('UNI', ['Library', 'EmailValidator'], { source: 'universal', weight: 0.8 });
    const resolved = await resolveTargets(graph(), matchClasses('add a custom filter as a template tag', [universal, forcedClass]));
    const { channel, forced } = collectEquivalenceHits(resolved);
    expect(channel.map((h) => [h.node.id, h.concept])).toEqual([
      [libraryFilter.id, 'FORCED'],
      [libraryClass.id, 'FORCED'],
      [emailValidatorFn.id, 'UNI'],
      [emailValidator.id, 'UNI'],
      [emailValidatorTest.id, 'UNI'],
    ]);
    expect(forced.map((h) => h.node.id)).toEqual([libraryFilter.id, libraryClass.id]);
    expect(capEquivalenceResults(channel, 1, { floor: 2 })).toHaveLength(2);
  });
});
