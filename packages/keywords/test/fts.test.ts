import { describe, expect, it } from 'vitest';
import {
  allKeywords,
  buildFtsQuery,
  decomposeCompounds,
  extractKeywordSet,
  extractPathTerms,
  primaryKeywords,
} from '../src/index.js';
import { checkFtsQuery } from './fts5-grammar.js';

describe('buildFtsQuery', () => {
  it.each([
    ['snake_case', ['before_request'], 'name:"before_request"'],
    ['dotted', ['QuerySet.annotate'], 'name:"QuerySet.annotate"'],
    ['CamelCase', ['TransitiveCallers'], 'name:"TransitiveCallers"'],
    ['capitalised (mixed case)', ['Snapshot'], 'name:"Snapshot"'],
    ['dunder', ['__init__'], 'name:"__init__"'],
  ])('targets a %s keyword at the name column as a phrase', (_name, keywords, query) => {
    expect(buildFtsQuery(keywords)).toBe(query);
  });

  it.each([
    ['lower-case words', ['router', 'middleware'], 'router OR middleware'],
    ['upper-case words', ['HTTP', 'MCP'], 'HTTP OR MCP'],
    ['words with digits', ['oauth2', '404'], 'oauth2 OR 404'],
  ])('keeps %s bare, joined with OR', (_name, keywords, query) => {
    expect(buildFtsQuery(keywords)).toBe(query);
  });

  it('mixes both, in input order', () => {
    expect(buildFtsQuery(['before_request', 'hook', 'SQLiteStore'])).toBe('name:"before_request" OR hook OR name:"SQLiteStore"');
  });

  it.each([
    ['AND', '"AND"'],
    ['or', '"or"'],
    ['not', '"not"'],
    ['near', '"near"'],
    ['NEAR', '"NEAR"'],
    ['foo:bar', '"foo:bar"'],
    ['a*b', '"a*b"'],
    ['(x)', '"(x)"'],
    ['^start', '"^start"'],
    ['-neg', '"-neg"'],
    ['+plus', '"+plus"'],
    ['say "hi"', '"say hi"'],
    ['café', '"café"'],
    ['日本語', '"日本語"'],
    ['two words', '"two words"'],
    ['tab\tand\nnewline', '"tab and newline"'],
    ['NEAR(A B)', '"NEAR(A B)"'],
    ['Not', 'name:"Not"'], // mixed case: an identifier-like phrase, which is quoted too
  ])('quotes %j', (keyword, clause) => {
    expect(buildFtsQuery([keyword])).toBe(clause);
  });

  it('removes quotes inside name phrases', () => {
    expect(buildFtsQuery(['foo_"bar'])).toBe('name:"foo_ bar"');
  });

  it.each([[[]], [['']], [['   ']], [['"', '*', ':', '()', '^', '-', '""']], [['\u0000\u0001']], [['😀']]])(
    'returns an empty string when nothing is searchable: %j',
    (keywords) => {
      expect(buildFtsQuery(keywords)).toBe('');
    },
  );

  it('de-duplicates clauses case-insensitively', () => {
    expect(buildFtsQuery(['router', 'ROUTER', 'before_request', 'BEFORE_REQUEST', 'Router', 'ROUTER'])).toBe(
      'router OR name:"before_request" OR name:"Router"',
    );
  });

  it('caps the keyword clauses and leaves out over-long terms', () => {
    const many = Array.from({ length: 100 }, (_, i) => `word${i}`);
    expect(buildFtsQuery(many).split(' OR ')).toHaveLength(64);
    expect(buildFtsQuery(many, { maxTerms: 3 })).toBe('word0 OR word1 OR word2');
    expect(buildFtsQuery(['a'.repeat(101), 'ok'])).toBe('ok');
    expect(buildFtsQuery(['a'.repeat(101)], { maxTermLength: 200 })).toBe('a'.repeat(101));
  });

  describe('path terms', () => {
    it('adds path prefix clauses for terms of at least four characters', () => {
      expect(buildFtsQuery(['operation'], { pathTerms: ['migration', 'ops', 'Models'] })).toBe(
        'operation OR path:migration* OR path:models*',
      );
    });

    it('quotes path terms that are not plain ASCII words', () => {
      expect(buildFtsQuery([], { pathTerms: ['données', 'a-b-c', 'x y z', 'NEAR'] })).toBe('path:"données"* OR path:"a-b-c"* OR path:"near"*');
    });

    it('caps path clauses', () => {
      const paths = Array.from({ length: 20 }, (_, i) => `path${i}`);
      expect(buildFtsQuery([], { pathTerms: paths }).split(' OR ')).toHaveLength(10);
      expect(buildFtsQuery([], { pathTerms: paths, maxPathTerms: 2 })).toBe('path:path0* OR path:path1*');
      expect(buildFtsQuery([], { pathTerms: ['abc'], minPathTermLength: 3 })).toBe('path:abc*');
    });
  });

  describe('phrase pairs', () => {
    it('pairs the words of two-word snake_case entries (bigrams, identifiers)', () => {
      const set = extractKeywordSet('add code actions');
      expect(buildFtsQuery([], { phraseTerms: allKeywords(set) })).toBe('"code actions"');
      expect(buildFtsQuery([], { phraseTerms: ['before_request', 'a_b', 'x_y_z'] })).toBe('"before request"');
    });

    it('falls back to adjacent plain words when there is no snake_case pair', () => {
      expect(buildFtsQuery([], { phraseTerms: ['snapshot', 'Snapshot', 'diffing', 'tool', 'mcp'] })).toBe(
        '"snapshot diffing" OR "diffing tool" OR "tool mcp"',
      );
    });

    it('needs both words of at least three characters', () => {
      expect(buildFtsQuery([], { phraseTerms: ['ab', 'router', 'cd'] })).toBe('');
      expect(buildFtsQuery([], { phraseTerms: ['ab_router'] })).toBe('');
      expect(buildFtsQuery([], { phraseTerms: ['ab', 'router', 'cd'], minPhraseWordLength: 2 })).toBe('"ab router" OR "router cd"');
    });

    it('takes at most five pairs', () => {
      const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
      expect(buildFtsQuery([], { phraseTerms: words }).split(' OR ')).toHaveLength(5);
      expect(buildFtsQuery([], { phraseTerms: words, maxPhrasePairs: 1 })).toBe('"alpha bravo"');
    });
  });

  describe('related terms', () => {
    it('ORs related terms in bare, after everything else', () => {
      expect(buildFtsQuery(['consumer'], { relatedTerms: ['subscriber', 'listener', 'ALTER TABLE'], pathTerms: ['kafka'] })).toBe(
        'consumer OR path:kafka* OR subscriber OR listener OR "ALTER TABLE"',
      );
    });

    it('takes at most ten', () => {
      const related = Array.from({ length: 15 }, (_, i) => `rel${i}`);
      expect(buildFtsQuery([], { relatedTerms: related }).split(' OR ')).toHaveLength(10);
      expect(buildFtsQuery([], { relatedTerms: related, maxRelatedTerms: 1 })).toBe('rel0');
    });
  });

  it('builds the queries of the README example', () => {
    const task = 'Add a new `before_request` hook to ModelAdmin.get_inlines';
    const set = extractKeywordSet(task);
    expect(buildFtsQuery(primaryKeywords(set), { phraseTerms: allKeywords(set), pathTerms: extractPathTerms(task) })).toBe(
      'name:"before_request" OR name:"ModelAdmin.get_inlines" OR name:"get_inlines" OR "before request" OR "get inlines"' +
        ' OR path:before_request* OR path:modeladmin* OR path:get_inline* OR path:inline* OR path:admin*',
    );
    expect(decomposeCompounds(primaryKeywords(set))).toBe('name:before OR name:request OR name:model OR name:admin OR name:inlines');
  });

  it('builds the query of the documented example', () => {
    const task = 'add a before_request hook';
    const set = extractKeywordSet(task);
    expect(buildFtsQuery(primaryKeywords(set), { phraseTerms: allKeywords(set), pathTerms: extractPathTerms(task) })).toBe(
      'name:"before_request" OR "before request" OR path:before_request* OR path:hook*',
    );
  });
});

describe('decomposeCompounds', () => {
  it.each([
    ['keeps the last two dotted segments', ['django.contrib.admin.ModelAdmin.get_inlines'], 'name:model OR name:admin OR name:inlines'],
    ['drops dunder segments', ['Foo.__init__'], 'name:foo'],
    ['drops a lone dunder', ['__init__'], ''],
    ['splits CamelCase, dropping stop words', ['getHTTPResponse'], 'name:http OR name:response'],
    ['splits snake_case', ['before_request'], 'name:before OR name:request'],
    ['drops parts shorter than three characters', ['io_ab_cde'], 'name:cde'],
    ['keeps plain words bare', ['router', 'hook'], 'router OR hook'],
    ['treats a capitalised word as a compound', ['Snapshot'], 'name:snapshot'],
    ['quotes non-ASCII parts', ['ÉtatMachine'], 'name:"état" OR name:machine'],
    ['quotes plain words that need it', ['NOT', 'a:b'], '"NOT" OR "a:b"'],
    ['de-duplicates', ['before_request', 'request_before', 'before'], 'name:before OR name:request OR before'],
    ['returns empty for nothing', [], ''],
    [
      'skips lower-cased copies of mixed-case compounds',
      ['ModelAdmin.get_inlines', 'modeladmin.get_inlines', 'get_inlines'],
      'name:model OR name:admin OR name:inlines',
    ],
    ['keeps a lower-case compound without a cased twin', ['modeladmin.get_inlines'], 'name:modeladmin OR name:inlines'],
    ['keeps plain lower-case twins bare', ['Router', 'router'], 'name:router OR router'],
  ])('%s', (_name, keywords, query) => {
    expect(decomposeCompounds(keywords)).toBe(query);
  });

  it('takes tunables', () => {
    expect(decomposeCompounds(['a.b_c.d_e.f_g'], { maxSegments: 3, minPartLength: 1 })).toBe(
      'name:b OR name:c OR name:d OR name:e OR name:f OR name:g',
    );
    expect(decomposeCompounds(['get_user'], { stopWords: [] })).toBe('name:get OR name:user');
  });
});

// --- property-style checks: any input gives a query the FTS5 grammar accepts -------------

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const HOSTILE_PIECES = [
  '"', "'", '`', ':', '(', ')', '*', '^', '-', '+', '.', '_', '/', '\\', ' ', ' ', '\t', '\n',
  'AND', 'OR', 'NOT', 'NEAR', 'and', 'near(', 'name:', 'path:', 'col:', '{', '}', '[', ']',
  ',', ';', '#', '$', '@', '=', '%', '|', '~', '<', '>', '?', '!', '0', '12', '3.9',
  'a', 'Foo', 'bar', 'x_y', 'QuerySet.annotate()', '`before_request`', 'É', 'ß', '日本',
  '😀', '\u0000', '\u0007', '\uD800', '\uDC00', '\u00AD', '\u200B', 'ＡＢ', 'İ', 'ǅ', 'e.g.',
];

function hostileText(next: () => number, maxPieces: number): string {
  let text = '';
  const n = Math.floor(next() * maxPieces);
  for (let i = 0; i < n; i++) text += HOSTILE_PIECES[Math.floor(next() * HOSTILE_PIECES.length)];
  return text;
}

function expectValid(query: string): void {
  const problem = checkFtsQuery(query);
  expect(problem, query).toBeNull();
}

describe('FTS5 validity under hostile input', () => {
  it('the checker itself rejects broken queries', () => {
    for (const bad of ['"', 'a OR', 'OR a', 'a AND b', 'name:', 'x:"a"', 'a*', '"a" b', 'NEAR', '"..."', 'a  OR b', '(a)']) {
      expect(checkFtsQuery(bad), bad).not.toBeNull();
    }
    for (const good of ['', 'a', 'name:"a b"', 'a OR "b ""c"""', 'path:abc*', 'path:"é"*']) {
      expect(checkFtsQuery(good), good).toBeNull();
    }
  });

  it('holds for random hostile task text through the whole pipeline', () => {
    const next = prng(20240601);
    for (let run = 0; run < 1500; run++) {
      const text = hostileText(next, 40);
      const set = extractKeywordSet(text);
      const words = text.split(/\s+/);
      expectValid(buildFtsQuery(primaryKeywords(set)));
      expectValid(
        buildFtsQuery(allKeywords(set), {
          phraseTerms: allKeywords(set),
          pathTerms: extractPathTerms(text),
          relatedTerms: words,
        }),
      );
      expectValid(decomposeCompounds(allKeywords(set)));
    }
  });

  it('holds for random hostile keyword lists given directly', () => {
    const next = prng(7);
    for (let run = 0; run < 1500; run++) {
      const keywords = Array.from({ length: Math.floor(next() * 8) }, () => hostileText(next, 6));
      expectValid(buildFtsQuery(keywords, { phraseTerms: keywords, pathTerms: keywords, relatedTerms: keywords }));
      expectValid(decomposeCompounds(keywords));
    }
  });

  it.each([
    ['empty', ''],
    ['only quotes', '""""""'],
    ['unbalanced quotes', 'fix "before_request hook'],
    ['colons', 'name: path: a:b:c :: ::x'],
    ['parentheses', '((a) (b)) ) ( NEAR(a b, 2)'],
    ['asterisks and carets', '* ** a* *b ^c ^'],
    ['operators', 'AND OR NOT NEAR and or not near'],
    ['unicode', 'ñandú 東京 Ελληνικά العربية 😀👍🏽 \u200B\u00AD'],
    ['control characters and lone surrogates', 'a\u0000b \uD800x \uDC00y \u001Fz'],
    ['very long', 'blast radius_of `TransitiveCallers` QuerySet.annotate() '.repeat(2000)],
    ['one very long word', 'x'.repeat(100_000)],
  ])('holds for %s', (_name, text) => {
    const set = extractKeywordSet(text);
    const words = text.split(/\s+/);
    expectValid(buildFtsQuery(allKeywords(set), { phraseTerms: allKeywords(set), pathTerms: extractPathTerms(text), relatedTerms: words }));
    expectValid(buildFtsQuery(words, { phraseTerms: words, pathTerms: words, relatedTerms: words }));
    expectValid(decomposeCompounds(words));
    expectValid(decomposeCompounds(allKeywords(set)));
  });
});
