import { describe, expect, it } from 'vitest';
import { lexicalQueryTerms, lexicalTerms } from '../src/lexical.js';

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
