/** Parse `git diff -U0` output into the lines each file lost and gained, numbered on both sides. */

/** One changed line: its 1-based number on its side of the diff and its text. */
export interface DiffLine {
  readonly line: number;
  readonly text: string;
}

/** One hunk of a zero-context diff. */
export interface Hunk {
  /** First old line of the hunk; for a pure insertion, the old line the new text follows (0 = file start). */
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  /** Lines of the old file the change removed or replaced. */
  readonly deleted: readonly DiffLine[];
  /** Lines of the new file the change added. */
  readonly added: readonly DiffLine[];
}

/** One file of a diff. A path is null on the side where the file does not exist. */
export interface FileDiff {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly binary: boolean;
  readonly hunks: readonly Hunk[];
}

/** Undo git's C-style quoting of unusual paths (`"a/caf\303\251.py"`). */
function unquotePath(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, raw.endsWith('"') ? -1 : undefined);
  const escapes: Record<string, number> = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `a/path` or `b/path` (or `/dev/null`) from a `---`/`+++` line's value. */
function sidePath(value: string): string | null {
  const path = unquotePath(value.replace(/\t.*$/, '').trim());
  if (path === '/dev/null') return null;
  return path.replace(/^[ab]\//, '');
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Parse the output of `git diff -U0 --no-color [-M] A B`.
 *
 * @example
 * ```ts
 * const files = parseUnifiedDiff(execFileSync('git', ['diff', '-U0', 'HEAD~1', 'HEAD'], { encoding: 'utf8' }));
 * files[0]?.hunks[0]?.deleted; // [{ line: 12, text: '    return x' }]
 * ```
 */
export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const header = lines[i]!;
    if (!header.startsWith('diff --git ')) {
      i++;
      continue;
    }
    i++;
    let oldPath: string | null = null;
    let newPath: string | null = null;
    let renameFrom: string | undefined;
    let renameTo: string | undefined;
    let binary = false;
    let created = false;
    let deleted = false;
    // Extended header lines up to the first hunk or the next file.
    while (i < lines.length && !lines[i]!.startsWith('diff --git ') && !lines[i]!.startsWith('@@')) {
      const line = lines[i]!;
      if (line.startsWith('--- ')) oldPath = sidePath(line.slice(4));
      else if (line.startsWith('+++ ')) newPath = sidePath(line.slice(4));
      else if (line.startsWith('rename from ')) renameFrom = unquotePath(line.slice(12));
      else if (line.startsWith('rename to ')) renameTo = unquotePath(line.slice(10));
      else if (line.startsWith('new file mode')) created = true;
      else if (line.startsWith('deleted file mode')) deleted = true;
      else if (line.startsWith('Binary files ') || line.startsWith('GIT binary patch')) binary = true;
      i++;
    }
    // A pure rename, or a mode change, has no ---/+++ lines: take the paths from the header.
    if (oldPath === null && newPath === null) {
      const match = /^diff --git (?:"?a\/)(.*?)"? (?:"?b\/)(.*?)"?$/.exec(header);
      oldPath = created ? null : (renameFrom ?? (match ? match[1]! : null));
      newPath = deleted ? null : (renameTo ?? (match ? match[2]! : null));
    }
    const hunks: Hunk[] = [];
    while (i < lines.length && lines[i]!.startsWith('@@')) {
      const match = HUNK_HEADER.exec(lines[i]!);
      i++;
      if (!match) continue;
      const oldStart = Number(match[1]);
      const oldCount = match[2] === undefined ? 1 : Number(match[2]);
      const newStart = Number(match[3]);
      const newCount = match[4] === undefined ? 1 : Number(match[4]);
      const removedLines: DiffLine[] = [];
      const addedLines: DiffLine[] = [];
      // Counting lines, not trusting prefixes alone: a removed line may itself start with `--`.
      let oldLeft = oldCount;
      let newLeft = newCount;
      while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i]!.startsWith('\\'))) {
        const line = lines[i]!;
        if (line.startsWith('-') && oldLeft > 0) {
          removedLines.push({ line: oldStart + (oldCount - oldLeft), text: line.slice(1) });
          oldLeft--;
        } else if (line.startsWith('+') && newLeft > 0) {
          addedLines.push({ line: newStart + (newCount - newLeft), text: line.slice(1) });
          newLeft--;
        } else if (line.startsWith(' ')) {
          // Context (only with -U>0): advances both sides.
          oldLeft--;
          newLeft--;
        } else if (!line.startsWith('\\')) {
          break;
        }
        i++;
      }
      hunks.push({ oldStart, oldCount, newStart, newCount, deleted: removedLines, added: addedLines });
    }
    files.push({ oldPath, newPath, binary, hunks });
  }
  return files;
}
