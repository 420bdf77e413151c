import { describe, expect, it } from 'vitest';
import { builtinClasses, matchClasses, normalizePhrase } from '../src/index.js';
import { capEquivalenceResults, detectRepoLanguage, isForcedInjectionEligible, isStrongMatch } from '../src/stage.js';
import { isGenericTarget } from '../src/generic.js';
import type { LanguageId } from '@knowing/graph';
import type { EquivalenceClass, EquivalenceMatch } from '../src/index.js';

function cls(concept: string, phrases: string[], extra: Partial<EquivalenceClass> = {}): EquivalenceClass {
  return { concept, phrases, targets: ['SomeTarget'], targetType: 'any', weight: 0.8, source: 'universal', ...extra };
}

const AUTH = cls('AUTH', ['auth', 'login']);
const concepts = (matches: readonly EquivalenceMatch[]) => matches.map((m) => m.equivalenceClass.concept);

describe('matchClasses: word boundaries', () => {
  it('matches a phrase as whole words, never inside a longer word', () => {
    expect(concepts(matchClasses('fix the auth flow', [AUTH]))).toEqual(['AUTH']);
    expect(matchClasses('list every author of the book', [AUTH])).toEqual([]);
    expect(matchClasses('rename OAuth2Handler', [AUTH])).toEqual([]);
    expect(matchClasses('the authentication page', [AUTH])).toEqual([]);
  });

  it('matches multi-word phrases only when the words are adjacent, ignoring case and punctuation', () => {
    const hook = cls('HOOK', ['before request']);
    expect(matchClasses('Run code BEFORE REQUEST dispatch', [hook])).toHaveLength(1);
    expect(matchClasses('before sending a request', [hook])).toEqual([]);
    // determiners are invisible: "before each request" is the same hook
    expect(matchClasses('before each request', [hook])).toHaveLength(1);
    expect(matchClasses('request before', [hook])).toEqual([]);
  });

  it('treats hyphens and underscores as spaces and reads CamelCase identifiers as words', () => {
    const limiter = cls('LIMIT', ['rate limiter']);
    expect(matchClasses('tune the rate-limiter', [limiter])).toHaveLength(1);
    expect(matchClasses('tune rate_limiter settings', [limiter])).toHaveLength(1);
    expect(matchClasses('tune the RateLimiter', [limiter])).toHaveLength(1);
    // …and the unsplit identifier still matches a one-word phrase
    expect(matchClasses('the WebSocket upgrade', [cls('WS', ['websocket'])])).toHaveLength(1);
  });

  it('folds plurals and verb inflections on both sides', () => {
    const validators = cls('VALIDATORS', ['custom validator']);
    expect(matchClasses('write custom validators', [validators])).toHaveLength(1);
    const caching = cls('CACHE', ['cache response']);
    expect(matchClasses('start caching responses', [caching])).toHaveLength(1);
    expect(matchClasses('responses are cached', [cls('CACHED', ['cached'])])).toHaveLength(1);
    expect(matchClasses('retries are broken', [cls('RETRY', ['retry'])])).toHaveLength(1);
    expect(matchClasses('debug logging', [cls('LOG', ['log'])])).toHaveLength(1);
    expect(normalizePhrase('Rate-Limiting the requests')).toBe(normalizePhrase('rate limit request'));
  });

  it('keeps words apart that folding must not merge', () => {
    expect(matchClasses('set the timeout', [cls('SETTINGS', ['settings'])])).toEqual([]);
    expect(matchClasses('fix the status code', [cls('STATE', ['state'])])).toEqual([]);
  });

  it('implements action-verb expansion as inflections plus skipped determiners', () => {
    const add = cls('ADD_HOOK', ['add hook']);
    expect(matchClasses('add a new-style hook', [add])).toEqual([]); // "new-style" is content, not a determiner
    expect(matchClasses('please add the hook', [add])).toHaveLength(1);
    expect(matchClasses('adding hooks to startup', [add])).toHaveLength(1);
    const validate = cls('VALIDATE', ['validate email']);
    expect(matchClasses('validating emails fails', [validate])).toHaveLength(1);
    // a phrase is found after any verb, no cross-product needed
    expect(matchClasses('implement blast radius', [cls('BLAST', ['blast radius'])])).toHaveLength(1);
  });

  it('records every matched phrase and orders matches by weight, then phrase count', () => {
    const low = cls('LOW', ['consumer group', 'offset'], { weight: 0.7 });
    const high = cls('HIGH', ['consumer', 'rebalance'], { weight: 0.9 });
    const highOne = cls('HIGH_ONE', ['rebalance'], { weight: 0.9 });
    const matches = matchClasses('consumer group rebalance drops the offset', [low, highOne, high]);
    expect(concepts(matches)).toEqual(['HIGH', 'HIGH_ONE', 'LOW']);
    expect(matches[2]!.phrases).toEqual(['consumer group', 'offset']);
    expect(matches[0]!.phraseCount).toBe(2);
  });

  it('counts distinct phrases after normalisation', () => {
    const c = cls('C', ['validator', 'validators', 'email']);
    const [m] = matchClasses('validators for email', [c]);
    expect(m!.phrases).toEqual(['validator', 'validators', 'email']);
    expect(m!.phraseCount).toBe(2);
  });
});

describe('matchClasses: language scoping', () => {
  const py = cls('PY', ['context manager'], { language: 'python' });
  const ts = cls('TS', ['context manager'], { language: ['typescript', 'javascript'] });
  const any = cls('ANY', ['context manager']);

  it('keeps a language-scoped class only when the repository language is among its languages', () => {
    expect(concepts(matchClasses('add a context manager', [py, ts, any], { language: 'python' }))).toEqual(['PY', 'ANY']);
    expect(concepts(matchClasses('add a context manager', [py, ts, any], { language: 'javascript' }))).toEqual(['TS', 'ANY']);
    expect(concepts(matchClasses('add a context manager', [py, ts, any], { language: 'go' }))).toEqual(['ANY']);
  });

  it('lets every class match when the language is unknown, and treats tsx as typescript', () => {
    expect(concepts(matchClasses('add a context manager', [py, ts, any], { language: null }))).toEqual(['PY', 'TS', 'ANY']);
    expect(concepts(matchClasses('add a context manager', [py, ts, any]))).toEqual(['PY', 'TS', 'ANY']);
    expect(concepts(matchClasses('add a context manager', [py, ts, any], { language: 'tsx' }))).toEqual(['TS', 'ANY']);
  });

  it('scopes the built-in framework vocabulary: Django classes stay out of a Go repository', () => {
    const task = 'add a custom template tag to the template library';
    expect(concepts(matchClasses(task, builtinClasses(), { language: 'python' }))).toContain('DJANGO_TEMPLATE_TAGS');
    expect(concepts(matchClasses(task, builtinClasses(), { language: 'go' }))).not.toContain('DJANGO_TEMPLATE_TAGS');
  });
});

describe('detectRepoLanguage', () => {
  it('returns the language with the most nodes, folding tsx into typescript', () => {
    expect(detectRepoLanguage({ python: 900, javascript: 120, '': 4000 })).toBe('python');
    expect(detectRepoLanguage({ typescript: 30, tsx: 50, javascript: 60 })).toBe('typescript');
  });

  it('returns null for no counts, unknown keys only, or a leader below minShare', () => {
    expect(detectRepoLanguage({})).toBeNull();
    expect(detectRepoLanguage({ cobol: 10, '': 5 })).toBeNull();
    expect(detectRepoLanguage({ go: 40, python: 35, rust: 25 }, { minShare: 0.5 })).toBeNull();
    expect(detectRepoLanguage({ go: 60, python: 40 }, { minShare: 0.5 })).toBe('go');
  });
});

describe('the strong-match gate and forced injection', () => {
  const framework = cls('KAFKA_GROUP', ['consumer group', 'rebalance', 'coordinator'], { source: 'framework', weight: 0.9 });
  const match = (task: string, c: EquivalenceClass = framework) => matchClasses(task, [c])[0]!;

  it('is strong with two distinct phrases or one multi-word phrase, weak with one word', () => {
    expect(isStrongMatch(match('the coordinator hangs during rebalance'))).toBe(true);
    expect(isStrongMatch(match('fix the consumer group'))).toBe(true);
    expect(isStrongMatch(match('the coordinator hangs'))).toBe(false);
    expect(isStrongMatch(match('coordinator and coordinators'))).toBe(false); // one phrase, twice
    expect(isStrongMatch(match('the coordinator hangs during rebalance'), { minPhrases: 3 })).toBe(false);
  });

  it('forces only strong framework or plugin matches with weight ≥ 0.9', () => {
    expect(isForcedInjectionEligible(match('fix the consumer group'))).toBe(true);
    expect(isForcedInjectionEligible(match('the coordinator hangs'))).toBe(false);
    const plugin = { ...framework, source: 'plugin' as const };
    expect(isForcedInjectionEligible(match('fix the consumer group', plugin))).toBe(true);
    const light = { ...framework, weight: 0.85 };
    expect(isForcedInjectionEligible(match('fix the consumer group', light))).toBe(false);
    for (const source of ['universal', 'language', 'graph', 'learned', 'auto'] as const) {
      expect(isForcedInjectionEligible(match('fix the consumer group', { ...framework, source, weight: 1 }))).toBe(false);
    }
  });
});

describe('generic-target filter', () => {
  it('drops short and generic undotted targets, case-insensitively', () => {
    for (const t of ['run', 'Get', 'do', 'fmt', 'handle', 'Process', 'update', 'init', 'main']) expect(isGenericTarget(t), t).toBe(true);
    for (const t of ['EmailValidator', 'before_request', 'Reconcile', '__init__']) expect(isGenericTarget(t), t).toBe(false);
  });

  it('never drops a dotted target: its qualifier anchors it', () => {
    expect(isGenericTarget('Flask.run')).toBe(false);
    expect(isGenericTarget('std::fs::read')).toBe(false);
  });

  it('honours custom lists and lengths', () => {
    expect(isGenericTarget('dispatcher', { genericNames: ['dispatcher'] })).toBe(true);
    expect(isGenericTarget('run', { genericNames: [], minTargetLength: 1 })).toBe(false);
  });
});

describe('capEquivalenceResults', () => {
  const results = Array.from({ length: 100 }, (_, i) => i);

  it('allows max(floor, factor × lexical results) from the front', () => {
    expect(capEquivalenceResults(results, 3)).toHaveLength(10);
    expect(capEquivalenceResults(results, 12)).toEqual(results.slice(0, 24));
    expect(capEquivalenceResults(results, 0)).toHaveLength(10);
    expect(capEquivalenceResults(results, 12, { factor: 1, floor: 0 })).toHaveLength(12);
    expect(capEquivalenceResults(results.slice(0, 5), 40)).toHaveLength(5);
  });

  it('rejects nonsense options', () => {
    expect(() => capEquivalenceResults(results, -1)).toThrow(/lexicalCount/);
    expect(() => capEquivalenceResults(results, 1, { factor: Number.NaN })).toThrow(/factor/);
  });
});

describe('the built-in vocabulary on task phrasing', () => {
  const forcedConcepts = (task: string, language: LanguageId) =>
    matchClasses(task, builtinClasses(), { language }).filter((m) => isForcedInjectionEligible(m)).map((m) => m.equivalenceClass.concept);

  it('forces the framework concept a multi-word framework phrase names, in that framework\u2019s language', () => {
    expect(forcedConcepts('the consumer group coordinator loses offsets after a rebalance', 'java')).toContain('KAFKA_CONSUMER_GROUP');
    expect(forcedConcepts('add a before-request hook', 'python')).toContain('FLASK_REQUEST_HOOKS');
    expect(forcedConcepts('informer resync floods the workqueue', 'go')).toContain('K8S_INFORMERS');
    expect(forcedConcepts('add a before-request hook', 'go')).toEqual([]);
  });

  it('never forces anything for a lone common word', () => {
    for (const word of ['command', 'session', 'request', 'config', 'handler', 'error', 'test', 'model', 'view', 'route', 'guard', 'cache', 'plugin']) {
      for (const language of ['python', 'go', 'typescript', 'java', 'csharp', 'ruby', 'rust', 'javascript'] as const) {
        expect(forcedConcepts(`refactor the ${word}`, language), `${word} in ${language}`).toEqual([]);
      }
    }
  });
});
