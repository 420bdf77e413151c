import { describe, expect, it } from 'vitest';
import { cleanMessage, countWords, skipReason, stripReferences, stripSubjectPrefix } from '../src/message.js';
import { parseUnifiedDiff } from '../src/diff.js';
import { isStructuralLine } from '../src/ground-truth.js';
import { isExcludedPath, orderCommits } from '../src/miner.js';

const commit = (message: string, parents: string[] = ['p1']) => ({ message, parents });

describe('stripReferences', () => {
  it('removes issue numbers, GH- references, verb-plus-reference phrases and URLs', () => {
    expect(stripReferences('Keep the query string on redirects (#1234)')).toBe('Keep the query string on redirects');
    expect(stripReferences('Fix GH-12 crash when the body is empty')).toBe('Fix crash when the body is empty');
    expect(stripReferences('See https://github.com/o/r/pull/3 for background')).toBe('for background');
    expect(stripReferences('Fixes #41, closes #42')).toBe('');
    expect(stripReferences('fixes owner/repo#7')).toBe('');
  });
});

describe('stripSubjectPrefix', () => {
  it('removes conventional-commit types with scope and bang, and bracket tags', () => {
    expect(stripSubjectPrefix('feat(router)!: accept trailing slashes')).toEqual({ text: 'accept trailing slashes', type: 'feat' });
    expect(stripSubjectPrefix('[core] fix: handle nil maps')).toEqual({ text: 'handle nil maps', type: 'fix' });
    expect(stripSubjectPrefix('fix: [skip ci] typo')).toEqual({ text: 'typo', type: 'fix' });
  });

  it('keeps a component prefix that is not a conventional type', () => {
    expect(stripSubjectPrefix('caddyhttp: honor the Host header')).toEqual({ text: 'caddyhttp: honor the Host header', type: undefined });
  });
});

describe('cleanMessage', () => {
  it('joins subject and body paragraphs without trailers, references or template checklists', () => {
    const message = [
      'fix(render): escape html entities in rendered titles (#42)',
      '',
      'Titles were inserted verbatim, so a title with markup broke the page.',
      'See https://example.com/bug for the report.',
      '',
      '- [x] I added tests',
      '',
      'Fixes #41',
      '',
      'Signed-off-by: Ada Lovelace <ada@example.com>',
      'Co-authored-by: Bob <bob@example.com>',
    ].join('\n');
    const cleaned = cleanMessage(message);
    expect(cleaned.type).toBe('fix');
    expect(cleaned.subject).toBe('escape html entities in rendered titles');
    expect(cleaned.description).toBe(
      'escape html entities in rendered titles\n\nTitles were inserted verbatim, so a title with markup broke the page.\nfor the report.',
    );
  });

  it('keeps call parentheses, trailing colons and indented code, and drops merge-bot lines', () => {
    const message = [
      'Use `url.Hostname()` to check proxy hosts (#7922)',
      '',
      'The check had its arguments swapped:',
      '',
      '    strings.Split("", u.Host)[0] == ":"',
      '',
      'Merge pull request 9597',
    ].join('\n');
    expect(cleanMessage(message).description).toBe('Use `url.Hostname()` to check proxy hosts\n\nThe check had its arguments swapped:\n\n    strings.Split("", u.Host)[0] == ":"');
  });

  it('does not count a leading component prefix as a word', () => {
    expect(cleanMessage('reverseproxy: retry dial errors on idempotent requests').words).toBe(6);
    expect(countWords('a b -- 1 2 c')).toBe(3);
  });
});

describe('skipReason', () => {
  const long = 'Handle empty payloads by returning an empty result before parsing';

  it('accepts a described change', () => {
    expect(skipReason(commit(long))).toBeUndefined();
    expect(skipReason(commit(`feat(api): ${long} (#9)`))).toBeUndefined();
  });

  it('skips merges, roots and reverts', () => {
    expect(skipReason(commit(long, ['a', 'b']))).toBe('merge');
    expect(skipReason(commit(long, []))).toBe('root commit');
    expect(skipReason(commit("Merge branch 'feature' into main and resolve conflicts in the parser"))).toBe('merge');
    expect(skipReason(commit(`Revert "${long}"\n\nThis reverts commit 0123456789abcdef.`))).toBe('revert');
  });

  it('skips short descriptions, counting words after references and prefixes are gone', () => {
    expect(skipReason(commit('fix(parser): handle empty input (#123)'))).toBe('short description (3 words)');
    expect(skipReason(commit('Handle empty input\n\nThe parser crashed on empty files because it read the first byte.'))).toBeUndefined();
  });

  it('skips releases, version and dependency bumps', () => {
    expect(skipReason(commit('Release 2.3.0 with the new streaming API and several fixes'))).toBe('release or version bump');
    expect(skipReason(commit('Bump version to 2.3.1 for the next patch release of the library'))).toBe('release or version bump');
    expect(skipReason(commit('Bump serde from 1.0.1 to 1.0.2 in the workspace manifests and lockfile'))).toBe('dependency bump');
    expect(skipReason(commit('chore(deps): update all dependencies to their latest minor versions'))).toBe('dependency or release chore');
    expect(skipReason({ ...commit(long), authorName: 'dependabot[bot]' })).toBe('bot author');
  });

  it('skips formatting, lint, typo and rename-only changes, and docs/test/ci conventional types', () => {
    expect(skipReason(commit('Fix a typo in the error message shown when the config file is missing'))).toBe('formatting, lint or typo');
    expect(skipReason(commit('Reformat the whole code base with the new version of the formatter'))).toBe('formatting, lint or typo');
    expect(skipReason(commit('Fix clippy warnings that appeared with the newest stable toolchain release'))).toBe('formatting, lint or typo');
    expect(skipReason(commit('Enabling `ruff` C416\n\n* Ran ruff on all files\n* Update pyproject.toml'))).toBe('formatting, lint or typo');
    expect(skipReason(commit('Fix S3215\n\n- Suppress occurrences of S3215.\n- Re-enable the S3215 rule.'))).toBe('formatting, lint or typo');
    expect(skipReason(commit('Rename the Request helper to RequestBuilder across the whole package'))).toBe('rename or move');
    expect(skipReason(commit(`docs: ${long}`))).toBe('conventional type "docs"');
    expect(skipReason(commit(`test: ${long}`))).toBe('conventional type "test"');
  });

  it('keeps changes that merely mention formats or typos as a feature', () => {
    expect(skipReason(commit('Support a custom date format in the access log output of the server'))).toBeUndefined();
  });
});

describe('parseUnifiedDiff', () => {
  it('numbers removed and added lines on their own sides, across renames and lines starting with dashes', () => {
    const diff = [
      'diff --git a/old/name.py b/new/name.py',
      'similarity index 90%',
      'rename from old/name.py',
      'rename to new/name.py',
      'index 1111111..2222222 100644',
      '--- a/old/name.py',
      '+++ b/new/name.py',
      '@@ -3,2 +3 @@ def f():',
      '-    x = 1',
      '--- y',
      '+    x = 2',
      '@@ -10,0 +10,2 @@ def g():',
      '+    a()',
      '+    b()',
      'diff --git a/gone.py b/gone.py',
      'deleted file mode 100644',
      'index 3333333..0000000',
      '--- a/gone.py',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-print(1)',
      '',
    ].join('\n');
    const files = parseUnifiedDiff(diff);
    expect(files.map((f) => [f.oldPath, f.newPath])).toEqual([
      ['old/name.py', 'new/name.py'],
      ['gone.py', null],
    ]);
    expect(files[0]!.hunks[0]!.deleted).toEqual([
      { line: 3, text: '    x = 1' },
      { line: 4, text: '-- y' },
    ]);
    expect(files[0]!.hunks[0]!.added).toEqual([{ line: 3, text: '    x = 2' }]);
    expect(files[0]!.hunks[1]).toMatchObject({ oldStart: 10, oldCount: 0, added: [{ line: 10 }, { line: 11 }] });
    expect(files[1]!.hunks[0]!.deleted).toEqual([{ line: 1, text: 'print(1)' }]);
  });
});

describe('path and line rules', () => {
  it('excludes docs, examples, benchmarks, tests and skipped directories', () => {
    expect(isExcludedPath('docs_src/app/main.py')).toBe(true);
    expect(isExcludedPath('examples/server/main.go')).toBe(true);
    expect(isExcludedPath('benches/parse.rs')).toBe(true);
    expect(isExcludedPath('vendor/lib/x.go')).toBe(true);
    expect(isExcludedPath('scripts/release.js')).toBe(true);
    expect(isExcludedPath('.github/actions/label.js')).toBe(true);
    expect(isExcludedPath('src/flask/app.py')).toBe(false);
    expect(isExcludedPath('docs.py')).toBe(false);
  });

  it('treats blank lines and closing punctuation as structural', () => {
    expect(isStructuralLine('    }')).toBe(true);
    expect(isStructuralLine('  end')).toBe(true);
    expect(isStructuralLine('});')).toBe(true);
    expect(isStructuralLine('')).toBe(true);
    expect(isStructuralLine('    return x')).toBe(false);
  });

  it('orders commits newest first and equal dates by hash', () => {
    const entry = (hash: string, time: number) => ({ hash, time, parents: [], authorName: '', authorEmail: '', message: '' });
    expect(orderCommits([entry('b', 1), entry('c', 2), entry('a', 2)]).map((e) => e.hash)).toEqual(['a', 'c', 'b']);
  });
});
