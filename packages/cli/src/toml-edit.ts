/**
 * Edits of one table in a TOML document (Codex's config.toml) that leave the rest of the file
 * as it was, comments included: TOML libraries re-serialise the whole document and drop the
 * comments. The document is read just far enough to know where each statement starts and
 * ends (headers, keys, multi-line strings and arrays), which is all a table edit needs.
 */

export class TomlEditError extends Error {
  override readonly name = 'TomlEditError';
}

/** A TOML basic string: JSON's escapes are TOML's, but DEL must be escaped too. */
export function tomlString(text: string): string {
  return JSON.stringify(text).replace(/\x7f/g, '\\u007f');
}

interface Statement {
  readonly kind: 'table' | 'array-table' | 'value';
  /** The table's name, or the full dotted name a value is assigned to. */
  readonly path: readonly string[];
  /** The table a value was written in (its header's path). */
  readonly table: readonly string[];
  readonly firstLine: number;
  readonly lastLine: number;
}

/** A dotted key (`a."b.c".'d'`) from `at`; returns the parts and where the key ends. */
function readKey(line: string, at: number, lineNumber: number): { parts: string[]; end: number } {
  const parts: string[] = [];
  let i = at;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    const quote = line[i];
    if (quote === '"' || quote === "'") {
      let j = i + 1;
      let raw = '';
      while (j < line.length && line[j] !== quote) {
        if (quote === '"' && line[j] === '\\') {
          raw += line.slice(j, j + 2);
          j += 2;
        } else raw += line[j++];
      }
      if (j >= line.length) throw new TomlEditError(`unterminated quoted key on line ${lineNumber + 1}`);
      parts.push(quote === '"' ? (JSON.parse(`"${raw}"`) as string) : raw);
      i = j + 1;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(line.slice(i))?.[0];
      if (!bare) throw new TomlEditError(`cannot read the key on line ${lineNumber + 1}`);
      parts.push(bare);
      i += bare.length;
    }
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] !== '.') return { parts, end: i };
    i++;
  }
}

/** The last line of a value starting at `line`/`column`: past multi-line strings and arrays. */
function valueEnd(lines: readonly string[], line: number, column: number): number {
  let depth = 0;
  let mode: '' | '"' | "'" | '"""' | "'''" = '';
  for (let l = line, c = column; l < lines.length; l++, c = 0) {
    const text = lines[l]!;
    while (c < text.length) {
      if (mode === '"""' || mode === "'''") {
        if (mode === '"""' && text[c] === '\\') c += 2;
        else if (text.startsWith(mode, c)) {
          c += 3;
          while (text[c] === mode[0]) c++; // up to two quotes may end the content
          mode = '';
        } else c++;
        continue;
      }
      if (mode === '"' || mode === "'") {
        if (mode === '"' && text[c] === '\\') c += 2;
        else {
          if (text[c] === mode) mode = '';
          c++;
        }
        continue;
      }
      const ch = text[c]!;
      if (ch === '#') break;
      if (text.startsWith('"""', c) || text.startsWith("'''", c)) {
        mode = text.slice(c, c + 3) as '"""' | "'''";
        c += 3;
        continue;
      }
      if (ch === '"' || ch === "'") mode = ch;
      else if (ch === '[' || ch === '{') depth++;
      else if (ch === ']' || ch === '}') depth--;
      c++;
    }
    if (mode === '"' || mode === "'") mode = ''; // one-line strings end with their line
    if (mode === '' && depth <= 0) return l;
  }
  return lines.length - 1;
}

function statements(lines: readonly string[]): Statement[] {
  const result: Statement[] = [];
  let table: string[] = [];
  for (let l = 0; l < lines.length; l++) {
    const text = lines[l]!;
    const start = text.length - text.trimStart().length;
    const first = text[start];
    if (first === undefined || first === '#') continue;
    if (first === '[') {
      const array = text[start + 1] === '[';
      const { parts } = readKey(text, start + (array ? 2 : 1), l);
      table = parts;
      result.push({ kind: array ? 'array-table' : 'table', path: parts, table: parts, firstLine: l, lastLine: l });
      continue;
    }
    const { parts, end } = readKey(text, start, l);
    if (text[end] !== '=') throw new TomlEditError(`expected "=" after the key on line ${l + 1}`);
    const last = valueEnd(lines, l, end + 1);
    result.push({ kind: 'value', path: [...table, ...parts], table, firstLine: l, lastLine: last });
    l = last;
  }
  return result;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((part, i) => path[i] === part);
}

function isBlankOrComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === '' || trimmed.startsWith('#');
}

interface Split {
  readonly lines: string[];
  readonly eol: string;
}

function split(text: string): Split {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return { lines, eol };
}

/**
 * The line ranges (first, last inclusive) of `[table]` and its sub-tables, each ending at its last
 * statement: comments and blank lines before the next header belong to that header.
 */
function tableRanges(text: string, table: readonly string[], file: string): { lines: string[]; eol: string; ranges: [number, number][] } {
  const { lines, eol } = split(text);
  let parsed: Statement[];
  try {
    parsed = statements(lines);
  } catch (error) {
    throw new TomlEditError(`${file}: ${(error as Error).message}`);
  }
  const parent = table.slice(0, -1);
  for (const s of parsed) {
    const inTable = startsWith(s.table, table);
    if (s.kind === 'value' && !inTable && startsWith(s.path, table)) {
      throw new TomlEditError(`${file} sets ${table.join('.')} with a dotted key or an inline table on line ${s.firstLine + 1}; knowing edits only a [${table.join('.')}] table`);
    }
    if (s.kind === 'value' && parent.length > 0 && s.path.length === parent.length && startsWith(s.path, parent)) {
      throw new TomlEditError(`${file} writes ${parent.join('.')} as an inline table on line ${s.firstLine + 1}, so a [${table.join('.')}] table cannot be added`);
    }
    if (s.kind === 'array-table' && startsWith(table, s.path)) {
      throw new TomlEditError(`${file} declares [[${s.path.join('.')}]] as an array of tables on line ${s.firstLine + 1}`);
    }
  }
  const headers = parsed.filter((s) => s.kind !== 'value');
  const ranges: [number, number][] = [];
  headers.forEach((header, i) => {
    if (!startsWith(header.path, table)) return;
    const next = headers[i + 1]?.firstLine ?? lines.length;
    let last = next - 1;
    while (last > header.firstLine && isBlankOrComment(lines[last]!)) last--;
    ranges.push([header.firstLine, last]);
  });
  return { lines, eol, ranges };
}

function join(lines: readonly string[], eol: string): string {
  return lines.length === 0 ? '' : `${lines.join(eol)}${eol}`;
}

/**
 * Remove the ranges (putting `replacement` where the first one was), each with the blank line
 * that separated it from what follows when that would leave two.
 */
function without(lines: readonly string[], ranges: readonly [number, number][], replacement?: readonly string[]): string[] {
  const result: string[] = [];
  let next = 0;
  ranges.forEach(([first, last], i) => {
    result.push(...lines.slice(next, first));
    next = last + 1;
    if (i === 0 && replacement) {
      result.push(...replacement);
      return;
    }
    const blankBefore = result.length === 0 || result[result.length - 1]!.trim() === '';
    const blankAfter = lines[next] !== undefined && lines[next]!.trim() === '';
    if (blankBefore && blankAfter) next++;
  });
  result.push(...lines.slice(next));
  // The table was the last thing in the file: so is no blank line.
  if (!replacement && next >= lines.length) while (result.length > 0 && result[result.length - 1]!.trim() === '') result.pop();
  return result;
}

/** The text of `[table]` and its sub-tables as they stand in the document, or undefined. */
export function readTable(text: string, table: readonly string[], file: string): string | undefined {
  const { lines, eol, ranges } = tableRanges(text, table, file);
  if (ranges.length === 0) return undefined;
  return ranges.map(([first, last]) => join(lines.slice(first, last + 1), eol)).join('');
}

/**
 * Put `block` (a `[table]` header and its keys, newline-terminated) in place of `[table]` and
 * its sub-tables, or at the end of the document when it has none.
 */
export function setTable(text: string, table: readonly string[], block: string, file: string): string {
  const { lines, eol, ranges } = tableRanges(text, table, file);
  const blockLines = split(block).lines;
  if (ranges.length === 0) {
    const kept = [...lines];
    while (kept.length > 0 && kept[kept.length - 1]!.trim() === '') kept.pop();
    return join(kept.length > 0 ? [...kept, '', ...blockLines] : blockLines, eol);
  }
  return join(without(lines, ranges, blockLines), eol);
}

/** Remove `[table]` and its sub-tables; null when nothing but blank lines is left. */
export function removeTable(text: string, table: readonly string[], file: string): string | null {
  const { lines, eol, ranges } = tableRanges(text, table, file);
  if (ranges.length === 0) return text;
  const rest = without(lines, ranges);
  return rest.every((line) => line.trim() === '') ? null : join(rest, eol);
}
