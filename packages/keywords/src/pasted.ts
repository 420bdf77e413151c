/**
 * Code and messages pasted into a task. A bug report quotes what the user ran (a code block,
 * an inline `code` span) and what they saw (an error message, a log line): the identifiers the
 * code calls and the strings the program printed name the code to change more directly than
 * the prose around them.
 */
import { extractStackFrames } from './frames.js';

/** How a code block uses a name: a definition or a call says more than a mention. */
export type CodeRole = 'definition' | 'call' | 'construct' | 'mention';

/** One identifier a pasted piece of code uses. */
export interface CodeReference {
  /** The identifier itself: `send` of `client.send(req)`, `bar` of `Foo::bar`. */
  readonly name: string;
  /**
   * What qualifies it, outermost first, as written (`['client']`, `['Foo']`,
   * `['http', 'Client']`), without `self`, `this` and the like; with the receiver's type
   * appended when the same code assigned the receiver from a constructor (`client =
   * Client(...)`; `client.send` → `['client', 'Client']`).
   */
  readonly qualifiers: readonly string[];
  readonly role: CodeRole;
  /** A fenced or indented code block, or an inline `code` span. */
  readonly source: 'block' | 'span';
}

/** A message the task quotes: an error message, a log line, a string the code raises. */
export interface PastedMessage {
  /** The message's text, without its level or error-type prefix and placeholders. */
  readonly text: string;
  /** `error`: `ValueError: …`, `panic: …`; `raised`: the string of a `raise`/`throw`/`panic!`; `log`: a log line; `quoted`: quoted after "error", "message", "says". */
  readonly kind: 'error' | 'raised' | 'log' | 'quoted';
}

/** Everything {@link extractPastedEvidence} finds in a task. */
export interface PastedEvidence {
  /** Each (name, qualifiers, role) once, in text order. */
  readonly code: readonly CodeReference[];
  /** Each message text once, in text order. */
  readonly messages: readonly PastedMessage[];
}

/** Which kinds of pasted evidence a text carries. */
export interface CarriedEvidence {
  /** A code block, or an inline span with a call, a definition or a qualified name. */
  readonly code: boolean;
  /** An error message, a log line, or a quoted message. */
  readonly message: boolean;
  /** A stack trace with at least one frame. */
  readonly trace: boolean;
}

// Keywords of go, python, typescript/javascript, rust, java, c# and ruby, and the builtins
// (functions, types, modules, common methods of builtin types) whose names say nothing about
// the repository: a pasted `len(items)` or `console.log(x)` names no symbol to change.
const KEYWORDS = new Set(
  (
    'abstract and as assert async await base begin bool boolean break byte case catch chan char checked class const continue crate ' +
    'debugger decimal def default defer del delegate delete do double dyn elif else elsif end ensure enum event except explicit export ' +
    'extends extern false fallthrough final finally fixed float fn for foreach from func function global go goto if impl implements ' +
    'implicit import in instanceof int interface internal is keyof lambda let lock long loop map match mod module move mut namespace ' +
    'new next nil nonlocal none not null object of operator or out override package pass private protected pub public raise readonly ' +
    'redo ref rescue retry return sbyte sealed select self short sizeof static str string struct super switch synchronized then this ' +
    'throw throws trait transient true try type typeof uint ulong undef undefined unless unsafe until use ushort using var virtual void ' +
    'volatile when where while with yield unit elseif satisfies declare infer is_a alias'
  ).split(' '),
);

const BUILTINS = new Set(
  (
    // python
    'abs all any bin callable chr classmethod compile complex dict dir divmod enumerate eval exec filter format frozenset getattr ' +
    'globals hasattr hash help hex id input isinstance issubclass iter len list locals max min next oct open ord pow print property ' +
    'range repr reversed round set setattr slice sorted staticmethod sum tuple vars zip bytes bytearray memoryview __init__ __name__ ' +
    '__main__ cls kwargs args exception valueerror typeerror keyerror indexerror attributeerror runtimeerror oserror ioerror ' +
    'importerror notimplementederror stopiteration assertionerror os sys re json math time datetime logging typing collections ' +
    'functools itertools pathlib subprocess asyncio unittest pytest mock ' +
    // javascript / typescript
    'console log warn error info debug window require exports process promise resolve reject then catch array number ' +
    'symbol bigint date regexp math json parseint parsefloat isnan settimeout setinterval cleartimeout fetch push pop shift unshift ' +
    'splice slice concat join split foreach reduce includes indexof keys values entries assign freeze stringify parse tostring ' +
    'length prototype constructor record partial readonly pick omit any unknown never describe it expect test beforeeach aftereach ' +
    // go
    'fmt errors strings strconv bytes io ioutil context sync http println printf sprintf errorf fprintf append cap close copy ' +
    'make panic recover new error int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 rune uintptr err ctx ok ' +
    // rust
    'std vec box rc arc option some result unwrap expect clone into from to_string as_str as_ref iter collect println eprintln ' +
    'format vec! println! panic! format! assert! assert_eq! unwrap_or unwrap_or_else ok_or map_err and_then usize isize u8 u16 u32 ' +
    'u64 i8 i16 i32 i64 f32 f64 sized send sync default debug display ' +
    // java / c#
    'system java javax lang util out println printf integer character equals hashcode getclass override list arraylist hashmap ' +
    'linq task var writeline readline tostring gettype nameof dynamic ienumerable enumerable ilist idictionary dictionary ' +
    // ruby
    'puts p pp attr_accessor attr_reader attr_writer include extend require_relative lambda proc block_given? each map select ' +
    'reject inject nil? empty? respond_to? send kernel rails'
  ).split(' '),
);

/** A receiver that names the enclosing object, not a qualifier: `self.save()` qualifies nothing. */
const SELF_RECEIVERS = new Set(['self', 'this', 'cls', 'super', 'base', 'me', '@']);

/** A bare name: a keyword or a builtin. A qualified one (`session.send`) may be the repository's own method: keywords only. */
const isIgnored = (name: string, qualified = false): boolean => KEYWORDS.has(name.toLowerCase()) || (!qualified && BUILTINS.has(name.toLowerCase()));

/** Words that introduce a definition of the name after them. */
const DEFINES = new Set(['def', 'function', 'func', 'fn', 'class', 'struct', 'interface', 'trait', 'enum', 'module', 'record', 'impl', 'type']);

/** A name worth resolving as a plain mention: an identifier of code (snake_case, camelCase, PascalCase), not a word. */
const CODE_LIKE = /^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|_\w+|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z]{2,}[a-z]\w*)$/;

interface Region {
  readonly text: string;
  readonly source: 'block' | 'span';
}

/** Fenced blocks (``` or ~~~), indented blocks (4 spaces or a tab after a blank line) and inline spans, plus the prose left over. */
function codeRegions(text: string): { regions: Region[]; prose: string } {
  const regions: Region[] = [];
  let prose = text.replace(/^[ \t]{0,3}(```|~~~)[^\n]{0,40}\n([\s\S]{0,20000}?)\n[ \t]{0,3}\1[ \t]*$/gm, (_, _fence, body: string) => {
    regions.push({ text: body, source: 'block' });
    return '\n';
  });
  // Indented blocks: lines indented by 4+ after a blank line, that read like code (brackets,
  // operators, `::`), not the continuation lines of a list item.
  prose = prose.replace(/(^|\n[ \t]*\n)((?:(?: {4}|\t)[^\n]{0,400}(?:\n|$))+)/g, (whole, lead: string, body: string) => {
    const lines = body.split('\n').filter((l) => l.trim() !== '');
    if (lines.some((l) => /^\s*[-*+]\s/.test(l)) || !lines.some((l) => /[(){};=]|::|->|\.\w+\(/.test(l))) return whole;
    regions.push({ text: body, source: 'block' });
    return `${lead}\n`;
  });
  prose = prose.replace(/(?<!`)`([^`\n]{1,200})`(?!`)/g, (_, body: string) => {
    regions.push({ text: body, source: 'span' });
    return ' ';
  });
  return { regions, prose };
}

/** Lines of a stack trace name frames, handled by the frame extractor; their identifiers are not code the user wrote. */
const FRAME_LINE = /^\s*(?:File "|at |from \S+:\d+|Traceback \(|goroutine \d+|\d+: |[\w./-]+\.(?:go|rs|rb):\d+)/;

/** String literals, with their content; comments dropped. */
const STRING = /(?:[frbu]|rb|br)?("(?:[^"\\\n]|\\.){0,400}"|'(?:[^'\\\n]|\\.){0,400}'|`(?:[^`\\\n]|\\.){0,400}`)/g;

const TOKEN = /[A-Za-z_$@][\w$]{0,100}[!?]?|::|->|\.|#|\(|\)|\{|\}|\[|\]|<|>|,|;|:=|=+|&|\*|\S/g;

const IDENT = /^[A-Za-z_$@][\w$]*[!?]?$/;

/** `client = Client(...)`, `client := NewClient(...)`, `var c = new Client(`, `c = Client.new`, `let c = Client::new(` → c → Client. */
function receiverTypes(code: string): Map<string, string> {
  const types = new Map<string, string>();
  const assign = /([A-Za-z_]\w{0,100})\s*(?::=|=)\s*(?:new\s+|&)?(?:[A-Za-z_][\w]{0,100}(?:\.|::))*(?:New)?([A-Z]\w{0,100})\s*(?:\(|\{|::new\b|\.new\b)/g;
  for (const m of code.matchAll(assign)) if (!isIgnored(m[2]!) && !isIgnored(m[1]!)) types.set(m[1]!, m[2]!);
  return types;
}

const MODIFIERS = new Set(['public', 'private', 'protected', 'internal', 'static', 'override', 'virtual', 'async', 'final', 'abstract', 'sealed', 'pub']);

/** `public void save(`, `private static async Task<int> Save(`: a modifier a few tokens before, no operator between. */
function isMethodDefinition(tokens: readonly string[], i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 6); k--) {
    const token = tokens[k]!;
    if (MODIFIERS.has(token)) return true;
    if (!IDENT.test(token) && token !== '<' && token !== '>' && token !== '[' && token !== ']' && token !== ',') return false;
  }
  return false;
}

/** `Handle<HttpRequestException>(`: type arguments, then a call. */
function isGenericCall(tokens: readonly string[], open: number): boolean {
  let depth = 0;
  for (let k = open; k < Math.min(tokens.length, open + 12); k++) {
    if (tokens[k] === '<') depth++;
    else if (tokens[k] === '>' && --depth === 0) return tokens[k + 1] === '(';
  }
  return false;
}

/** The references one piece of code makes, token by token. */
function referencesIn(code: string, source: 'block' | 'span', out: CodeReference[]): void {
  const lines = code.split('\n').filter((line) => !FRAME_LINE.test(line));
  const text = lines
    .map((line) => line.replace(/(?:^|\s)(?:\/\/|#(?![\w{[])|--)\s.*$/, ''))
    .join('\n')
    .replace(STRING, ' "" ');
  const types = receiverTypes(text);
  const tokens = text.match(TOKEN) ?? [];
  // A span holding one identifier names it on purpose, even a plain word (`timeout`).
  const lone = source === 'span' && tokens.length === 1;
  // Go methods: `func (s *Server) Serve(` defines Serve of Server.
  const goMethods = new Map<number, string>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i] !== 'func' || tokens[i + 1] !== '(') continue;
    let j = i + 2;
    let receiver: string | undefined;
    while (j < tokens.length && tokens[j] !== ')' && j < i + 8) {
      if (IDENT.test(tokens[j]!)) receiver = tokens[j];
      j++;
    }
    if (receiver && IDENT.test(tokens[j + 1] ?? '')) goMethods.set(j + 1, receiver);
  }
  for (let i = 0; i < tokens.length; i++) {
    const name = tokens[i]!;
    if (!IDENT.test(name) || name.startsWith('@')) continue;
    const before = tokens[i - 1];
    // A segment of a chain is resolved at its last identifier: `a.b.c` once, as c qualified by a, b.
    const after = tokens[i + 1];
    if (after === '.' || after === '::' || after === '#') {
      if (IDENT.test(tokens[i + 2] ?? '')) continue;
    }
    const qualifiers: string[] = [];
    let j = i - 1;
    while (j > 0 && (tokens[j] === '.' || tokens[j] === '::' || tokens[j] === '#')) {
      let k = j - 1;
      // Skip a call's arguments inside a chain: `a.session().send`.
      if (tokens[k] === ')') {
        let depth = 0;
        for (; k >= 0; k--) {
          if (tokens[k] === ')') depth++;
          else if (tokens[k] === '(' && --depth === 0) break;
        }
        k--;
      }
      const part = tokens[k];
      if (!part || !IDENT.test(part)) break;
      qualifiers.unshift(part.replace(/[!?]$/, ''));
      j = k - 1;
    }
    if (qualifiers.length > 0 && SELF_RECEIVERS.has(qualifiers[0]!)) qualifiers.shift();
    // `Builder::new(x).hidden()`: `new` qualifies nothing.
    for (let q = qualifiers.length - 1; q >= 1; q--) if (KEYWORDS.has(qualifiers[q]!.toLowerCase())) qualifiers.splice(q, 1);
    if (qualifiers.length > 0 && isIgnored(qualifiers[0]!) && !/^[A-Z]/.test(qualifiers[0]!) && !types.has(qualifiers[0]!)) continue;
    if (qualifiers.length > 0 && ['os', 'sys', 'fmt', 'std', 'console', 'Math', 'JSON', 'System', 'Object', 'Array', 'Promise', 'String', 'Console'].includes(qualifiers[0]!)) continue;
    // Each variable of the chain is followed by its type when the code assigned it from a constructor.
    for (let q = qualifiers.length - 1; q >= 0; q--) {
      const type = types.get(qualifiers[q]!);
      if (type && qualifiers[q + 1] !== type) qualifiers.splice(q + 1, 0, type);
    }
    let role: CodeRole = 'mention';
    let target = name;
    const goReceiver = goMethods.get(i);
    if (goReceiver) {
      role = 'definition';
      qualifiers.push(goReceiver);
    } else if (before && DEFINES.has(before) && qualifiers.length === 0) role = 'definition';
    else if ((name === 'new' && (before === '::' || before === '.')) && qualifiers.length > 0) {
      // `Foo::new(`, `Foo.new(`: constructs Foo.
      target = qualifiers.pop()!;
      role = 'construct';
    } else if (before === 'new') role = 'construct';
    else if (after === '(' && qualifiers.length === 0 && isMethodDefinition(tokens, i)) role = 'definition';
    else if (after === '(' || after === '!' || (after === '<' && isGenericCall(tokens, i + 1))) role = 'call';
    else if (after === '{' && /^[A-Z]/.test(name) && before !== undefined && ['=', ':=', '&', '(', ',', 'return', ':'].includes(before)) role = 'construct';
    if (isIgnored(target.replace(/[!?]$/, ''), qualifiers.length > 0) || target.length < 2) continue;
    if (role === 'mention' && qualifiers.length === 0 && !lone && !CODE_LIKE.test(target)) continue;
    out.push({ name: target.replace(/[!?]$/, ''), qualifiers, role, source });
  }
}

/**
 * Format placeholders and the like, which no string literal of the code spells the way the message does.
 * (Curly quotes are written as escapes here: the CLI's bundle must be ASCII, see cli/src/bundle-ascii.ts.)
 */
function cleanMessage(text: string): string {
  return text
    .replace(/%[-+ #0]*\d*(?:\.\d+)?[sdifvqxXrgeT%]|\{[\w.:!]{0,40}\}|\$\{[^}]{0,80}\}|#\{[^}]{0,80}\}/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'`\u201C\u201D:.,-]+|[\s:,-]+$/g, '')
    .replace(/["'\u201C\u201D]$/, (quote, offset: number, whole: string) => (whole.split(quote).length % 2 === 0 ? '' : quote))
    .trim();
}

/** A message has words: at least two of three letters or more. */
const hasWords = (text: string): boolean => (text.match(/[A-Za-z]{3,}/g) ?? []).length >= 2;

/** `ValueError: …`, `panic: …`, `error[E0308]: …`, `Error: …`, `fatal error: …` at the start of a line. */
const ERROR_LINE = /^[ \t>]{0,8}(?:[\w.]{0,200}?(?:Error|Exception|Panic|Failure|Fault)|panic|error|fatal(?: error)?|FATAL|ERROR|Error|E\d{4})(?:\[\w{1,20}\])?: ([^\n]{3,400})$/gm;

/** A log line: a level word, after an optional timestamp or bracketed prefix. */
const LOG_LINE = /^[ \t]{0,8}(?:\[?[\d\-T:., /Z+]{8,40}\]?\s+)?(?:\[[^\]\n]{1,40}\]\s*)?\[?(?:ERROR|WARN|WARNING|CRITICAL|FATAL|INFO|DEBUG|error|warn|warning|critical)\]?:?\s+(?:\[[^\]\n]{1,40}\]\s*)?([^\n]{3,400})$/gm;

/** The string a statement raises, throws or logs: `raise ValueError("…")`, `throw new Error('…')`, `panic!("…")`, `errors.New("…")`, `log.warn("…")`. */
const RAISED = /(?:\braise\s+[\w.]{1,200}|\bthrow\s+(?:new\s+)?[\w.]{1,200}|\bpanic!?|\berrors\.New|\bErrorf|\b(?:log|logger|logging|LOG|_logger|console|log\.\w+)\.(?:error|warn|warning|info|debug|critical|fatal|exception|Error|Warn|Info|Printf|Fatalf|Errorf|Warnf)|\bfail!?)\s*[(,]?\s*(?:f|r)?(["'`])((?:(?!\1)[^\\\n]|\\.){6,400})\1/g;

/** Text in quotes after "error", "message", "says", "fails with", "raises", …: what the user saw. */
const QUOTED = /\b(?:errors?|messages?|says|said|saying|reads|warnings?|fails? with|failing with|raises?|throws?|prints?|outputs?|logs?|reports?|complains?|shows?)\b[^"\u201C'`\n]{0,40}?(?:"([^"\n]{6,300})"|\u201C([^\u201D\n]{6,300})\u201D|(?<![A-Za-z])'([^'\n]{6,300})'(?![A-Za-z]))/gi;

function addMessage(messages: PastedMessage[], seen: Set<string>, raw: string, kind: PastedMessage['kind']): void {
  const text = cleanMessage(raw);
  if (!hasWords(text)) return;
  const key = text.toLowerCase();
  if (seen.has(key)) return;
  seen.add(key);
  messages.push({ text, kind });
}

/**
 * The code and the messages a task pastes: the identifiers, qualified names and call chains of
 * its code blocks and inline spans (without the keywords and builtins of Go, Python,
 * TypeScript/JavaScript, Rust, Java, C# and Ruby), and its error messages, log lines and quoted
 * messages. Stack frames are {@link extractStackFrames}'s: trace lines are not read as code.
 *
 * @example
 * ```ts
 * extractPastedEvidence('```py\nclient = Client(base)\nclient.send(req)\n```\nValueError: request body is closed');
 * // code: [{ name: 'Client', role: 'call', … }, { name: 'send', qualifiers: ['client', 'Client'], role: 'call', … }]
 * // messages: [{ text: 'request body is closed', kind: 'error' }]
 * ```
 */
export function extractPastedEvidence(text: string): PastedEvidence {
  const { regions, prose } = codeRegions(text);
  const code: CodeReference[] = [];
  for (const region of regions) referencesIn(region.text, region.source, code);
  const unique = new Map<string, CodeReference>();
  for (const ref of code) {
    const key = `${ref.qualifiers.join('.')}.${ref.name}:${ref.role}`;
    if (!unique.has(key)) unique.set(key, ref);
  }
  const messages: PastedMessage[] = [];
  const seen = new Set<string>();
  const blocks = regions.filter((r) => r.source === 'block').map((r) => r.text);
  for (const source of [prose, ...blocks]) {
    for (const m of source.matchAll(ERROR_LINE)) addMessage(messages, seen, m[1]!, 'error');
    for (const m of source.matchAll(RAISED)) addMessage(messages, seen, m[2]!, 'raised');
  }
  for (const block of blocks) for (const m of block.matchAll(LOG_LINE)) addMessage(messages, seen, m[1]!, 'log');
  for (const m of prose.matchAll(QUOTED)) {
    const quoted = m[1] ?? m[2] ?? m[3] ?? '';
    // A quoted identifier is a name, not a message.
    if (/\s/.test(quoted.trim())) addMessage(messages, seen, quoted, 'quoted');
  }
  return { code: [...unique.values()], messages };
}

/**
 * Which kinds of pasted evidence a text carries: code (a block, or a span with a call, a
 * definition or a qualified name), a message, a stack trace. What the history benchmark marks
 * its tasks with, to report figures on the tasks that carry each.
 *
 * @example
 * ```ts
 * carriedEvidence('Calling `Session.send(req)` fails with "connection pool is full"');
 * // { code: true, message: true, trace: false }
 * ```
 */
export function carriedEvidence(text: string): CarriedEvidence {
  const { code, messages } = extractPastedEvidence(text);
  return {
    code: code.some((ref) => ref.source === 'block' || ref.role !== 'mention' || ref.qualifiers.length > 0),
    message: messages.length > 0,
    trace: extractStackFrames(text).length > 0,
  };
}
