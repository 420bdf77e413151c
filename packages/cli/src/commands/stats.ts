import { statSync } from 'node:fs';
import type { CommandContext } from '../command.js';
import { ExitCode } from '../errors.js';
import { displayPath } from '../repo.js';
import { openIndex } from '../session.js';
import { ago, countList, formatBytes, formatInt, formatTime, table } from '../text.js';

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export async function runStats(ctx: CommandContext): Promise<ExitCode> {
  const index = await openIndex(ctx);
  try {
    const { store, repoInfo } = index;
    const [counts, files, snapshot] = await Promise.all([store.counts(), store.listFiles(), store.currentSnapshot()]);
    const filesByLanguage: Record<string, number> = {};
    const syntaxErrorFiles: string[] = [];
    for (const file of files) {
      filesByLanguage[file.language] = (filesByLanguage[file.language] ?? 0) + 1;
      if (file.syntaxErrors > 0) syntaxErrorFiles.push(file.path);
    }
    // A PostgreSQL store has no file to measure: its URL (password hidden) and schema instead.
    const postgres = index.postgres;
    const bytes = postgres ? null : fileSize(index.dbPath) + fileSize(`${index.dbPath}-wal`);
    const schema = (store as { schema?: unknown }).schema;
    const report = {
      repository: repoInfo,
      database: postgres
        ? { url: postgres.shown, schema: typeof schema === 'string' ? schema : null, schemaVersion: store.schemaVersion }
        : { path: index.dbPath, bytes, schemaVersion: store.schemaVersion },
      snapshot,
      files: counts.files,
      filesByLanguage,
      syntaxErrorFiles,
      nodes: counts.nodes,
      nodesByKind: counts.nodesByKind,
      nodesByLanguage: counts.nodesByLanguage,
      edges: counts.edges,
      edgesByType: counts.edgesByType,
    };
    if (ctx.out.json) {
      ctx.out.printJson(report);
      return ExitCode.Ok;
    }
    const now = ctx.now();
    const rows: string[][] = [
      ['repository', `${repoInfo.root} (${repoInfo.id})${repoInfo.commit ? ` at ${repoInfo.commit.slice(0, 12)}` : ''}`],
      ['indexed', repoInfo.indexedAt !== null ? `${formatTime(repoInfo.indexedAt)} (${ago(repoInfo.indexedAt, now)})` : 'never'],
      [
        'database',
        postgres
          ? `${postgres.shown}${typeof schema === 'string' ? `, schema ${schema}` : ''} (v${store.schemaVersion})`
          : `${displayPath(index.dbPath, ctx.cwd)} (${formatBytes(bytes ?? 0)}, schema v${store.schemaVersion})`,
      ],
      ['snapshot', snapshot ? `${snapshot.id.slice(0, 16)} (generation ${snapshot.generation})` : 'none'],
      ['files', `${formatInt(counts.files)} (${countList(filesByLanguage)})${syntaxErrorFiles.length ? `, ${syntaxErrorFiles.length} with syntax errors` : ''}`],
      ['nodes', formatInt(counts.nodes)],
      ['  by kind', countList(counts.nodesByKind)],
      ['  by language', countList(counts.nodesByLanguage)],
      ['edges', formatInt(counts.edges)],
      ['  by type', countList(counts.edgesByType)],
    ];
    for (const line of table(rows)) ctx.out.line(line);
    return ExitCode.Ok;
  } finally {
    await index.close();
  }
}
