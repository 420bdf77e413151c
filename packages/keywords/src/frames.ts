/**
 * Stack frames pasted into a task. A bug report's traceback names the code that ran when it
 * failed, usually the code to change: frames are the strongest evidence a task can carry.
 */

/** One frame of a stack trace, as written. */
export interface StackFrame {
  /** The file as the trace spells it (absolute, relative, or with a package prefix). */
  readonly file?: string;
  /** 1-based line. */
  readonly line?: number;
  /** The function as the trace spells it: `handle_request`, `com.acme.Cart.total`, `(*Server).Serve`. */
  readonly symbol?: string;
  /** 0 for the innermost frame (where it failed), counting outwards within its trace. */
  readonly depth: number;
}

interface Pattern {
  readonly regex: RegExp;
  /** Tracebacks written outermost first (Python) list the innermost frame last. */
  readonly innermostLast: boolean;
  readonly frame: (m: RegExpExecArray) => { file?: string; line?: number; symbol?: string };
}

// Every run is bounded and every unanchored pattern starts at a token boundary: a task is text a
// user pasted, and an unbounded run with backtracking made a long line of `_` quadratic.
const PATTERNS: readonly Pattern[] = [
  // Python: File "app/views.py", line 42, in handle
  {
    regex: /File "([^"\n]+)", line (\d+)(?:, in ([\w<>.]+))?/g,
    innermostLast: true,
    frame: (m) => ({ file: m[1]!, line: Number(m[2]), ...(m[3] && !m[3].startsWith('<') ? { symbol: m[3] } : {}) }),
  },
  // C#: at Acme.Cart.Total(Int32 x) in C:\src\Cart.cs:line 42
  {
    regex: /\bat ([\w.`<>+]{1,400})\([^)\n]{0,2000}\) in ([^\n]{1,400}?\.cs):line (\d+)/g,
    innermostLast: false,
    frame: (m) => ({ symbol: m[1]!, file: m[2]!, line: Number(m[3]) }),
  },
  // Java and other JVM languages: at com.acme.Cart.total(Cart.java:42)
  {
    regex: /\bat ((?:[\w$]{1,200}\.){1,40}[\w$<>]{1,200})\(([\w$-]{1,400}\.(?:java|kt|scala|groovy)):(\d+)\)/g,
    innermostLast: false,
    frame: (m) => ({ symbol: m[1]!.replace(/\$/g, '.'), file: m[2]!, line: Number(m[3]) }),
  },
  // JavaScript / TypeScript (V8): at Cart.total (src/cart.ts:42:7), at src/cart.ts:42:7
  {
    regex: /\bat (?:async )?(?:([\w$.<>[\] ]{1,400}?) \()?((?:[A-Za-z]:)?[^\s():]{1,400}\.(?:[cm]?[jt]sx?)):(\d+):\d+\)?/g,
    innermostLast: false,
    frame: (m) => ({ file: m[2]!, line: Number(m[3]), ...(m[1] && m[1] !== '<anonymous>' ? { symbol: m[1].replace(/^(?:new |Object\.)/, '') } : {}) }),
  },
  // Ruby: app/models/cart.rb:42:in `total' (or 'Cart#total')
  {
    regex: /(?<![\w./-])([\w./-]{1,400}\.rb):(\d+):in [`']([^'`\n]{1,400})'/g,
    innermostLast: false,
    frame: (m) => ({ file: m[1]!, line: Number(m[2]), symbol: m[3]!.replace(/^(?:block (?:\(\d+ levels\) )?in |rescue in |ensure in )/, '') }),
  },
  // Go: main.(*Server).Serve(...)\n\t/home/x/server.go:42 +0x1d
  {
    regex: /^([\w./*()-]{1,400}?)\([^)\n]{0,2000}\)[ \t]*\n\s{1,40}(\S{1,400}\.go):(\d+)/gm,
    innermostLast: false,
    frame: (m) => ({ symbol: m[1]!.slice(m[1]!.lastIndexOf('/') + 1), file: m[2]!, line: Number(m[3]) }),
  },
  // Rust backtrace: 3: mycrate::cart::total\n   at ./src/cart.rs:42:5 ; panics: panicked at src/cart.rs:42:5
  {
    regex: /^[ \t]*\d+: ([\w:<>]{1,400}?)(?:::h[0-9a-f]{16})?[ \t]*\n\s{1,40}at ([^\s:]{1,400}\.rs):(\d+)/gm,
    innermostLast: false,
    frame: (m) => ({ symbol: m[1]!, file: m[2]!, line: Number(m[3]) }),
  },
  {
    regex: /panicked at '?[^\n]{0,400}?(?<![\w./-])([\w./-]{1,400}\.rs):(\d+):\d+/g,
    innermostLast: false,
    frame: (m) => ({ file: m[1]!, line: Number(m[2]) }),
  },
];

/**
 * The stack frames in a text, for Python, Java (and JVM languages), C#, JavaScript/TypeScript,
 * Ruby, Go and Rust traces; each with its depth from the innermost frame of its trace. Frames
 * of one trace are the matches of one pattern, in text order.
 *
 * @example
 * ```ts
 * extractStackFrames('Traceback (most recent call last):\n  File "app.py", line 3, in main\n  File "cart.py", line 9, in total');
 * // [{ file: 'app.py', line: 3, symbol: 'main', depth: 1 }, { file: 'cart.py', line: 9, symbol: 'total', depth: 0 }]
 * ```
 */
export function extractStackFrames(text: string): StackFrame[] {
  const frames: StackFrame[] = [];
  const seen = new Set<string>();
  for (const pattern of PATTERNS) {
    const found: { file?: string; line?: number; symbol?: string }[] = [];
    for (const m of text.matchAll(pattern.regex)) found.push(pattern.frame(m as RegExpExecArray));
    found.forEach((frame, i) => {
      const key = `${frame.file ?? ''}:${frame.line ?? ''}:${frame.symbol ?? ''}`;
      if (seen.has(key)) return;
      seen.add(key);
      frames.push({ ...frame, depth: pattern.innermostLast ? found.length - 1 - i : i });
    });
  }
  return frames;
}
