import { describe, expect, it } from 'vitest';
import { escapeXmlAttribute, escapeXmlText } from '../src/text.js';

// The escapes spelled out in full, as they read before texts without a special character were
// returned untouched.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const fullText = (text: string): string =>
  text.replace(FORBIDDEN, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
const fullAttribute = (text: string): string => fullText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');

describe('XML escapes', () => {
  it('escape every code unit as the full chain of replacements does, alone and between letters', () => {
    for (let unit = 0; unit <= 0xffff; unit++) {
      const c = String.fromCharCode(unit);
      for (const text of [c, `a${c}b`]) {
        expect(escapeXmlText(text)).toBe(fullText(text));
        expect(escapeXmlAttribute(text)).toBe(fullAttribute(text));
      }
    }
  });

  it('keep a surrogate pair and replace lone halves', () => {
    for (const text of ['fn \u{1F600}()', '\uD83D', 'x\uDE00y', '\uDE00\uD83D', 'a < b && c > "d"\r\n\t']) {
      expect(escapeXmlText(text)).toBe(fullText(text));
      expect(escapeXmlAttribute(text)).toBe(fullAttribute(text));
    }
    expect(escapeXmlText('fn \u{1F600}()')).toBe('fn \u{1F600}()');
    expect(escapeXmlText('x\uDE00y')).toBe('x\uFFFDy');
  });
});
