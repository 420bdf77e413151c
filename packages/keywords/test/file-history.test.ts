import { describe, expect, it } from 'vitest';
import { buildFileHistory, decodeFileHistory, encodeFileHistory, fileHistoryScores, relativeFileChurn, relativeFileHistory } from '../src/index.js';

const commits = [
  { message: 'Retry the request after a timeout', files: ['lib/retry.rb', 'lib/connection.rb'] },
  { message: 'Retries honour the Retry-After header', files: ['lib/retry.rb'] },
  { message: 'Parse nested query parameters', files: ['lib/params.rb'] },
  { message: 'Document the connection options', files: ['lib/connection.rb', 'README.md'] },
];

describe('file history', () => {
  it('gives each file the stemmed terms of the commits that changed it', () => {
    const history = buildFileHistory(commits, { commit: 'abc' });
    expect(history.commit).toBe('abc');
    expect(history.commits).toBe(4);
    expect([...history.documents.keys()].sort()).toEqual(['README.md', 'lib/connection.rb', 'lib/params.rb', 'lib/retry.rb']);
    // 'Retry', 'Retries' and 'Retry-After' stem alike: three occurrences in retry.rb's history.
    expect(history.documents.get('lib/retry.rb')).toMatch(/(^| )retri 3( |$)/);
    expect(history.documentFrequency.get('retri')).toBe(2);
  });

  it('leaves out commits that touch too many files to say anything about one', () => {
    const sweep = { message: 'Reformat everything for the timeout release', files: Array.from({ length: 60 }, (_, i) => `f${i}.rb`) };
    const history = buildFileHistory([...commits, sweep]);
    expect(history.commits).toBe(4);
    expect(history.documents.has('f0.rb')).toBe(false);
    expect(buildFileHistory([sweep], { maxFilesPerCommit: 100 }).documents.has('f0.rb')).toBe(true);
  });

  it('scores the file whose history holds the rare words of a task highest', () => {
    const history = buildFileHistory(commits);
    const scores = fileHistoryScores(history, ['retri', 'timeout'], ['lib/retry.rb', 'lib/connection.rb', 'lib/params.rb', 'lib/missing.rb']);
    expect(scores.get('lib/retry.rb')).toBeGreaterThan(scores.get('lib/connection.rb')!);
    expect(scores.has('lib/params.rb')).toBe(false);
    expect(scores.has('lib/missing.rb')).toBe(false);
  });

  it('reads a task relative to the best candidate file', () => {
    const history = buildFileHistory(commits);
    const relative = relativeFileHistory(history, 'Requests are not retried after a timeout', ['lib/retry.rb', 'lib/connection.rb', 'lib/params.rb']);
    expect(relative.get('lib/retry.rb')).toBe(1);
    expect(relative.get('lib/connection.rb')).toBeGreaterThan(0);
    expect(relative.get('lib/connection.rb')).toBeLessThan(1);
    expect(relativeFileHistory(history, 'the and of', ['lib/retry.rb']).size).toBe(0);
  });

  it('ranks files by how much history they have, whatever the task, relative to the most changed', () => {
    const history = buildFileHistory(commits);
    const churn = relativeFileChurn(history, ['lib/retry.rb', 'lib/connection.rb', 'lib/params.rb', 'lib/unchanged.rb', 'lib/retry.rb']);
    // retry.rb: two commits of 3 and 4 terms; connection.rb: two of 3 and 3; params.rb: one of 4.
    expect(churn.get('lib/retry.rb')).toBe(1);
    expect(churn.get('lib/connection.rb')).toBeCloseTo(Math.log1p(6) / Math.log1p(7), 12);
    expect(churn.get('lib/params.rb')).toBeCloseTo(Math.log1p(4) / Math.log1p(7), 12);
    expect(churn.has('lib/unchanged.rb')).toBe(false);
    // Relative to the files asked about, not to the whole repository.
    expect(relativeFileChurn(history, ['lib/params.rb']).get('lib/params.rb')).toBe(1);
    expect(relativeFileChurn(history, []).size).toBe(0);
  });

  it('survives a round trip through its encoding and refuses other bytes', () => {
    const history = buildFileHistory(commits, { commit: 'abc' });
    const decoded = decodeFileHistory(encodeFileHistory(history))!;
    expect(decoded).toEqual(history);
    expect(fileHistoryScores(decoded, ['timeout'], ['lib/retry.rb'])).toEqual(fileHistoryScores(history, ['timeout'], ['lib/retry.rb']));
    expect(decodeFileHistory(new TextEncoder().encode('{"format":99}'))).toBeUndefined();
    expect(decodeFileHistory(new Uint8Array([0xff, 0x00, 0x7b]))).toBeUndefined();
    expect(decodeFileHistory(new TextEncoder().encode('{"format":2,"commits":1,"averageLength":1}\nno-tab-here'))).toBeUndefined();
  });

  it('still reads the first encoding (one JSON document), as indexes written before keep it', () => {
    const history = buildFileHistory(commits, { commit: 'abc' });
    const json = JSON.stringify({
      format: 1,
      commit: history.commit,
      commits: history.commits,
      averageLength: history.averageLength,
      documentFrequency: Object.fromEntries(history.documentFrequency),
      documents: Object.fromEntries(history.documents),
    });
    expect(decodeFileHistory(new TextEncoder().encode(json))).toEqual(history);
  });

  it('leaves out paths that hold a tab or a line break, which no indexed file has', () => {
    const history = buildFileHistory([{ message: 'retry on timeout', files: ['lib/retry.rb', '"lib/odd\\tname.rb"', 'lib/odd\tname.rb'] }]);
    const decoded = decodeFileHistory(encodeFileHistory(history))!;
    expect([...decoded.documents.keys()]).toEqual(['"lib/odd\\tname.rb"', 'lib/retry.rb']);
    expect(decoded.documentFrequency).toEqual(history.documentFrequency);
  });
});
