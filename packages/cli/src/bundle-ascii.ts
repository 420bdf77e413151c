/**
 * Build-time only (tsup.config.ts): the CLI's cached bundle with no character outside ASCII.
 *
 * Node reads an ASCII file into a one-byte string at once; a single character beyond it (an em
 * dash in a comment) makes the whole 1.6 MB bundle a two-byte string, decoded and then compiled
 * more slowly: about 10 ms of every cold `knowing context`. esbuild escapes strings itself but
 * keeps comments and regular expression literals as written. Comment lines are escaped here (a
 * comment means the same either way, and the file keeps its lines, so the source map's lines
 * hold); a character left in code is an error, to be written as an escape in its source.
 */
export function asciiBundle(file: string, text: string): string {
  const lines = text.split('\n').map((line) => (COMMENT_LINE.test(line) ? line.replace(NON_ASCII_GLOBAL, escapeChar) : line));
  const left = lines.findIndex((line) => NON_ASCII.test(line));
  if (left >= 0) {
    throw new Error(`${file}:${left + 1}: a character outside ASCII in code; write it as a \\u escape in its source: ${lines[left]!.trim().slice(0, 120)}`);
  }
  return lines.join('\n');
}

/** A line of a `//` comment, or of a block comment as formatters write them. */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*)/;
const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_GLOBAL = /[^\x00-\x7f]/g;

const escapeChar = (c: string): string => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
