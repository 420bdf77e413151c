import { describe, expect, it } from 'vitest';
import { isCompoundIdentifier, splitIdentifier } from '../src/index.js';
import { splitCamelGeneral } from '../src/split.js';

describe('splitIdentifier', () => {
  it.each([
    // CamelCase, lower→Upper
    ['getUserName', ['get', 'User', 'Name']],
    ['TransitiveCallers', ['Transitive', 'Callers']],
    // acronym runs: break before the last capital when lower case follows
    ['HTTPServer', ['HTTP', 'Server']],
    ['getHTTPResponse', ['get', 'HTTP', 'Response']],
    ['XMLHttpRequest', ['XML', 'Http', 'Request']],
    ['parseJSON', ['parse', 'JSON']],
    ['IOError', ['IO', 'Error']],
    // digits stay with the word before them; digit→Upper is a boundary
    ['SearchBM25Nodes', ['Search', 'BM25', 'Nodes']],
    ['HTTP2Server', ['HTTP2', 'Server']],
    ['utf8Decode', ['utf8', 'Decode']],
    ['base64encode', ['base64encode']],
    // mixed-case atoms stay whole
    ['SQLiteStore', ['SQLite', 'Store']],
    ['useSQLiteDB', ['use', 'SQLite', 'DB']],
    ['OAuth2Handler', ['OAuth2', 'Handler']],
    ['GraphQLSchema', ['GraphQL', 'Schema']],
    ['MySQLDriver', ['MySQL', 'Driver']],
    // an atom needs a word boundary after it
    ['SQLiteral', ['SQ', 'Literal']],
    // plural acronyms
    ['UUIDs', ['UUIDs']],
    ['APIsByName', ['APIs', 'By', 'Name']],
    // snake_case, SCREAMING_CASE, dunder, dotted, kebab, paths
    ['before_request', ['before', 'request']],
    ['INSTALLED_APPS', ['INSTALLED', 'APPS']],
    ['__init__', ['init']],
    ['ModelAdmin.get_inlines', ['Model', 'Admin', 'get', 'inlines']],
    ['rate-limit', ['rate', 'limit']],
    ['src/flask/app', ['src', 'flask', 'app']],
    // single words are one part
    ['Snapshot', ['Snapshot']],
    ['MCP', ['MCP']],
    ['snapshot', ['snapshot']],
    ['', []],
    ['___', []],
    // non-ASCII letters
    ['ÉtatMachine', ['État', 'Machine']],
    ['添加缓存', ['添加缓存']],
  ] as const)('%s → %j', (word, parts) => {
    expect(splitIdentifier(word)).toEqual(parts);
  });

  it('keeps single-letter parts (filtering is the caller’s job)', () => {
    expect(splitIdentifier('aValue')).toEqual(['a', 'Value']);
  });
});

describe('isCompoundIdentifier', () => {
  it.each([
    ['before_request', true],
    ['SQLiteStore', true],
    ['getUser', true],
    ['session.modified', true],
    ['__init__', true],
    ['Snapshot', false],
    ['MCP', false],
    ['UUIDs', false],
    ['snapshot', false],
    ['SQLite', false],
  ] as const)('%s → %s', (word, expected) => {
    expect(isCompoundIdentifier(word)).toBe(expected);
  });
});

describe('splitIdentifier on ASCII letters and digits', () => {
  it('splits as the Unicode path does, for identifiers built to hit every boundary rule', () => {
    // Pieces that meet at each rule's edge: case changes, acronym runs, plural `s`, digits,
    // the atoms and near misses of them.
    const pieces = ['a', 'b', 's', 'x', 'A', 'B', 'S', 'Z', '0', '7', '42', 'Http', 'HTTP', 'URL', 'UUIDs', 'IDs', 'get', 'Server', 'SQLite', 'SQLites', 'OAuth', 'GraphQL', 'iOS', 'IPv4', 'IPv6x', 'gRPC', 'macOS', 'PyPI', 'Py', 'My', 'SQ', 'mySQL', 'MySQLDB', 'sqlite'];
    let seed = 20261127;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let compared = 0;
    for (let k = 0; k < 5000; k++) {
      let word = '';
      const parts = 1 + random(5);
      for (let p = 0; p < parts; p++) word += pieces[random(pieces.length)];
      const general: string[] = [];
      splitCamelGeneral(word, general);
      expect(splitIdentifier(word), word).toEqual(general);
      compared++;
    }
    expect(compared).toBe(5000);
    expect(splitIdentifier('parseHTTPSUrls2Fast')).toEqual(['parse', 'HTTPS', 'Urls2', 'Fast']);
  });
});
