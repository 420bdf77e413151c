import { badFormat } from './errors.js';

/**
 * Characters a GCF token never carries raw: `%`, C0 controls, space, DEL, C1 controls, and
 * every other character JavaScript's `\s` matches (Unicode White_Space and U+FEFF).
 */
const ESCAPED = /[%\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/gu;
const RAW_FORBIDDEN = /[\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/u;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function percent(char: string): string {
  let out = '';
  for (const byte of encoder.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/**
 * Write a value as one GCF token: escaped characters become `%XX` per UTF-8 byte; the empty
 * value is `-`; a value spelled `-`, starting with `#` (which starts comments) or spelled like
 * one of `reserved` gets its first character percent-encoded, so a reader matching reserved
 * spellings on the raw token is never fooled.
 */
export function encodeToken(value: string, reserved?: ReadonlySet<string>): string {
  if (value === '') return '-';
  const escaped = value.replace(ESCAPED, percent);
  if (escaped === '-' || escaped.startsWith('#') || reserved?.has(escaped)) {
    const first = String.fromCodePoint(escaped.codePointAt(0)!);
    return percent(first) + escaped.slice(first.length);
  }
  return escaped;
}

/** Read a token back: `-` is the empty value, `%XX` runs are UTF-8 bytes. Malformed → BAD_FORMAT. */
export function decodeToken(raw: string, what: string): string {
  if (raw === '') throw badFormat(`empty ${what}`);
  if (RAW_FORBIDDEN.test(raw)) throw badFormat(`${what} ${JSON.stringify(raw)} contains an unescaped space or control character`);
  if (raw === '-') return '';
  if (!raw.includes('%')) return raw;
  return raw.replace(/(?:%[0-9A-Fa-f]{2})+|%/g, (run) => {
    if (run === '%') throw badFormat(`${what} ${JSON.stringify(raw)} has a % not followed by two hex digits`);
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    try {
      return decoder.decode(bytes);
    } catch (cause) {
      throw badFormat(`${what} ${JSON.stringify(raw)} escapes bytes that are not UTF-8`, cause);
    }
  });
}
