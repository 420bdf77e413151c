import { createHeuristicTokenizer } from '@knowing/pack';
import type { Tokenizer } from '@knowing/pack';
import type { GraphNode } from '@knowing/graph';
import { invalidArgument } from './errors.js';

const heuristic = createHeuristicTokenizer();

/** Tokens of `text` on the given counter (⌊chars / 4⌋ by default), at least `min`. */
export function countTokens(text: string, tokenizer: Tokenizer | undefined, min = 0): number {
  const count = (tokenizer ?? heuristic).count(text);
  if (!Number.isFinite(count) || count < 0) throw invalidArgument(`tokenizer returned ${count}; a count must be a finite number ≥ 0`);
  return Math.max(min, count);
}

/** Fixed two decimals; never `-0.00`. */
export function formatScore(score: number): string {
  const text = score.toFixed(2);
  return text === '-0.00' ? '0.00' : text;
}

/** Collapse every whitespace run (newlines included) to one space and trim. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The first `max` characters of a doc comment on one line, cut at a word boundary when one is
 * near and marked with `…` when shortened.
 */
export function docExcerpt(doc: string, max: number): string {
  const flat = oneLine(doc);
  if (max <= 0) return '';
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Characters XML 1.0 cannot carry at all, even as references: most C0 controls, lone surrogates, U+FFFE/U+FFFF. */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Any character escapeXmlText or escapeXmlAttribute changes (any surrogate, to be safe). Most
 * names, paths and signatures have none, and a test is one pass where the escapes are five or
 * eight, for every text of every symbol of each trial render of a budget fit.
 */
const XML_TEXT_SPECIAL = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const XML_ATTRIBUTE_SPECIAL = /[&<>\r"\t\n\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Escape text content: `&`, `<`, `>`, CR as a reference; unrepresentable characters become U+FFFD. */
export function escapeXmlText(text: string): string {
  if (!XML_TEXT_SPECIAL.test(text)) return text;
  return text
    .replace(XML_FORBIDDEN, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escape a double-quoted attribute value; tabs and line breaks as references so parsers keep them. */
export function escapeXmlAttribute(text: string): string {
  if (!XML_ATTRIBUTE_SPECIAL.test(text)) return text;
  return escapeXmlText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

/** A markdown code span that survives backticks inside: the fence is longer than any run in the text. */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * `file:start-end`, `file:line`, or the bare file when lines are unknown; empty for
 * placeholders without a file.
 */
export function location(node: Pick<GraphNode, 'file' | 'startLine' | 'endLine'>): string {
  if (!node.file) return '';
  if (node.startLine <= 0) return node.file;
  if (node.endLine <= node.startLine) return `${node.file}:${node.startLine}`;
  return `${node.file}:${node.startLine}-${node.endLine}`;
}

/** The name a tokenizer reports for headers, or undefined for an unnamed (custom) one. */
export function tokenizerName(tokenizer: Tokenizer | undefined): string | undefined {
  const name = tokenizer?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * Text as an XML CDATA section: unrepresentable characters become U+FFFD and a `]]>` inside is
 * split across two sections, so any source text survives a parser unchanged otherwise.
 */
export function xmlCdata(value: string): string {
  return `<![CDATA[${value.replace(XML_FORBIDDEN, '\uFFFD').replace(/\]\]>/g, ']]]]><![CDATA[>')}]]>`;
}

/** A fence for a markdown code block around `text`: backticks, longer than any run at a line start. */
export function codeFence(text: string): string {
  let longest = 2;
  for (const run of text.match(/^\s*`+/gm) ?? []) longest = Math.max(longest, run.trim().length);
  return '`'.repeat(longest + 1);
}
