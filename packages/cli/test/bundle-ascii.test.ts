import { describe, expect, it } from 'vitest';
import { asciiBundle } from '../src/bundle-ascii.js';

describe('asciiBundle', () => {
  it('escapes the comments, keeping every line where it was', () => {
    const text = ['// one line \u2014 with a dash', 'const a = 1;', '  /**', '   * a doc\u00a0comment', '   */', 'const b = "x";'].join('\n');
    const out = asciiBundle('cli.cjs', text);
    expect(out.split('\n')).toEqual(['// one line \\u2014 with a dash', 'const a = 1;', '  /**', '   * a doc\\u00A0comment', '   */', 'const b = "x";']);
    expect(/[^\x00-\x7f]/.test(out)).toBe(false);
  });

  it('refuses a character in code, naming its line', () => {
    const text = ['// fine \u2014', 'const quotes = /[\u201c\u201d]/g;'].join('\n');
    expect(() => asciiBundle('dist/cli.cjs', text)).toThrow(/dist\/cli\.cjs:2: a character outside ASCII in code.*const quotes/);
  });

  it('leaves an ASCII bundle as it is', () => {
    const text = '"use strict";\n// plain\nexports.a = "\\u201C";\n';
    expect(asciiBundle('cli.cjs', text)).toBe(text);
  });
});
