/**
 * What a repository's commit messages say about each of its files: one lexical document per
 * file, made of the messages of the commits that touched it, and BM25 of a task against them.
 *
 * Developers describe changes in the words users use for them ("retry", "timeout", "nil
 * status"), and a file keeps being changed for the same concerns. So a task's words that appear
 * nowhere in a file's code often appear in that file's history: the evidence bridges the
 * vocabulary of a report and the code it never names. The documents are built from commits
 * before the indexed state only, so they never carry the change a task asks for.
 */
import { lexicalQueryTerms, lexicalTerms } from './lexical.js';

/** One commit as the file history needs it. */
export interface CommitRecord {
  /** Subject and body. */
  readonly message: string;
  /** Paths (relative to the repository root, `/`-separated) the commit changed. */
  readonly files: readonly string[];
}

/** Per-file documents of commit-message terms, ready to score tasks against. */
export interface FileHistory {
  /** The commit the history was read at (HEAD when indexed), or null when unknown. */
  readonly commit: string | null;
  /** How many commits the documents were built from. */
  readonly commits: number;
  /** Term → number of files whose document holds it. */
  readonly documentFrequency: ReadonlyMap<string, number>;
  /** Mean document length, in terms. */
  readonly averageLength: number;
  /** Path → the file's document, encoded as `term count term count …` (decoded on demand). */
  readonly documents: ReadonlyMap<string, string>;
}

/**
 * Commits that touch more files than this are left out: a mass rename, a reformat or a licence
 * header change says nothing about what any one of its files does, and would give every file
 * the same words.
 */
const DEFAULT_MAX_FILES_PER_COMMIT = 50;

/** Options of {@link buildFileHistory}. */
export interface FileHistoryOptions {
  /** The commit the records were read at. @default null */
  readonly commit?: string | null;
  /** Commits touching more files than this are skipped (see above). @default 50 */
  readonly maxFilesPerCommit?: number;
}

/**
 * Build the per-file documents from commits (any order). Terms are those of the lexical index
 * (`lexicalTerms`: split, lower-cased, stop words dropped, stemmed), so a task's lexical query
 * terms meet them unchanged.
 *
 * @example
 * ```ts
 * const history = buildFileHistory([{ message: 'retry on timeout', files: ['lib/retry.rb'] }]);
 * fileHistoryScores(history, ['timeout'], ['lib/retry.rb']); // Map { 'lib/retry.rb' => 0.28… }
 * ```
 */
export function buildFileHistory(commits: Iterable<CommitRecord>, options: FileHistoryOptions = {}): FileHistory {
  const maxFiles = options.maxFilesPerCommit ?? DEFAULT_MAX_FILES_PER_COMMIT;
  const counts = new Map<string, Map<string, number>>();
  let used = 0;
  for (const commit of commits) {
    if (commit.files.length === 0 || commit.files.length > maxFiles) continue;
    used++;
    const terms = lexicalTerms(commit.message);
    if (terms.length === 0) continue;
    for (const file of commit.files) {
      let document = counts.get(file);
      if (!document) counts.set(file, (document = new Map()));
      for (const term of terms) document.set(term, (document.get(term) ?? 0) + 1);
    }
  }
  const documentFrequency = new Map<string, number>();
  const documents = new Map<string, string>();
  let totalLength = 0;
  for (const file of [...counts.keys()].sort()) {
    const document = counts.get(file)!;
    const parts: string[] = [];
    for (const [term, count] of [...document].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
      totalLength += count;
      parts.push(term, String(count));
    }
    documents.set(file, parts.join(' '));
  }
  return { commit: options.commit ?? null, commits: used, documentFrequency, averageLength: documents.size > 0 ? totalLength / documents.size : 0, documents };
}

/** The length in terms of an encoded document (`term count term count …`): the sum of its counts. */
function documentLength(parts: readonly string[]): number {
  let length = 0;
  for (let i = 1; i < parts.length; i += 2) length += Number(parts[i]);
  return length;
}

/** Okapi BM25's constants, as the lexical index uses them. */
const K1 = 1.2;
const B = 0.75;

/**
 * BM25 of a query's terms against the history documents of the given files: each distinct
 * term counts once, weighted by its rarity among the files' documents. Files with no document,
 * or none of the terms, score 0 and are left out of the map.
 *
 * @example
 * ```ts
 * const scores = fileHistoryScores(history, lexicalQueryTerms(task), candidateFiles);
 * ```
 */
export function fileHistoryScores(history: FileHistory, terms: readonly string[], files: Iterable<string>): Map<string, number> {
  const scores = new Map<string, number>();
  const total = history.documents.size;
  const query = [...new Set(terms)].filter((term) => history.documentFrequency.has(term));
  if (query.length === 0 || total === 0) return scores;
  const weight = new Map(query.map((term) => {
    const df = history.documentFrequency.get(term)!;
    return [term, Math.log(1 + (total - df + 0.5) / (df + 0.5))] as const;
  }));
  for (const file of new Set(files)) {
    const encoded = history.documents.get(file);
    if (encoded === undefined) continue;
    const parts = encoded.split(' ');
    const norm = K1 * (1 - B + (B * documentLength(parts)) / history.averageLength);
    let score = 0;
    for (let i = 0; i < parts.length; i += 2) {
      const w = weight.get(parts[i]!);
      if (w === undefined) continue;
      const tf = Number(parts[i + 1]);
      score += (w * tf * (K1 + 1)) / (tf + norm);
    }
    if (score > 0) scores.set(file, score);
  }
  return scores;
}

/**
 * A task's evidence per candidate file, as a ranker reads it: each file's BM25 against the
 * task's lexical query terms (`lexicalQueryTerms`) relative to the best of `files`, 0..1.
 * Files scoring 0 are left out.
 *
 * @example
 * ```ts
 * relativeFileHistory(history, 'retry after a timeout', inputs.map((i) => i.node.file));
 * ```
 */
export function relativeFileHistory(history: FileHistory, task: string, files: Iterable<string>): Map<string, number> {
  const scores = fileHistoryScores(history, lexicalQueryTerms(task), files);
  let best = 0;
  for (const score of scores.values()) best = Math.max(best, score);
  for (const [file, score] of scores) scores.set(file, score / best);
  return scores;
}

/**
 * How much of the repository's history each file has, relative to the most changed of `files`,
 * 0..1: the log of the length of its history document (the terms of every commit message that
 * touched it, so about the commits that did, times their length) over the largest among `files`.
 * Code that keeps being changed is where the next change is likeliest, whatever the task says.
 * Files without a history document are left out.
 *
 * @example
 * ```ts
 * relativeFileChurn(history, inputs.map((i) => i.node.file)); // Map { 'src/app.py' => 1, 'src/cli.py' => 0.62 }
 * ```
 */
export function relativeFileChurn(history: FileHistory, files: Iterable<string>): Map<string, number> {
  const churn = new Map<string, number>();
  let best = 0;
  for (const file of new Set(files)) {
    const encoded = history.documents.get(file);
    if (encoded === undefined) continue;
    const value = Math.log1p(documentLength(encoded.split(' ')));
    if (value <= 0) continue;
    churn.set(file, value);
    best = Math.max(best, value);
  }
  for (const [file, value] of churn) churn.set(file, value / best);
  return churn;
}

/**
 * The encoding: a JSON header line, then one `term<TAB>files` line per term, an empty line, and
 * one `path<TAB>document` line per file. Splitting lines is several times faster than parsing the
 * same data as one JSON document, and a cold `knowing context` in a git checkout decodes it once.
 * Format 1 (one JSON document) is still read.
 */
const FORMAT = 2;
const JSON_FORMAT = 1;

/** The store note (key and kind) a repository's file history is kept under. */
export const FILE_HISTORY_NOTE = 'file-history';
/** The note holding the commit the stored file history was read at, checked without decoding the history. */
export const FILE_HISTORY_COMMIT_NOTE = 'file-history-commit';

/**
 * Serialise a file history (for a store note). Paths holding a tab or a line break (git prints
 * such paths quoted, so they never name an indexed file) are left out.
 */
export function encodeFileHistory(history: FileHistory): Uint8Array {
  const lines = [JSON.stringify({ format: FORMAT, commit: history.commit, commits: history.commits, averageLength: history.averageLength })];
  for (const [term, files] of history.documentFrequency) lines.push(`${term}\t${files}`);
  lines.push('');
  for (const [path, document] of history.documents) if (!/[\t\n\r]/.test(path)) lines.push(`${path}\t${document}`);
  return new TextEncoder().encode(lines.join('\n'));
}

/** Read what {@link encodeFileHistory} wrote (or format 1); undefined for anything else (another format, damaged bytes). */
export function decodeFileHistory(bytes: Uint8Array): FileHistory | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const headerEnd = text.indexOf('\n');
    const header = JSON.parse(headerEnd < 0 ? text : text.slice(0, headerEnd)) as Record<string, unknown>;
    if (header['format'] === JSON_FORMAT) return fromJson(header);
    if (header['format'] !== FORMAT || headerEnd < 0 || typeof header['averageLength'] !== 'number' || typeof header['commits'] !== 'number') return undefined;
    const documentFrequency = new Map<string, number>();
    const documents = new Map<string, string>();
    let inDocuments = false;
    for (const line of text.slice(headerEnd + 1).split('\n')) {
      if (line === '') {
        inDocuments = true;
        continue;
      }
      const tab = line.indexOf('\t');
      if (tab <= 0) return undefined;
      if (inDocuments) documents.set(line.slice(0, tab), line.slice(tab + 1));
      else {
        const files = Number(line.slice(tab + 1));
        if (!Number.isFinite(files)) return undefined;
        documentFrequency.set(line.slice(0, tab), files);
      }
    }
    return { commit: typeof header['commit'] === 'string' ? header['commit'] : null, commits: header['commits'], averageLength: header['averageLength'], documentFrequency, documents };
  } catch {
    return undefined;
  }
}

/** A format 1 history: the whole of it one JSON document. */
function fromJson(raw: Record<string, unknown>): FileHistory | undefined {
  if (typeof raw['averageLength'] !== 'number' || typeof raw['commits'] !== 'number') return undefined;
  const df = raw['documentFrequency'];
  const documents = raw['documents'];
  if (typeof df !== 'object' || df === null || typeof documents !== 'object' || documents === null) return undefined;
  return {
    commit: typeof raw['commit'] === 'string' ? raw['commit'] : null,
    commits: raw['commits'],
    averageLength: raw['averageLength'],
    documentFrequency: new Map(Object.entries(df as Record<string, number>)),
    documents: new Map(Object.entries(documents as Record<string, string>)),
  };
}
