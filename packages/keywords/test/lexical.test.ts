import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lexicalQueryTerms, lexicalTermText, lexicalTerms } from '../src/lexical.js';

describe('lexicalTerms: one normalisation for task words and symbol text', () => {
  it('folds inflections of a word and the parts of identifiers to the same terms', () => {
    // "rendered" in a task must meet `render`/`renderTemplate`/`render_page` in code.
    const task = lexicalQueryTerms('the page is rendered twice when templates are cached');
    const code = new Set(lexicalTerms('def render_page(self): return renderTemplate(self.cache)'));
    for (const term of ['render', 'page', 'templat', 'cach']) {
      expect(task).toContain(term);
      expect(code.has(term)).toBe(true);
    }
  });

  it('splits camelCase, acronyms, snake_case and digits, drops stop words and single letters', () => {
    expect(lexicalTerms('parseHTTPHeader x_y get_user_by_id v2')).toEqual(['pars', 'http', 'header', 'user', 'id']);
  });

  it('query terms are distinct, in first-seen order', () => {
    expect(lexicalQueryTerms('Renders render rendering RENDERED')).toEqual(['render']);
  });
});

describe('lexicalTermText: the joined terms of a line, memoised per word', () => {
  it('equals lexicalTerms joined by spaces on every line of real source and on edge cases', () => {
    const sources = ['../src', '../../indexer/src', '../../store-sqlite/src'].flatMap((dir) => {
      const at = join(import.meta.dirname, dir);
      return readdirSync(at).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join(at, f), 'utf8'));
    });
    const lines = sources.flatMap((text) => text.split('\n'));
    expect(lines.length).toBeGreaterThan(5000);
    const edge = ['', '   ', 'x', 'HTTPServer', 'ABC', 'aB1cD2', 'über_naïve résumé', 'a\u00a0b', '__init__', 'x2y', 'GET /users/:id 404', 'ÅngströmUnit'];
    // Twice: the second pass answers from the memo.
    for (let pass = 0; pass < 2; pass++) for (const line of [...edge, ...lines]) expect(lexicalTermText(line)).toBe(lexicalTerms(line).join(' '));
  });

  it('stays right when the memo is emptied on reaching its bound', () => {
    const words = Array.from({ length: 120_000 }, (_, i) => `fetchItem${i.toString(36)}Value`);
    const text = words.join(' ');
    expect(lexicalTermText(text)).toBe(lexicalTerms(text).join(' '));
    expect(lexicalTermText('parseHTTPHeader rendered')).toBe('pars http header render');
  });
});
