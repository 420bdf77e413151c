import { describe, expect, it } from 'vitest';
import {
  allKeywords,
  DEFAULT_KEYWORD_OPTIONS,
  extractKeywordSet,
  isKeywordSetEmpty,
  primaryKeywords,
} from '../src/index.js';

const kw = (text: string, options?: Parameters<typeof extractKeywordSet>[1]) => extractKeywordSet(text, options);

describe('exact tier: back-ticked identifiers', () => {
  it.each([
    ['add a `before_request` hook', ['before_request']],
    ['see `TransitiveCallers`', ['TransitiveCallers', 'transitivecallers']],
    ['call `QuerySet.annotate()` twice', ['QuerySet.annotate', 'queryset.annotate']],
    ['use `url_for(endpoint, **values)` here', ['url_for']],
    ['flag `--dry-run`', ['--dry-run']],
    ['`a` and `b`', ['a', 'b']],
  ])('%s → %j', (text, exact) => {
    expect(kw(text).exact).toEqual(exact);
  });

  it.each([
    ['a span with spaces: `foo bar`'],
    ['punctuation only: `()` `...`'],
    ['an unclosed `back-tick'],
    ['a span across lines `foo\nbar`'],
    [`too long: \`${'x'.repeat(101)}\``],
    ['nothing quoted at all'],
  ])('rejects %s', (text) => {
    expect(kw(text).exact).toEqual([]);
  });

  it('accepts exactly 100 characters', () => {
    const id = 'a'.repeat(100);
    expect(kw(`\`${id}\``).exact).toEqual([id]);
  });

  it('also processes back-ticked words into compounds and components', () => {
    const set = kw('`before_request` fires twice');
    expect(set.exact).toEqual(['before_request']);
    expect(set.compounds).not.toContain('before_request'); // kept once, in the highest tier
    expect(set.components).toEqual(expect.arrayContaining(['before', 'request', 'fires', 'twice']));
  });
});

describe('code patterns (compounds)', () => {
  it.each([
    // method calls with parentheses, also the last segment
    ['fix .delete() on querysets', ['delete']],
    ['get_inlines() returns too much', ['get_inlines']],
    ['QuerySet.annotate() drops ordering', ['QuerySet.annotate', 'queryset.annotate', 'annotate']],
    ['obj.save_base() is slow', ['obj.save_base', 'save_base']],
    ['get_inlines(request) is wrong', ['get_inlines']],
    // Class.method with a capitalised head, also the last segment
    ['override ModelAdmin.get_inlines please', ['ModelAdmin.get_inlines', 'modeladmin.get_inlines', 'get_inlines']],
    ['Flask.run starts twice', ['Flask.run', 'flask.run']],
    // dotted paths containing an underscore, also the last segment
    ['check settings.INSTALLED_APPS', ['settings.INSTALLED_APPS', 'settings.installed_apps', 'INSTALLED_APPS', 'installed_apps']],
    ['django.utils.html_escape breaks', ['django.utils.html_escape', 'html_escape']],
  ])('%s → %j', (text, expected) => {
    expect(kw(text).compounds.slice(0, expected.length)).toEqual(expected);
  });

  it('drops a last segment that is a stop word but keeps the path', () => {
    const set = kw('QuerySet.get() is slow');
    expect(set.compounds.slice(0, 2)).toEqual(['QuerySet.get', 'queryset.get']);
    expect(set.compounds).not.toContain('get');
  });

  it.each([
    ['prose abbreviations', 'e.g. this, i.e. that, etc. and foo vs bar', []],
    ['capitalised prose abbreviations', 'E.g. this; I.e. that; U.S. only', []],
    ['version numbers', 'works on Python 3.9 and 2.0, v1.2.3 too', []],
    ['plain lower-case dotted words', 'foo.bar is odd', ['foo.bar']], // a word compound, not a code pattern
    ['file names', 'edit settings.py and Node.js', []],
    ['calls with prose arguments', 'the file(s) were saved', []],
    ['a parenthesis after a space', 'the function (see below) is slow', []],
  ])('does not fire on %s', (_name, text, compounds) => {
    expect(kw(text).compounds).toEqual(compounds);
  });

  it('keeps patterns in order of appearance, before word compounds', () => {
    const set = kw('NullSession fails in QuerySet.annotate() and get_inlines()');
    expect(set.compounds).toEqual([
      'QuerySet.annotate',
      'queryset.annotate',
      'annotate',
      'get_inlines',
      'nullsession',
      'NullSession',
    ]);
  });

  it('respects the minimum length', () => {
    expect(kw('call id() twice').compounds).toEqual([]);
    expect(kw('call run() twice').compounds).toEqual(['run']);
  });
});

describe('verb pattern (priority terms)', () => {
  it.each([
    ['add caching to the parser', ['caching', 'Caching']],
    ['Implement a custom request context', ['request', 'Request']],
    ['fix the migration operation ordering', ['migration', 'Migration']],
    ['Build an index over symbols', ['index', 'Index']],
    ['add a new MCP tool for snapshot diffing', ['mcp', 'Mcp']],
    ['Fix a bug where errors are swallowed', ['errors', 'Errors']], // `bug` and `where` are stop words
    ['add ctx propagation', ['ctx', 'Ctx', 'context']],
    ['- [ ] Add retries to the client', ['retries', 'Retries']], // list markers are not words
  ])('%s → %j', (text, priority) => {
    const set = kw(text);
    expect(set.priority).toEqual(priority);
    expect(set.components.slice(0, priority.length)).toEqual(priority);
  });

  it('puts an identifier target in compounds, not components', () => {
    const set = kw('add a new before_request hook');
    expect(set.priority).toEqual(['before_request']);
    expect(set.compounds[0]).toBe('before_request');
    expect(set.components[0]).not.toBe('before_request');
  });

  it('keeps both forms of a mixed-case identifier target', () => {
    const set = kw('refactor the SQLiteStore writer');
    expect(set.priority).toEqual(['sqlitestore', 'SQLiteStore']);
    expect(set.compounds.slice(0, 2)).toEqual(['sqlitestore', 'SQLiteStore']);
  });

  it.each([
    ['the first word is not an action verb', 'How does caching work'],
    ['the verb is not the first word', 'Please add caching'],
    ['nothing follows the verb', 'Add'],
    ['only filler follows the verb', 'add the new'],
  ])('does not fire when %s', (_name, text) => {
    expect(kw(text).priority).toEqual([]);
  });

  it('can be switched off', () => {
    const set = kw('add caching to the parser', { verbPattern: false });
    expect(set.priority).toEqual([]);
    expect(set.components).not.toContain('Caching');
  });
});

describe('identifier splitting: compounds whole, parts to components', () => {
  it.each([
    ['snake_case', 'before_request fires', ['before_request'], ['request', 'before']],
    ['CamelCase', 'TransitiveCallers grows', ['transitivecallers', 'TransitiveCallers'], ['transitive', 'callers']],
    ['acronym run', 'HTTPServer stalls', ['httpserver', 'HTTPServer'], ['server', 'http']],
    ['mixed-case atom', 'SQLiteStore locks', ['sqlitestore', 'SQLiteStore'], ['sqlite', 'store']],
    ['SCREAMING_CASE', 'SERVER_NAME differs', ['server_name', 'SERVER_NAME'], ['server', 'name']],
    ['dotted', 'session.timeout flips', ['session.timeout'], ['timeout', 'session']],
    ['dunder', '__init__ runs', ['__init__'], []], // `init` is a stop word
  ])('%s', (_name, text, compounds, parts) => {
    const set = kw(text);
    expect(set.compounds).toEqual(compounds);
    expect(set.components).toEqual(expect.arrayContaining(parts));
  });

  it.each([
    ['capitalised words', 'Snapshot diffing'],
    ['acronyms', 'MCP tool'],
    ['plural acronyms', 'UUIDs leak'],
    ['hyphenated words', 'rate-limit the read-only client'],
    ['file names', 'edit app.py'],
  ])('%s are not compounds', (_name, text) => {
    expect(kw(text).compounds).toEqual([]);
  });

  it('splits hyphenated words into components', () => {
    expect(kw('rate-limit x-request-id').components).toEqual(expect.arrayContaining(['rate', 'limit', 'request', 'id']));
  });

  it('keeps the stem of a file name', () => {
    expect(kw('edit settings.py').components).toContain('settings');
    expect(kw('edit settings.py').components).not.toContain('py');
  });

  it('drops URLs, numbers, versions, contractions and prose abbreviations', () => {
    const set = kw("don't break https://github.com/pallets/flask/issues/4821 in 3.9 or v2.0.1 (#1234), e.g. parsers");
    expect(allKeywords(set)).toEqual(['parsers', 'break']);
  });

  it('strips possessives', () => {
    expect(kw("caddy's placeholder").components).toEqual(expect.arrayContaining(['caddy', 'placeholder']));
  });
});

describe('stop words', () => {
  it.each([
    ['English', 'the a in of with from which'],
    ['programming filler', 'func type var err nil string interface'],
    ['pure action words', 'refactor fix update change modify review'],
    ['filler words', 'existing custom'],
  ])('drops %s', (_name, text) => {
    expect(isKeywordSetEmpty(kw(text))).toBe(true);
  });

  it('keeps words that are not stop words', () => {
    expect(kw('router middleware').components).toEqual(['middleware', 'router', 'RouterMiddleware', 'router_middleware']);
  });

  it('drops components shorter than two characters', () => {
    expect(kw('x y z').components).toEqual([]);
    expect(kw('ab').components).toEqual(['ab']);
  });

  it('uses a custom stop list when given', () => {
    const set = kw('router middleware', { stopWords: [...DEFAULT_KEYWORD_OPTIONS.stopWords, 'router'] });
    expect(set.components).toEqual(['middleware']);
  });
});

describe('abbreviation expansion', () => {
  it.each([
    ['ctx', 'context'],
    ['cfg', 'config'],
    ['conf', 'config'],
    ['req', 'request'],
    ['resp', 'response'],
    ['res', 'response'],
    ['msg', 'message'],
    ['db', 'database'],
    ['srv', 'server'],
    ['svc', 'service'],
    ['mgr', 'manager'],
    ['idx', 'index'],
    ['iter', 'iterator'],
    ['buf', 'buffer'],
    ['conn', 'connection'],
    ['addr', 'address'],
    ['mux', 'multiplexer'],
    ['cmd', 'command'],
    ['args', 'arguments'],
    ['opts', 'options'],
    ['params', 'parameters'],
    ['desc', 'description'],
    ['info', 'information'],
    ['stat', 'statistics'],
    ['stats', 'statistics'],
    ['fmt', 'format'],
  ])('%s → %s, right after it', (short, long) => {
    const set = kw(short, { bigrams: false });
    expect(set.components).toEqual([long, short]); // length-sorted, so the expansion leads
    const parts = kw(`zzzzzzzzzzzz ${short}`, { bigrams: false }).components;
    expect(parts.indexOf(long)).toBeGreaterThan(-1);
  });

  it('expands parts of identifiers', () => {
    expect(kw('ctxManager leaks').components).toEqual(expect.arrayContaining(['ctx', 'context', 'manager']));
  });

  it('does not add an expansion that is a stop word', () => {
    expect(kw('pkg').components).toEqual(['pkg']); // `package` is a stop word
  });

  it('does not expand other words', () => {
    expect(kw('context').components).toEqual(['context']);
    expect(kw('constructor').components).toEqual(['constructor']); // not a prototype key
  });

  it('uses custom abbreviations when given', () => {
    expect(kw('k8s', { abbreviations: { k8s: 'kubernetes' } }).components).toEqual(['kubernetes', 'k8s']);
  });
});

describe('bigrams', () => {
  it.each([
    ['blast radius', ['BlastRadius', 'blast_radius']],
    ['transitive callers', ['TransitiveCallers', 'transitive_callers']],
    ['context engine', ['ContextEngine', 'context_engine']],
    ['MCP tool', ['McpTool', 'mcp_tool']], // one word ≥4 chars is enough
    ['the blast radius of transitive callers', ['BlastRadius', 'blast_radius', 'TransitiveCallers', 'transitive_callers']],
  ])('%s → %j', (text, bigrams) => {
    const set = kw(text, { verbPattern: false });
    expect(set.components.slice(-bigrams.length)).toEqual(bigrams);
  });

  it.each([
    ['a word shorter than 3 chars', 'go routine'],
    ['both words shorter than 4 chars', 'api key'],
    ['a stop word between', 'blast of radius'],
    ['a filler word', 'custom validator'],
    ['an action verb', 'find callers'],
    ['an action verb second', 'callers build'],
    ['digits', 'oauth2 handler'],
    ['a hyphen', 'read-only mode'],
    ['a slash', 'read/write'],
    ['a compound identifier', 'getUser handler'],
    ['punctuation between', 'parser, lexer'],
    ['a sentence break', 'the parser. Lexer'],
    ['a possessive', "flask's session"],
    ['a blank line', 'parser\n\nlexer'],
  ])('skips %s', (_name, text) => {
    const set = kw(text, { verbPattern: false });
    expect(allKeywords(set).filter((k) => k.includes('_') || /[a-z][A-Z]/.test(k))).toEqual(
      set.compounds.filter((k) => k.includes('_') || /[a-z][A-Z]/.test(k)),
    );
  });

  it('pairs words across a single line break', () => {
    expect(kw('blast\nradius').components).toContain('BlastRadius');
  });

  it('goes to the end of components by default', () => {
    const set = kw('snapshot diffing');
    expect(set.compounds).toEqual([]);
    expect(set.components).toEqual(['snapshot', 'diffing', 'SnapshotDiffing', 'snapshot_diffing']);
  });

  it('can go to compounds instead', () => {
    const set = kw('snapshot diffing', { bigramPlacement: 'compounds' });
    expect(set.compounds).toEqual(['SnapshotDiffing', 'snapshot_diffing']);
    expect(set.components).toEqual(['snapshot', 'diffing']);
  });

  it('can be switched off or capped', () => {
    expect(kw('snapshot diffing', { bigrams: false }).components).toEqual(['snapshot', 'diffing']);
    const capped = kw('alpha beta gamma delta', { maxBigramPairs: 1 });
    expect(capped.components.slice(-2)).toEqual(['AlphaBeta', 'alpha_beta']);
  });

  it('is not repeated when the task already spells the identifier', () => {
    const set = kw('blast_radius blast radius');
    expect(set.compounds).toEqual(['blast_radius']);
    expect(set.components.filter((c) => c === 'blast_radius')).toEqual([]);
  });
});

describe('component order', () => {
  it('is priority terms, then by length descending (ties by appearance), then bigrams', () => {
    const set = kw('add tracing to the http router and middleware chain');
    expect(set.components).toEqual([
      'tracing',
      'Tracing',
      'middleware',
      'router',
      'chain',
      'http',
      'HttpRouter',
      'http_router',
      'MiddlewareChain',
      'middleware_chain',
    ]);
  });
});

describe('seed worked examples', () => {
  it('"add a new MCP tool for snapshot diffing"', () => {
    // The seed lists Compounds [SnapshotDiffing, snapshot_diffing] and Components
    // [snapshot, Snapshot, diffing, tool, mcp]. Its stated rules (the first non-filler word
    // after the verb is the priority term; bigrams at the end of components, as in the
    // original code) give the result below; see the README.
    const set = kw('add a new MCP tool for snapshot diffing');
    expect(set.exact).toEqual([]);
    expect(set.compounds).toEqual([]);
    expect(set.priority).toEqual(['mcp', 'Mcp']);
    expect(set.components).toEqual([
      'mcp',
      'Mcp',
      'snapshot',
      'diffing',
      'tool',
      'McpTool',
      'mcp_tool',
      'SnapshotDiffing',
      'snapshot_diffing',
    ]);
    for (const dropped of ['add', 'a', 'new', 'for']) expect(allKeywords(set)).not.toContain(dropped);
  });

  it('the same example with bigrams placed as the seed documents', () => {
    const set = kw('add a new MCP tool for snapshot diffing', { bigramPlacement: 'compounds' });
    expect(set.compounds).toEqual(expect.arrayContaining(['SnapshotDiffing', 'snapshot_diffing']));
    expect(set.components).toEqual(['mcp', 'Mcp', 'snapshot', 'diffing', 'tool']);
  });

  it('back-ticked `before_request` is an exact keyword and is not drowned by its parts', () => {
    const set = kw('Add a new `before_request` hook that validates API keys');
    expect(primaryKeywords(set)[0]).toBe('before_request');
    expect(set.components).toEqual(expect.arrayContaining(['before', 'request']));
  });

  it('code patterns from the seed: .delete(), get_inlines(), QuerySet.annotate(), ModelAdmin.get_inlines', () => {
    const set = kw('Why does .delete() ignore get_inlines() when QuerySet.annotate() runs in ModelAdmin.get_inlines?');
    expect(set.compounds).toEqual(
      expect.arrayContaining(['delete', 'get_inlines', 'QuerySet.annotate', 'queryset.annotate', 'annotate', 'ModelAdmin.get_inlines']),
    );
  });

  it('flask task with url_for() and SERVER_NAME', () => {
    const set = kw('url_for() with _external=True generates wrong host when SERVER_NAME differs');
    expect(set.compounds).toEqual(['url_for', '_external', 'server_name', 'SERVER_NAME']);
    expect(set.components).toEqual(expect.arrayContaining(['external', 'server', 'name', 'url', 'host']));
    expect(allKeywords(set)).not.toContain('true');
  });

  it('vague tasks keep their one noun', () => {
    expect(allKeywords(kw('refactor the handlers'))).toEqual(['handlers', 'Handlers']);
    expect(isKeywordSetEmpty(kw('fix it'))).toBe(true);
  });
});

describe('helpers and guarantees', () => {
  it('primaryKeywords is exact + compounds; allKeywords adds components', () => {
    const set = kw('fix `url_for` in SessionInterface');
    expect(primaryKeywords(set)).toEqual(['url_for', 'sessioninterface', 'SessionInterface']);
    expect(allKeywords(set)).toEqual(['url_for', 'sessioninterface', 'SessionInterface', 'session', 'url']);
  });

  it('helpers de-duplicate hand-made sets', () => {
    const set = { exact: ['a'], compounds: ['a', 'b'], components: ['b', 'c'], priority: [] };
    expect(primaryKeywords(set)).toEqual(['a', 'b']);
    expect(allKeywords(set)).toEqual(['a', 'b', 'c']);
  });

  it('never repeats a keyword across tiers', () => {
    const set = kw('add `SQLiteStore` SQLiteStore sqlite store Store.open() store');
    const all = [...set.exact, ...set.compounds, ...set.components];
    expect(new Set(all).size).toBe(all.length);
  });

  it('is deterministic and returns frozen lists', () => {
    const text = 'Trace how a Caddyfile gets adapted into a running caddy configuration: from parsing tokens';
    expect(kw(text)).toEqual(kw(text));
    const set = kw(text);
    expect(Object.isFrozen(set)).toBe(true);
    expect(Object.isFrozen(set.components)).toBe(true);
  });

  it('handles empty and whitespace-only text', () => {
    expect(kw('')).toEqual({ exact: [], compounds: [], components: [], priority: [] });
    expect(isKeywordSetEmpty(kw(' \n\t '))).toBe(true);
  });

  it('ignores undefined options', () => {
    expect(kw('blast radius', { bigrams: undefined })).toEqual(kw('blast radius'));
  });
});

describe('documented examples', () => {
  it('extractKeywordSet', () => {
    const set = kw('Add a new `before_request` hook to ModelAdmin.get_inlines');
    expect(set).toEqual({
      exact: ['before_request'],
      compounds: ['ModelAdmin.get_inlines', 'modeladmin.get_inlines', 'get_inlines'],
      components: ['request', 'inlines', 'before', 'model', 'admin', 'hook'],
      priority: ['before_request'],
    });
  });

  it('KeywordSet', () => {
    expect(kw('fix `url_for` in SessionInterface')).toEqual({
      exact: ['url_for'],
      compounds: ['sessioninterface', 'SessionInterface'],
      components: ['session', 'url'],
      priority: ['url_for'],
    });
  });

  it('data lists', () => {
    expect(kw('add a custom validator').priority).toEqual(['validator', 'Validator']);
    expect(kw('find callers').components).toEqual(['callers', 'Callers', 'find']);
    expect(kw('settings.py').components).toEqual(['settings']);
    expect(kw('blast radius', { bigramPlacement: 'compounds' }).compounds).toEqual(['BlastRadius', 'blast_radius']);
    expect(allKeywords(kw('blast radius'))).toEqual(['radius', 'blast', 'BlastRadius', 'blast_radius']);
    expect(isKeywordSetEmpty(kw('fix it'))).toBe(true);
  });
});
