import { isCompoundIdentifier } from './split.js';
import { lengthOf } from './text.js';

// An identifier path directly followed by a parenthesised argument list: `foo()`,
// `.delete()`, `QuerySet.annotate()`, `get_inlines(request)`.
const CALL = /(?<![\p{L}\p{N}_$.])\.?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(([^()\n]{0,200})\)/gu;
// A maximal dotted identifier path whose segments all start with a letter, `_` or `$`, so
// version numbers (`3.9`, `v2.0.1`) never match.
const DOTTED = /(?<![\p{L}\p{N}_$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?![\w$]|\.[A-Za-z_$])/gu;
const CAPITALISED = /^[A-Z]/;

export interface CodePatternContext {
  readonly minLength: number;
  readonly maxLength: number;
  readonly stopWords: ReadonlySet<string>;
  readonly proseAbbreviations: ReadonlySet<string>;
  readonly fileExtensions: ReadonlySet<string>;
}

/** Dotted tokens like `e.g` or `U.S`: every segment a single letter, or a known abbreviation. */
export function isProseAbbreviation(token: string, prose: ReadonlySet<string>): boolean {
  const lower = token.toLowerCase();
  if (prose.has(lower)) return true;
  const segments = lower.split('.');
  return segments.length > 1 && segments.every((s) => lengthOf(s) === 1);
}

/** `settings.py`, `Node.js`: the last dotted segment is a file extension. */
export function fileExtensionOf(token: string, extensions: ReadonlySet<string>): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0 || dot === token.length - 1) return undefined;
  const ext = token.slice(dot + 1);
  return ext === ext.toLowerCase() && extensions.has(ext) ? ext : undefined;
}

function forms(path: string, ctx: CodePatternContext): string[] {
  const out: string[] = [];
  const length = lengthOf(path);
  if (length < ctx.minLength || length > ctx.maxLength) return out;
  out.push(path);
  if (path.toLowerCase() !== path) out.push(path.toLowerCase());
  const dot = path.lastIndexOf('.');
  if (dot >= 0) {
    const last = path.slice(dot + 1);
    // The last segment lets an exact name match find the method, but a stop-word method
    // name (`get`, `add`, `init`) would match hundreds of unrelated symbols.
    if (lengthOf(last) >= ctx.minLength && !ctx.stopWords.has(last.toLowerCase())) {
      out.push(last);
      if (last.toLowerCase() !== last) out.push(last.toLowerCase());
    }
  }
  return out;
}

/**
 * Keywords from text that is unambiguously code: method calls with parentheses, dotted
 * paths with a capitalised head (`ModelAdmin.get_inlines`) and dotted paths containing an
 * underscore. Prose abbreviations, version numbers, file names and plain lower-case dotted
 * words (`foo.bar`) are not code patterns. Returned in order of appearance.
 */
export function extractCodePatterns(text: string, ctx: CodePatternContext): string[] {
  const found: { index: number; keywords: string[] }[] = [];
  for (const m of text.matchAll(CALL)) {
    const path = m[1]!;
    const args = m[2]!;
    if (args.trim() !== '' && !isCompoundIdentifier(path) && !path.includes('$')) continue;
    if (isProseAbbreviation(path, ctx.proseAbbreviations)) continue;
    found.push({ index: m.index, keywords: forms(path, ctx) });
  }
  for (const m of text.matchAll(DOTTED)) {
    const path = m[1]!;
    const head = path.slice(0, path.indexOf('.'));
    const classMethod = CAPITALISED.test(head) && head.length >= 2;
    if (!classMethod && !path.includes('_')) continue;
    if (isProseAbbreviation(path, ctx.proseAbbreviations)) continue;
    if (fileExtensionOf(path, ctx.fileExtensions) !== undefined) continue;
    found.push({ index: m.index, keywords: forms(path, ctx) });
  }
  found.sort((a, b) => a.index - b.index);
  return found.flatMap((f) => f.keywords);
}
