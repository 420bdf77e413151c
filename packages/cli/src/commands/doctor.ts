import { existsSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '@knowing/engine';
import { DEFAULT_INDEX_OPTIONS, createLanguageRegistry, detectRepoId, discoverFiles, indexRepository } from '@knowing/indexer';
import type { KnownFileState } from '@knowing/indexer';
import { DEFAULT_CACHE_NOTES, SCHEMA_VERSION, createSqliteStore } from '@knowing/store-sqlite';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import { booleanValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { ExitCode, toFailure } from '../errors.js';
import { defaultDatabasePath, displayPath, ignoreIndexDirectory } from '../repo.js';
import { locate, writableIndex } from '../session.js';
import type { Location } from '../session.js';
import { formatBytes, formatInt, formatMs, plural, table } from '../text.js';

/** What `--fix` can do about a finding. */
type Repair = 'rebuild' | 'index' | 'prune' | 'vacuum';

/** One line of the report. `problem` makes the exit code non-zero; `warn` does not. */
interface Finding {
  readonly check: string;
  readonly status: 'ok' | 'warn' | 'problem';
  readonly message: string;
  /** What to do, as the user would do it. */
  readonly fix?: string;
  readonly repair?: Repair;
}

interface Report {
  readonly database: string;
  readonly root: string;
  readonly findings: readonly Finding[];
  /** Set when the database cannot be used at all (no file, damaged, not an index). */
  readonly unusable: boolean;
  readonly missing: boolean;
}

/** Free pages worth a VACUUM: at least this many bytes and a quarter of the file. */
const VACUUM_MIN_FREE_BYTES = 16 * 1024 * 1024;

const FIX = '`knowing doctor --fix`';

function isDefaultLocation(location: Location): boolean {
  return location.dbPath === defaultDatabasePath(location.root);
}

function sameDirectory(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

/** The KnowingError code of a failure, or '' for anything else. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : '';
}

const DAMAGED = new Set(['STORE_CORRUPT', 'STORE_NOT_A_DATABASE']);

/** A failure of the database itself as a finding, with the repair that is safe for it. */
function databaseFailure(location: Location, error: unknown): Finding {
  const failure = toFailure(error);
  const code = codeOf(error);
  // Moving a file aside is safe for our own file: a damaged index, or anything at the default
  // location. A file the user named with --db that is not an index is not ours to move.
  const rebuildable = code === 'STORE_CORRUPT' || (code === 'STORE_NOT_A_DATABASE' && isDefaultLocation(location) && isRegularFile(location.dbPath));
  if (rebuildable) {
    return { check: 'database', status: 'problem', message: failure.message, fix: `${FIX} (moves the file aside and re-indexes)`, repair: 'rebuild' };
  }
  if (code === 'NO_INDEX') {
    return { check: 'database', status: 'problem', message: failure.message, fix: `\`knowing index\` (or ${FIX})`, repair: 'index' };
  }
  return { check: 'database', status: 'problem', message: failure.message, ...(failure.hint ? { fix: failure.hint } : {}) };
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every check, reading only: the index is opened read-only. */
async function examine(ctx: CommandContext, location: Location, full: boolean): Promise<Report> {
  const findings: Finding[] = [];
  const base = { database: location.dbPath, root: location.root };
  if (!existsSync(location.dbPath)) {
    findings.push({ check: 'database', status: 'problem', message: `no index at ${displayPath(location.dbPath, ctx.cwd)}`, fix: '`knowing index`' });
    return { ...base, findings, unusable: true, missing: true };
  }
  let store: SqliteGraphStore;
  try {
    store = await createSqliteStore({ path: location.dbPath, readonly: true });
  } catch (error) {
    findings.push(databaseFailure(location, error));
    return { ...base, findings, unusable: true, missing: false };
  }
  let root = location.root;
  try {
    findings.push({
      check: 'schema',
      status: 'ok',
      message: `v${store.schemaVersion} (this knowing reads up to v${SCHEMA_VERSION})${store.writtenBy ? `, written by ${store.writtenBy}` : ''}`,
    });

    const integrity = await store.checkIntegrity({ full });
    if (!integrity.ok) {
      const shown = integrity.problems.slice(0, 3).join('; ');
      findings.push({
        check: 'integrity',
        status: 'problem',
        message: `${integrity.check} found ${plural(integrity.problems.length, 'problem')}${integrity.problems.length >= 100 ? ' (or more)' : ''}: ${shown}`,
        fix: `${FIX} (moves the damaged file aside and re-indexes)`,
        repair: 'rebuild',
      });
      return { ...base, findings, unusable: true, missing: false };
    }
    findings.push({ check: 'integrity', status: 'ok', message: `${integrity.check} ok (${formatMs(integrity.ms)})${full ? '' : '; --full runs integrity_check'}` });

    const repo = await store.repo();
    if (repo === null || repo.indexedAt === null) {
      findings.push({ check: 'repository', status: 'problem', message: 'the database holds no index yet', fix: '`knowing index`', repair: 'index' });
      return { ...base, findings, unusable: true, missing: false };
    }
    // As for queries: with only --db, the repository is the one the index was built from.
    if (ctx.repo === undefined && ctx.db !== undefined && repo.root && existsSync(repo.root)) root = repo.root;
    if (!existsSync(repo.root)) {
      findings.push({
        check: 'repository',
        status: 'warn',
        message: `indexed from ${repo.root}, which no longer exists; comparing with ${root}`,
        fix: '`knowing index` re-indexes it here',
      });
    } else if (!sameDirectory(repo.root, root) && isDefaultLocation(location)) {
      // The index inside this folder was built elsewhere: a moved or copied checkout.
      findings.push({
        check: 'repository',
        status: 'warn',
        message: `indexed at ${repo.root} (${repo.id}); this folder is a copy or the repository moved`,
        fix: '`knowing index` records the new location',
        repair: 'index',
      });
    } else if (!sameDirectory(repo.root, root)) {
      findings.push({
        check: 'repository',
        status: 'problem',
        message: `this index was built from ${repo.root} (${repo.id}), not from ${root}`,
        fix: `run knowing in ${repo.root} (or pass --repo ${repo.root}), or give ${root} its own index with \`knowing index ${root}\``,
      });
      return { ...base, root, findings, unusable: false, missing: false };
    } else {
      const id = await detectRepoId(root).catch(() => repo.id);
      findings.push(
        id === repo.id
          ? { check: 'repository', status: 'ok', message: `${repo.root} (${repo.id})` }
          : {
              check: 'repository',
              status: 'warn',
              message: `indexed as ${repo.id}, but ${root} is now ${id} (a new git remote?): the next index rebuilds it in full`,
              fix: '`knowing index`',
              repair: 'index',
            },
      );
    }

    if (existsSync(root)) findings.push(await staleness(ctx, location, store, root, full));
    findings.push(...(await storage(store)));
    if (!writableIndex(location.dbPath)) {
      findings.push({ check: 'access', status: 'ok', message: 'read-only for this user: queries work, answers are not cached, --fix cannot write' });
    }
  } catch (error) {
    if (!DAMAGED.has(codeOf(error))) throw error;
    findings.push(databaseFailure(location, error));
    return { ...base, root, findings, unusable: true, missing: false };
  } finally {
    await store.close();
  }
  // Writable checks need write access; say so instead of failing at --fix.
  return { ...base, root, findings, unusable: false, missing: false };
}

/**
 * Files changed since indexing. By default a file whose size is unchanged counts as unchanged
 * (one stat per file, like a quick `git status`); --full hashes every file.
 */
async function staleness(ctx: CommandContext, location: Location, store: SqliteGraphStore, root: string, full: boolean): Promise<Finding> {
  const started = performance.now();
  const languages = location.loaded.config.defaults?.languages;
  const registry = createLanguageRegistry(languages ? { languages: [...languages] } : {});
  const records = await store.listFiles();
  const previous = new Map<string, KnownFileState>();
  if (!full) {
    for (const record of records) {
      try {
        const stats = statSync(join(root, record.path));
        if (stats.size === record.sizeBytes) previous.set(record.path, { sizeBytes: stats.size, mtimeMs: stats.mtimeMs, contentHash: record.contentHash });
      } catch {
        // Gone: the comparison below reports it.
      }
    }
  }
  const discovery = await discoverFiles({
    root,
    accept: (file) => registry.forPath(file) !== undefined,
    maxFileBytes: DEFAULT_INDEX_OPTIONS.maxFileBytes,
    skipDirectories: DEFAULT_INDEX_OPTIONS.skipDirectories,
    previous,
    ...(ctx.io.signal ? { signal: ctx.io.signal } : {}),
  });
  const stored = new Map(records.map((r) => [r.path, r.contentHash]));
  const changed: string[] = [];
  for (const file of discovery.files) {
    const hash = stored.get(file.path);
    if (hash === undefined || hash !== file.contentHash) changed.push(file.path);
  }
  const present = new Set(discovery.files.map((f) => f.path));
  for (const path of stored.keys()) if (!present.has(path)) changed.push(path);
  const how = full ? 'contents compared' : 'sizes compared; --full compares contents';
  const took = formatMs(performance.now() - started);
  if (changed.length === 0) {
    return { check: 'files', status: 'ok', message: `${formatInt(discovery.files.length)} files match the index (${how}, ${took})` };
  }
  changed.sort();
  const shown = changed.slice(0, 5).join(', ') + (changed.length > 5 ? ', …' : '');
  return {
    check: 'files',
    status: 'warn',
    message: `${plural(changed.length, 'file')} changed, added or removed since indexing (${how}): ${shown}`,
    fix: '`knowing index` (incremental)',
    repair: 'index',
  };
}

/** Cached answers against their bound, and free pages worth giving back. */
async function storage(store: SqliteGraphStore): Promise<Finding[]> {
  const usage = await store.usage();
  const findings: Finding[] = [];
  const over: string[] = [];
  const caches: string[] = [];
  for (const [kind, limit] of Object.entries(DEFAULT_CACHE_NOTES)) {
    const notes = usage.notes.find((n) => n.kind === kind) ?? { count: 0, bytes: 0 };
    caches.push(`${kind} ${formatInt(notes.count)} notes, ${formatBytes(notes.bytes)}`);
    if ((limit.maxCount !== undefined && notes.count > limit.maxCount) || (limit.maxBytes !== undefined && notes.bytes > limit.maxBytes)) {
      over.push(`${kind} (bound: ${limit.maxCount ?? '∞'} notes, ${limit.maxBytes !== undefined ? formatBytes(limit.maxBytes) : '∞'})`);
    }
  }
  findings.push(
    over.length === 0
      ? { check: 'caches', status: 'ok', message: caches.join('; ') }
      : { check: 'caches', status: 'warn', message: `${caches.join('; ')}: over the bound of ${over.join(', ')}`, fix: FIX, repair: 'prune' },
  );
  const total = usage.fileBytes + usage.walBytes;
  if (usage.freeBytes >= VACUUM_MIN_FREE_BYTES && usage.freeBytes * 4 >= usage.fileBytes) {
    findings.push({
      check: 'size',
      status: 'warn',
      message: `${formatBytes(total)}, of which ${formatBytes(usage.freeBytes)} are free pages`,
      fix: `${FIX} (VACUUM)`,
      repair: 'vacuum',
    });
  } else {
    findings.push({ check: 'size', status: 'ok', message: `${formatBytes(total)} (${formatBytes(usage.freeBytes)} free)` });
  }
  return findings;
}

/** `graph.db` → `graph.db.damaged-20261125-2338`, with its log and shared memory. */
function moveAside(path: string, now: number): string {
  const d = new Date(now);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
  const aside = `${path}.damaged-${stamp}`;
  renameSync(path, aside);
  // The log belongs to the damaged file; the shared memory is only a cache of the log.
  if (existsSync(`${path}-wal`)) renameSync(`${path}-wal`, `${aside}-wal`);
  rmSync(`${path}-shm`, { force: true });
  return aside;
}

/** Index `root` into the database (creating it when missing), as `knowing index` does. */
async function reindex(ctx: CommandContext, location: Location, root: string, full: boolean): Promise<string> {
  const defaults = location.loaded.config.defaults ?? {};
  const store = await createSqliteStore({ path: location.dbPath });
  ignoreIndexDirectory(root, location.dbPath);
  try {
    const summary = await indexRepository({
      root,
      store,
      ...(defaults.languages ? { languages: [...defaults.languages] } : {}),
      ...(defaults.workers !== undefined ? { workers: defaults.workers } : {}),
      ...(full ? { full: true } : {}),
      ...(ctx.io.signal ? { signal: ctx.io.signal } : {}),
    });
    await createEngine({ store }).warm();
    return `${plural(summary.files.parsed, 'file')} parsed, ${formatInt(summary.files.unchanged)} unchanged`;
  } finally {
    await store.close();
  }
}

/** Apply the repairs the report asks for; returns what was done, one line each. */
async function repair(ctx: CommandContext, location: Location, report: Report): Promise<string[]> {
  const wanted = new Set(report.findings.map((f) => f.repair).filter((r): r is Repair => r !== undefined));
  const done: string[] = [];
  if (wanted.has('rebuild')) {
    const aside = moveAside(location.dbPath, ctx.now());
    done.push(`moved the damaged index to ${displayPath(aside, ctx.cwd)} (delete it once you no longer need it)`);
    done.push(`re-indexed ${report.root}: ${await reindex(ctx, location, report.root, true)}`);
    return done;
  }
  if (wanted.has('index')) done.push(`indexed ${report.root}: ${await reindex(ctx, location, report.root, false)}`);
  if (wanted.has('prune') || wanted.has('vacuum')) {
    const store = await createSqliteStore({ path: location.dbPath });
    try {
      if (wanted.has('prune')) done.push(`deleted ${plural(await store.pruneCacheNotes(), 'cached answer')} beyond the bound`);
      if (wanted.has('vacuum')) {
        const before = (await store.usage()).fileBytes;
        await store.vacuum();
        done.push(`compacted the database: ${formatBytes(before)} → ${formatBytes((await store.usage()).fileBytes)}`);
      }
    } finally {
      await store.close();
    }
  }
  return done;
}

function exitCodeOf(report: Report): ExitCode {
  if (!report.findings.some((f) => f.status === 'problem')) return ExitCode.Ok;
  return report.missing ? ExitCode.NoIndex : ExitCode.Database;
}

function print(ctx: CommandContext, report: Report): void {
  const label = { ok: 'ok', warn: 'warn', problem: 'PROBLEM' } as const;
  const rows: string[][] = [];
  for (const finding of report.findings) {
    rows.push([label[finding.status], finding.check, finding.message]);
    if (finding.fix && finding.status !== 'ok') rows.push(['', '', `fix: ${finding.fix}`]);
  }
  for (const line of table(rows, '  ')) ctx.out.line(line);
}

export async function runDoctor(ctx: CommandContext): Promise<ExitCode> {
  const full = booleanValue(ctx.values, 'full');
  const fix = booleanValue(ctx.values, 'fix');
  const location = await locate(ctx);
  const before = await examine(ctx, location, full);
  let fixed: string[] = [];
  let after = before;
  const fixable = before.findings.some((f) => f.repair !== undefined && f.status !== 'ok');
  if (fix && fixable) {
    fixed = await repair(ctx, location, before);
    after = await examine(ctx, location, full);
  }
  const code = exitCodeOf(after);
  if (ctx.out.json) {
    ctx.out.printJson({
      database: after.database,
      root: after.root,
      healthy: code === ExitCode.Ok,
      findings: after.findings,
      ...(fix ? { fixed, before: before.findings } : {}),
    });
    return code;
  }
  ctx.out.line(`knowing doctor: ${displayPath(location.dbPath, ctx.cwd)}`);
  if (fixed.length > 0) {
    ctx.out.line('fixed:');
    for (const line of fixed) ctx.out.line(`  ${line}`);
    ctx.out.line('now:');
  }
  print(ctx, after);
  const problems = after.findings.filter((f) => f.status === 'problem').length;
  const warnings = after.findings.filter((f) => f.status === 'warn').length;
  if (problems === 0) {
    ctx.out.note(warnings === 0 ? 'healthy' : `usable, with ${plural(warnings, 'warning')}${!fix && after.findings.some((f) => f.repair && f.status === 'warn') ? `: ${FIX} acts on them` : ''}`);
  } else {
    const canFix = !fix && after.findings.some((f) => f.repair && f.status === 'problem');
    ctx.out.note(`${plural(problems, 'problem')} found${canFix ? `: ${FIX} repairs ${problems === 1 ? 'it' : 'them'}` : '; see the fix lines above'}`);
  }
  return code;
}
