import { describe, expect, it } from 'vitest';
import { camelParts, conceptsOf, expandIdentifiers, identifierParts } from '../src/text.js';

describe('identifier parts', () => {
  it('splits CamelCase, keeping acronym runs and known mixed-case words together', () => {
    expect(camelParts('HTTPServer')).toEqual(['HTTP', 'Server']);
    expect(camelParts('SQLiteStore')).toEqual(['SQLite', 'Store']);
    expect(camelParts('XMLHttpRequest')).toEqual(['XML', 'Http', 'Request']);
    expect(camelParts('OAuthHandler')).toEqual(['OAuth', 'Handler']);
    expect(camelParts('parseHTTP2Response')).toEqual(['parse', 'HTTP2', 'Response']);
    expect(camelParts('utf8Decode')).toEqual(['utf8', 'Decode']);
    expect(camelParts('ÄrgerÜber')).toEqual(['Ärger', 'Über']);
    expect(camelParts('lowercase')).toEqual(['lowercase']);
  });

  it('splits snake_case and the CamelCase inside it, dropping one-letter parts', () => {
    expect(identifierParts('before_request')).toEqual(['before', 'request']);
    expect(identifierParts('__init__')).toEqual(['init']);
    expect(identifierParts('load_HTTPConfig')).toEqual(['load', 'HTTPConfig', 'HTTP', 'Config']);
    expect(identifierParts('get_x')).toEqual(['get']);
    expect(identifierParts('plain')).toEqual([]);
  });
});

describe('expandIdentifiers', () => {
  it('keeps the text and appends the parts of its identifiers once', () => {
    expect(expandIdentifiers('SQLiteStore')).toBe('SQLiteStore SQLite Store');
    expect(expandIdentifiers('HTTPServer')).toBe('HTTPServer HTTP Server');
    expect(expandIdentifiers('before_request')).toBe('before_request before request');
    expect(expandIdentifiers('def before_request(self, before_request_funcs):')).toBe(
      'def before_request(self, before_request_funcs): before request funcs',
    );
  });

  it('leaves plain prose and paths alone: the tokenizer already splits them', () => {
    expect(expandIdentifiers('Runs before each request.')).toBe('Runs before each request.');
    expect(expandIdentifiers('src/flask/app.py')).toBe('src/flask/app.py');
    expect(expandIdentifiers('src/flask_login/utils.py')).toBe('src/flask_login/utils.py flask login');
    expect(expandIdentifiers('')).toBe('');
  });

  it('expands a text the same whatever was expanded before it (the parts of each word are memoised)', () => {
    const texts = [
      'def before_request(self, before_request_funcs):',
      'before_request_funcs before_request',
      'src/flask_login/utils.py.LoginManager.user_loader',
      'LoginManager user_loader login_manager',
      'SQLiteStore HTTPServer parseHTTPHeader',
      'HTTPServer_SQLiteStore __init__ _private',
      'größeBerechnen und straße_name',
      'straße_name größeBerechnen größe',
    ];
    const forward = texts.map((t) => expandIdentifiers(t));
    const backward = [...texts].reverse().map((t) => expandIdentifiers(t)).reverse();
    expect(backward).toEqual(forward);
    expect(forward[1]).toBe('before_request_funcs before_request before request funcs');
    expect(forward[5]).toBe('HTTPServer_SQLiteStore __init__ _private HTTPServer SQLiteStore HTTP Server SQLite Store init private');
  });

  it('handles non-ASCII identifiers like ASCII ones', () => {
    expect(expandIdentifiers('größeBerechnen und straße_name')).toBe('größeBerechnen und straße_name größe Berechnen straße name');
  });
});

describe('conceptsOf', () => {
  it('takes words of at least three characters from directories and the file stem', () => {
    expect(conceptsOf('src/auth/OAuthHandler.go')).toBe('auth OAuthHandler OAuth Handler');
    expect(conceptsOf('pkg/internal/session_store/redis_cache.py')).toBe('session_store session store redis_cache redis cache');
    expect(conceptsOf('lib/ui/Button.tsx')).toBe('Button');
    expect(conceptsOf('setup.py')).toBe('setup');
    expect(conceptsOf('')).toBe('');
  });
});
