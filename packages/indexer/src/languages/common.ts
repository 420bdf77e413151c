/**
 * Small helpers every language module needs. Modules may import them; none is required.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { NodeKind } from '@knowing/graph';
import type { NameRef, SupertypeRef, SymbolDef } from './types.js';

/** Longest signature kept, in characters. */
export const MAX_SIGNATURE_CHARS = 200;
/** Longest doc kept, in characters. */
export const MAX_DOC_CHARS = 500;

/**
 * Count ERROR and MISSING nodes. Descends only into subtrees that contain an error, so a
 * clean file costs one property read.
 */
export function countSyntaxErrors(root: SyntaxNode): number {
  if (!root.hasError) return 0;
  let count = 0;
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend) {
        if (node.type === 'ERROR' || node.isMissing) count++;
        if (node.hasError && cursor.gotoFirstChild()) continue;
      }
      if (cursor.gotoNextSibling()) {
        descend = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descend = false;
    }
  } finally {
    cursor.delete();
  }
  return count;
}

/**
 * A file's syntax tree and the texts a comment of its language can start with, for
 * {@link sliceWithoutComments}: only where an opener occurs is the tree asked whether a comment
 * starts there, so a declaration without one costs a string search.
 */
export interface CommentScan {
  readonly root: SyntaxNode;
  readonly openers: readonly string[];
}

/** Comment openers of the C family: Go, Rust, Java, C#, JavaScript, TypeScript. */
export const C_COMMENT_OPENERS: readonly string[] = Object.freeze(['//', '/*']);

/** Every grammar names its comment nodes `comment` or `…_comment` (`line_comment`, `block_comment`). */
function isCommentType(type: string): boolean {
  return type === 'comment' || type.endsWith('_comment');
}

function nextOpener(text: string, from: number, openers: readonly string[]): number {
  let next = -1;
  for (const opener of openers) {
    const at = text.indexOf(opener, from);
    if (at >= 0 && (next < 0 || at < next)) next = at;
  }
  return next;
}

const WORD_CHAR = /[\p{L}\p{N}_$]/u;
/** A space a cut comment leaves is dropped after these… */
const OPENING = /[([{]/;
/** …and before these: `f(a` and a block comment before `)` read `f(a)`. */
const CLOSING = /[)\]},;]/;

function isBlank(char: string | undefined): boolean {
  return char === ' ' || char === '\t';
}

/**
 * `source` from `from` to `to` with every comment inside it cut out, as the syntax tree says:
 * a `#` or `//` inside a string stays. A comment goes with the spaces around it on its line;
 * line breaks stay for the caller's whitespace collapsing. Where the comment sat between two
 * tokens, one space remains if spaces surrounded it or if both tokens are words (a block comment
 * between `int` and `x` must not make `intx`), except after an opening bracket or before a
 * closing one or a separator. Without `comments`, the plain slice.
 */
export function sliceWithoutComments(source: string, from: number, to: number, comments: CommentScan | undefined): string {
  const text = source.slice(from, to);
  if (!comments) return text;
  let at = nextOpener(text, 0, comments.openers);
  if (at < 0) return text;
  let out = '';
  let kept = 0;
  while (at >= 0) {
    const position = from + at;
    const leaf = comments.root.descendantForIndex(position, position + 1);
    let comment: SyntaxNode | null = null;
    // The token at an opener is the comment or, in grammars that split comments into parts
    // (Rust's `//` and doc text), its first part: a comment starts exactly at its opener.
    for (let node = leaf; node && node.startIndex === position; node = node.parent) {
      if (isCommentType(node.type)) {
        comment = node;
        break;
      }
    }
    let resume = at + 1;
    if (comment) {
      // Some grammars end a line comment after its line break: that break stays.
      let end = Math.min(comment.endIndex - from, text.length);
      while (end > at && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
      let start = at;
      while (start > kept && isBlank(text[start - 1])) start--;
      let stop = end;
      while (stop < text.length && isBlank(text[stop])) stop++;
      out += text.slice(kept, start);
      const before = out[out.length - 1];
      const after = text[stop];
      if (before !== undefined && after !== undefined && !/\s/.test(before) && !/\s/.test(after)) {
        const spaced = start < at || stop > end;
        if ((spaced && !OPENING.test(before) && !CLOSING.test(after)) || (WORD_CHAR.test(before) && WORD_CHAR.test(after))) out += ' ';
      }
      kept = stop;
      resume = end;
    } else if (leaf && leaf.childCount === 0) {
      // A string or regex token: nothing inside it is a comment.
      resume = Math.max(resume, leaf.endIndex - from);
    }
    at = nextOpener(text, resume, comments.openers);
  }
  return out + text.slice(kept);
}

/**
 * The declaration text from `from` up to (not including) `bodyStart`, comments cut (see
 * {@link sliceWithoutComments}), whitespace collapsed, trailing `{`/`:` dropped, at most
 * {@link MAX_SIGNATURE_CHARS}.
 */
export function signatureText(source: string, from: number, bodyStart: number, comments?: CommentScan): string {
  let text = sliceWithoutComments(source, from, Math.max(from, bodyStart), comments).replace(/\s+/g, ' ').trim();
  text = text.replace(/\s*[:{]\s*$/, '');
  return truncate(text, MAX_SIGNATURE_CHARS);
}

/** The first line of `text`, trimmed, at most {@link MAX_SIGNATURE_CHARS}. */
export function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return truncate((newline < 0 ? text : text.slice(0, newline)).trim(), MAX_SIGNATURE_CHARS);
}

/**
 * The first line of `source` from `from` to `to`, comments cut (see {@link sliceWithoutComments}),
 * trimmed, at most {@link MAX_SIGNATURE_CHARS}.
 */
export function firstLineOf(source: string, from: number, to: number, comments?: CommentScan): string {
  const newline = source.indexOf('\n', from);
  const end = newline >= 0 && newline < to ? newline : to;
  return firstLine(sliceWithoutComments(source, from, end, comments));
}

/** Test-support packages and crates: `test-support`, `cargo-test-support`, `testutil`, `testutils`, `test_helpers`. */
const TEST_SUPPORT_DIRECTORY = /(^|[-_])test[-_]?(support|utils?|helpers?)$/i;

/**
 * Test code by layout rather than by a language's file naming: a top-level `testing/` (a
 * project's own test harness; nested under a library, as in `lib/rails/testing/`, it is usually
 * shipped API) and test-support packages or crates. Applies to every language, next to each
 * module's `isTestFile`.
 *
 * @example
 * ```ts
 * isTestSupportPath('crates/cargo-test-support/src/lib.rs'); // true
 * isTestSupportPath('testing/Ocelot.Testing/Steps.cs');      // true
 * isTestSupportPath('src/flask/testing.py');                 // false
 * ```
 */
export function isTestSupportPath(path: string): boolean {
  const segments = path.split('/');
  if (segments.length > 1 && segments[0] === 'testing') return true;
  for (let i = 0; i < segments.length - 1; i++) if (TEST_SUPPORT_DIRECTORY.test(segments[i]!)) return true;
  return false;
}

/** Shorten to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

/**
 * Remove common leading indentation and surrounding blank lines (Python's `inspect.cleandoc`
 * rule: the first line's indentation is ignored), then cap at {@link MAX_DOC_CHARS}.
 */
export function cleanDoc(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let indent = Infinity;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const stripped = line.trimStart();
    if (stripped) indent = Math.min(indent, line.length - stripped.length);
  }
  const out = lines.map((line, i) => (i === 0 ? line.trim() : indent === Infinity ? line.trim() : line.slice(indent).trimEnd()));
  while (out.length > 0 && out[0] === '') out.shift();
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return truncate(out.join('\n'), MAX_DOC_CHARS);
}

/** `T` with its `readonly` modifiers removed, for building records step by step. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** A {@link SymbolDef} under construction. */
export type MutableSymbol = Mutable<SymbolDef>;

/** A {@link NameRef}; the qualifier defaults to none. */
export function ref(name: string, qualifier: readonly string[] = []): NameRef {
  return { name, qualifier };
}

/** Whitespace collapsed, cut (without a mark) at {@link MAX_SIGNATURE_CHARS}. */
export function collapse(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SIGNATURE_CHARS ? flat.slice(0, MAX_SIGNATURE_CHARS) : flat;
}

/** A node that is present and named (for `find`/`filter` over nullable child lists). */
export function isNamedNode(node: SyntaxNode | null): node is SyntaxNode {
  return node !== null && node.isNamed;
}

/** A symbol under construction whose lists may still grow (Python and TypeScript/JavaScript). */
export interface SymbolBuilder {
  name: string;
  kind: NodeKind;
  scope: readonly string[];
  startLine: number;
  endLine: number;
  signature: string;
  doc: string;
  isTest: boolean;
  parent: number;
  exported: boolean;
  supertypes?: SupertypeRef[];
  decorators?: NameRef[];
  typeHints?: NameRef[];
  valueType?: NameRef;
  overrides?: boolean;
}

/** The last segment of a repo-relative path. */
export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash >= 0 ? path.slice(slash + 1) : path;
}

/** Resolve `.` and `..` segments of a repo-relative path; undefined when it climbs above the root. */
export function normalizeRelativePath(path: string): string | undefined {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else {
      out.push(segment);
    }
  }
  return out.join('/');
}
