import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import path from 'node:path';
import type ignoreFactory from 'ignore';
import type { Ignore } from 'ignore';
import { ErrorCode, KnowingError } from '@knowing/graph';

let loadedIgnore: typeof ignoreFactory | undefined;
/**
 * A matcher from the `ignore` package, loaded on first use: a walk over directories and rules
 * that did not change takes every verdict from the stored listings, and the freshness check
 * that runs before each CLI answer should not pay for loading it (a CommonJS module, a few ms).
 */
function ignore(): Ignore {
  loadedIgnore ??= createRequire(import.meta.url)('ignore') as typeof ignoreFactory;
  return loadedIgnore();
}

/** Why discovery passed over a file or directory. */
export type SkipReason =
  /** Matched a `.gitignore`, `.knowingignore` or `.git/info/exclude` pattern. */
  | 'ignored'
  /** A directory that is always skipped (`node_modules`, `vendor`, dot-directories, …). */
  | 'skipped_directory'
  /** A generated file, by name (`*.pb.go`) or by a header marker (`Code generated … DO NOT EDIT`). */
  | 'generated'
  /** A minified file, by name (`*.min.js`) or by its average line length. */
  | 'minified'
  /** Larger than `maxFileBytes`. */
  | 'too_large'
  /** A NUL byte in the first 8 KB. */
  | 'binary'
  /** A symbolic link whose target lies outside the root. */
  | 'symlink_outside_root'
  /** A symbolic link that points at one of its own ancestors, or cannot be resolved. */
  | 'symlink_loop'
  /** A symbolic link into the repository: its target is indexed under its real path instead. */
  | 'symlink'
  /** The file could not be read. */
  | 'unreadable';

/** A file discovery kept. */
export interface DiscoveredFile {
  /** Repo-relative path with `/` separators. */
  readonly path: string;
  readonly absolutePath: string;
  readonly sizeBytes: number;
  readonly mtimeMs: number;
  /** Status change time: moves with every write, also when the mtime is set back afterwards. */
  readonly ctimeMs: number;
  /** Hex SHA-256 of the file's bytes. */
  readonly contentHash: string;
}

/** A file or directory discovery passed over, and why. */
export interface SkippedFile {
  /** Repo-relative path; directories end with `/`. */
  readonly path: string;
  readonly reason: SkipReason;
  /** Extra context, e.g. a symlink's target or the marker that made a file look generated. */
  readonly detail?: string;
}

/**
 * What a directory held when a walk read it, so a later walk need not read it again while its
 * mtime (which adding, removing or renaming an entry changes) stays the same.
 */
export interface DirectoryListing {
  /** The directory's mtime when it was read. */
  readonly mtimeMs: number;
  /** Entry names, sorted, joined with `/` (which no name contains). */
  readonly names: string;
  /** One letter per entry, in the same order: `f` file, `d` directory, `l` symbolic link, `o` anything else. */
  readonly kinds: string;
  /**
   * Hash of the ignore rules in force in the directory (every ignore file from the root down,
   * with its directory and name), which `ignored` was decided under.
   */
  readonly rules?: string;
  /** One letter per entry, in the same order: `i` ignored, `k` kept, `.` not looked at. */
  readonly ignored?: string;
}

/** What a previous run knew about a file, so an untouched file need not be read again. */
export interface KnownFileState {
  readonly sizeBytes: number;
  readonly mtimeMs: number;
  /** When given, a file whose ctime differs is read again even with its size and mtime unchanged. */
  readonly ctimeMs?: number;
  readonly contentHash: string;
}

/** Options of {@link discoverFiles}. */
export interface DiscoverOptions {
  /** Directory to walk. */
  readonly root: string;
  /**
   * Which repo-relative paths are candidates (the indexer passes "has a language module").
   * Others are passed over silently, without being read.
   * @default every file
   */
  readonly accept?: (path: string) => boolean;
  /** @default 1_048_576 (1 MB) */
  readonly maxFileBytes?: number;
  /** Directory names skipped wherever they occur. Any other dot-directory except `.github` is skipped too. */
  readonly skipDirectories?: readonly string[];
  /** Ignore files honoured in every directory, with `.gitignore` syntax. @default ['.gitignore', '.knowingignore'] */
  readonly ignoreFiles?: readonly string[];
  /** @default true */
  readonly skipGenerated?: boolean;
  /** @default true */
  readonly skipMinified?: boolean;
  /** Files of at least 4 KB whose average line is longer than this are treated as minified. @default 300 */
  readonly maxAverageLineLength?: number;
  /**
   * Size, mtime, ctime and hash per path from a previous run: a file whose size, mtime and
   * ctime are unchanged keeps its hash without being read (the way `git status` avoids
   * rehashing). The ctime catches an edit of the same size whose mtime was set back.
   */
  readonly previous?: ReadonlyMap<string, KnownFileState>;
  /**
   * Listings from a previous walk (its {@link Discovery.directories}) by repo-relative
   * directory (`''` for the root): a directory whose mtime is unchanged is not read again, the
   * way git's untracked cache works. Ignore files, symbolic links and every candidate file are
   * still checked on each walk; only a tool that restores an older mtime on a directory after
   * changing its entries can defeat this (pass no listings, as a full index does).
   */
  readonly previousDirectories?: ReadonlyMap<string, DirectoryListing>;
  /**
   * Say why each symbolic link was passed over (`skipped`: its target resolved, inside or
   * outside the root, a loop). A link is never indexed either way: a caller that reads only
   * `files` (a freshness check) saves resolving every link on every walk. @default true
   */
  readonly classifySymlinks?: boolean;
  readonly signal?: AbortSignal;
}

/** What {@link discoverFiles} found. */
export interface Discovery {
  /** Kept files, sorted by path. */
  readonly files: readonly DiscoveredFile[];
  /** Skipped files and directories, sorted by path. */
  readonly skipped: readonly SkippedFile[];
  /**
   * Listings of the directories walked, to pass as `previousDirectories` next time. A
   * directory changed within the last 2 seconds is left out: it could change again without
   * its mtime moving.
   */
  readonly directories: ReadonlyMap<string, DirectoryListing>;
  /** Ignore patterns that could not be used (one line each, naming the file and line). */
  readonly warnings: readonly string[];
}

/** Directory names never descended into. */
export const DEFAULT_SKIP_DIRECTORIES: readonly string[] = Object.freeze([
  '.git',
  'node_modules',
  'bower_components',
  'vendor',
  'dist',
  'build',
  'target',
  'out',
  '__pycache__',
  '.venv',
  'venv',
  'coverage',
]);

/** Defaults of {@link DiscoverOptions}. */
export const DEFAULT_DISCOVER_OPTIONS = Object.freeze({
  maxFileBytes: 1_048_576,
  skipDirectories: DEFAULT_SKIP_DIRECTORIES,
  ignoreFiles: Object.freeze(['.gitignore', '.knowingignore']) as readonly string[],
  skipGenerated: true,
  skipMinified: true,
  maxAverageLineLength: 300,
  classifySymlinks: true,
});

const ALLOWED_DOT_DIRECTORIES = new Set(['.github']);
const GENERATED_NAME = [
  /\.pb\.go$/,
  /\.pb\.gw\.go$/,
  /_generated\.[^/]+$/,
  /\.generated\.[^/]+$/,
  /(^|\/)zz_generated[^/]*$/,
  /_pb2(_grpc)?\.pyi?$/,
];
const MINIFIED_NAME = /[.-]min\.[cm]?js$/;
interface GeneratedMarker {
  readonly pattern: RegExp;
  readonly label: string;
  /** Counts only where a comment begins or the line starts with a capital letter. */
  readonly sentence?: boolean;
}
/**
 * What generators write in a file's header, tested one comment line at a time (comment syntax
 * stripped). Only the leading comments are read, never prose further down, and each marker is
 * phrased the way a generator states it: a hand-written file whose doc comment merely mentions
 * "auto-generated" config files, or what `@generated` means, is indexed.
 */
const GENERATED_MARKERS: readonly GeneratedMarker[] = [
  // Go's convention (https://go.dev/s/generatedcode), also used by protoc-gen-go, sqlc, client-gen, …
  { pattern: /^Code generated .* DO NOT EDIT\.?$/, label: 'Code generated … DO NOT EDIT' },
  // Upper case: a warning a generator leaves (protobuf's "DO NOT EDIT!", Thrift's "DO NOT EDIT UNLESS …").
  { pattern: /\bDO NOT EDIT\b/, label: 'DO NOT EDIT' },
  // A tag (`@generated`, `@generated SignedSource<<…>>`) or a statement (`This file is @generated by prost-build.`).
  { pattern: /^@generated\b|\b(?:is|was|been)\s+(?:automatically\s+)?@generated\b/, label: '@generated' },
  // C#: `// <auto-generated>`, `// <auto-generated/>`, `// <autogenerated />`.
  { pattern: /^<auto-?generated\b/i, label: '<auto-generated>' },
  // "This file is automatically generated", "This code was generated by a tool.", "NOTE: This class is auto generated by …",
  // "These definitions are auto-generated."
  {
    pattern:
      /\b(?:this|these)\s+(?:[\w.-]+\s+){0,2}?(?:file|code|module|class|source|header|package|definitions|types|bindings|stubs)\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:(?:automatically|auto|machine)[- ]?)?generated\b/i,
    label: 'this file is generated',
  },
  // A line that opens with the statement: "Generated by the protocol buffer compiler.", "Autogenerated by
  // Thrift Compiler", "Generated from Foo.g4 by ANTLR", "Auto-generated file. Do not edit.", "AUTOGENERATED,
  // edit src/index.js instead". Capitalised, or lower case only where a comment begins (`/* automatically
  // generated by rust-bindgen */`): wrapped prose ("… config files that are\n * generated by the deploy
  // tool") can start a line with it too.
  {
    pattern: /^(?:(?:auto(?:matically)?|machine)[- ]?)?generated(?:\s+(?:by|from|with|using|file|code|on)\b|\s*[.:!,;]|\s*$)/i,
    label: 'Generated by',
    sentence: true,
  },
];
/** How much of a file's start is searched for its header comments (long license blocks may precede the marker). */
const HEAD_BYTES = 4096;
/**
 * A directory changed this recently may change again without its mtime moving (file systems
 * keep mtimes at a granularity of up to 2 s): its listing is not offered for reuse.
 */
const RACY_MARGIN_MS = 2_000;
const BINARY_PROBE_BYTES = 8000;
const MINIFIED_MIN_BYTES = 4096;
/**
 * File-system calls are synchronous: thousands of awaited readdir/lstat round trips through
 * the thread pool cost more than the calls themselves. The walk yields to the event loop
 * after this many operations so progress and abort signals still get through.
 */
const OPERATIONS_PER_YIELD = 512;

/**
 * Longer ignore patterns are skipped with a warning: no path is that long, and the regular
 * expression `ignore` builds from one can exceed what V8 compiles (a 50,000-character line
 * made every walk fail).
 */
const MAX_IGNORE_PATTERN_CHARS = 4096;

interface IgnoreLevel {
  /** Repo-relative directory of the ignore file, `''` at the root. */
  readonly dir: string;
  /** The ignore file, repo-relative, for warnings. */
  readonly file: string;
  readonly text: string;
  /** Compiled on first use: while the rules and listings stand, verdicts come from the listings. */
  matcher?: Ignore;
}

/** The rules of `levels` (see `DirectoryListing.rules`), from those of the levels above. */
function rulesHash(above: string, dir: string, file: string, text: string): string {
  return createHash('sha1').update(`${above}\0${dir}\0${file}\0${text}`).digest('hex');
}

/**
 * Walk `root` and return the files worth indexing, with their content hashes, and what was
 * skipped and why. Honours nested `.gitignore`/`.knowingignore` files and `.git/info/exclude`;
 * skips vendored, build-output and dot-directories, generated, minified, oversized and binary
 * files; never follows a symbolic link (targets inside the root are indexed under their real
 * path, targets outside are refused), so link loops cannot trap it.
 *
 * @example
 * ```ts
 * const { files, skipped } = await discoverFiles({ root: '/src/flask', accept: (p) => p.endsWith('.py') });
 * ```
 */
export async function discoverFiles(options: DiscoverOptions): Promise<Discovery> {
  const settings = discoverSettings(options);
  const root = path.resolve(options.root);
  const rootStat = statOrUndefined(root);
  if (!rootStat?.isDirectory()) {
    throw new KnowingError(ErrorCode.PathNotFound, `${root} is not a directory`, {
      source: 'indexer',
      hint: 'pass the root of the repository to index',
    });
  }
  const walk = new DirectoryWalk(options, settings, root);
  const rootLevels: IgnoreLevel[] = [];
  const excludeText = readText(path.join(root, '.git', 'info', 'exclude'));
  const exclude = excludeText && usablePatterns(excludeText, '.git/info/exclude', walk.warnings);
  if (exclude) rootLevels.push({ dir: '', file: '.git/info/exclude', text: exclude });
  const rootRules = exclude ? rulesHash('', '', '.git/info/exclude', exclude) : '';

  await walk.walk('', rootLevels, rootRules);
  for (const candidate of walk.candidates) {
    await walk.maybeYield();
    walk.inspect(candidate);
  }
  const { files, skipped, directories, warnings } = walk;
  files.sort((a, b) => compare(a.path, b.path));
  skipped.sort((a, b) => compare(a.path, b.path));
  return { files, skipped, directories, warnings };
}

/**
 * What {@link discoverFiles} would find when only `paths` changed since `previous` was recorded
 * by a walk with the same options: each of them is looked at again as a walk looks at a file
 * (size, name, content; gone or unreadable, it is skipped), every other file of `previous` is
 * taken as recorded, without touching the disk. For a caller that knows what changed (a file
 * watcher); every path must be a file of `previous`, else walk. The listings are
 * `previousDirectories`, unchanged.
 */
export function revisitFiles(options: DiscoverOptions & { readonly previous: ReadonlyMap<string, KnownFileState>; readonly paths: readonly string[] }): Discovery {
  const settings = discoverSettings(options);
  const root = path.resolve(options.root);
  const walk = new DirectoryWalk(options, settings, root);
  const revisited = new Set(options.paths);
  for (const rel of revisited) walk.inspect(rel);
  const { files, skipped } = walk;
  for (const [rel, known] of options.previous) {
    if (revisited.has(rel)) continue;
    files.push({ path: rel, absolutePath: path.join(root, rel), sizeBytes: known.sizeBytes, mtimeMs: known.mtimeMs, ctimeMs: known.ctimeMs ?? 0, contentHash: known.contentHash });
  }
  files.sort((a, b) => compare(a.path, b.path));
  skipped.sort((a, b) => compare(a.path, b.path));
  return { files, skipped, directories: new Map(options.previousDirectories ?? []), warnings: walk.warnings };
}

function discoverSettings(options: DiscoverOptions) {
  return { ...DEFAULT_DISCOVER_OPTIONS, ...withoutUndefined(options) };
}

/**
 * The ignore verdicts of `earlier` for the entries `names` (with `kinds`) of the same directory
 * read again: an entry listed before as the same kind keeps its letter, any other is `.` (not
 * looked at). A verdict depends on the rules, the path and whether it is a directory alone.
 */
function verdictsByName(earlier: DirectoryListing, names: readonly string[], kinds: string): string {
  const before = new Map<string, string>();
  const earlierNames = earlier.names === '' ? [] : earlier.names.split('/');
  const earlierVerdicts = earlier.ignored ?? '';
  for (let i = 0; i < earlierNames.length; i++) before.set(earlierNames[i]!, earlier.kinds[i]! + (earlierVerdicts[i] ?? '.'));
  let verdicts = '';
  for (let i = 0; i < names.length; i++) {
    const seen = before.get(names[i]!);
    verdicts += seen !== undefined && seen[0] === kinds[i] ? seen[1]! : '.';
  }
  return verdicts;
}

/**
 * One walk of a repository: the directories listed (a listing reused while its directory is
 * unchanged), the files found worth a look, then the look at each (size, name, content).
 */
class DirectoryWalk {
  readonly files: DiscoveredFile[] = [];
  readonly skipped: SkippedFile[] = [];
  /** Files the walk accepted, inspected once it ends. */
  readonly candidates: string[] = [];
  readonly warnings: string[] = [];
  readonly directories = new Map<string, DirectoryListing>();
  private readonly rootReal: string;
  private readonly accept: NonNullable<DiscoverOptions['accept']>;
  private readonly skipDirs: Set<string>;
  private readonly absolute: (rel: string) => string;
  private operations = 0;

  constructor(
    private readonly options: DiscoverOptions,
    private readonly settings: ReturnType<typeof discoverSettings>,
    private readonly root: string,
  ) {
    this.rootReal = realpathSync.native(root);
    this.accept = options.accept ?? (() => true);
    this.skipDirs = new Set(settings.skipDirectories);
    // Relative paths are built from directory entries (no `.`, `..` or empty segments), so
    // joining needs no normalising: `path.join` costs more than the system call it feeds.
    const rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;
    this.absolute = path.sep === '/' ? (rel: string): string => rootPrefix + rel : (rel: string): string => rootPrefix + rel.split('/').join(path.sep);
  }

  /** Counts an operation; every {@link OPERATIONS_PER_YIELD}th yields to the event loop and stops there when aborted. */
  async maybeYield(): Promise<void> {
    if (++this.operations % OPERATIONS_PER_YIELD === 0) {
      await yieldToEventLoop();
      this.options.signal?.throwIfAborted();
    }
  }

  /**
   * A directory's entries, sorted: reused from the previous walk while its mtime is unchanged
   * (`previous`), else read; `keep` when the listing may be offered to the next walk.
   */
  private listDirectory(
    relDir: string,
    absDir: string,
  ): { names: readonly string[]; kinds: string; mtimeMs: number; keep: boolean; previous?: DirectoryListing; earlier?: DirectoryListing } | undefined {
    // Taken before the stat: an entry added after this moment moves the mtime past it.
    const startedAt = Date.now();
    const info = statOrUndefined(absDir);
    if (!info) return undefined;
    const previous = this.options.previousDirectories?.get(relDir);
    if (previous && previous.mtimeMs === info.mtimeMs) {
      return { names: previous.names === '' ? [] : previous.names.split('/'), kinds: previous.kinds, mtimeMs: info.mtimeMs, keep: true, previous };
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(absDir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const names = entries.map((entry) => entry.name);
    let kinds = '';
    for (const entry of entries) kinds += entry.isSymbolicLink() ? 'l' : entry.isDirectory() ? 'd' : entry.isFile() ? 'f' : 'o';
    return { names, kinds, mtimeMs: info.mtimeMs, keep: info.mtimeMs < startedAt - RACY_MARGIN_MS, ...(previous ? { earlier: previous } : {}) };
  }

  async walk(relDir: string, levels: readonly IgnoreLevel[], rulesAbove: string): Promise<void> {
    this.options.signal?.throwIfAborted();
    const absDir = relDir ? this.absolute(relDir) : this.root;
    await this.maybeYield();
    const listing = this.listDirectory(relDir, absDir);
    if (!listing) {
      this.skipped.push({ path: relDir + '/', reason: 'unreadable' });
      return;
    }
    const { names, kinds, previous, earlier } = listing;
    let here = levels;
    let rules = rulesAbove;
    for (const ignoreFile of this.settings.ignoreFiles) {
      if (!names.includes(ignoreFile)) continue;
      const file = relDir ? `${relDir}/${ignoreFile}` : ignoreFile;
      const read = readText(path.join(absDir, ignoreFile));
      const text = read && usablePatterns(read, file, this.warnings);
      if (text) {
        here = [...here, { dir: relDir, file, text }];
        rules = rulesHash(rules, relDir, ignoreFile, text);
      }
    }
    // Verdicts of the previous walk stand while the entries and the rules do; in a directory read
    // again (an entry came or went: an editor's save by rename moves the mtime too), each entry
    // still there as the same kind keeps its verdict under the same rules.
    const known =
      previous?.rules === rules && previous.ignored?.length === names.length
        ? previous.ignored
        : earlier?.rules === rules && earlier.ignored !== undefined
          ? verdictsByName(earlier, names, kinds)
          : undefined;
    let verdicts = '';
    const ignoredHere = (index: number, rel: string, isDirectory: boolean): boolean => {
      const before = known?.[index];
      const ignored = before === 'i' || (before !== 'k' && isIgnored(here, rel, isDirectory, this.warnings));
      verdicts += '.'.repeat(index - verdicts.length) + (ignored ? 'i' : 'k');
      return ignored;
    };
    const subdirs: string[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const kind = kinds[i];
      const rel = relDir ? `${relDir}/${name}` : name;
      if (kind === 'l') {
        if (this.settings.classifySymlinks) this.classifySymlink(rel);
        continue;
      }
      if (kind === 'd') {
        if (this.skipDirs.has(name) || (name.startsWith('.') && !ALLOWED_DOT_DIRECTORIES.has(name))) {
          if (name !== '.git') this.skipped.push({ path: rel + '/', reason: 'skipped_directory' });
          continue;
        }
        if (ignoredHere(i, rel, true)) {
          this.skipped.push({ path: rel + '/', reason: 'ignored' });
          continue;
        }
        subdirs.push(rel);
        continue;
      }
      if (kind !== 'f' || !this.accept(rel)) continue;
      if (ignoredHere(i, rel, false)) {
        this.skipped.push({ path: rel, reason: 'ignored' });
        continue;
      }
      this.candidates.push(rel);
    }
    if (listing.keep) {
      verdicts += '.'.repeat(names.length - verdicts.length);
      const same = previous !== undefined && previous.rules === rules && previous.ignored === verdicts;
      this.directories.set(relDir, same ? previous : { mtimeMs: listing.mtimeMs, names: previous?.names ?? names.join('/'), kinds, rules, ignored: verdicts });
    }
    for (const sub of subdirs) await this.walk(sub, here, rules);
  }

  private classifySymlink(rel: string): void {
    // A link named like a file no module wants (`LICENSE-MIT`, `README.md`) is not worth a realpath.
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    if (base.includes('.') && !this.accept(rel)) return;
    const abs = this.absolute(rel);
    let target: string;
    try {
      // The native realpath is one libc call; the JavaScript one lstats every path segment.
      target = realpathSync.native(abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ELOOP: the link chain never ends; ENOENT: dangling — neither can be indexed.
      if (code === 'ELOOP') this.skipped.push({ path: rel, reason: 'symlink_loop' });
      return;
    }
    const targetStat = statOrUndefined(target);
    const inside = target === this.rootReal || target.startsWith(this.rootReal + path.sep);
    if (!inside) {
      this.skipped.push({ path: targetStat?.isDirectory() ? rel + '/' : rel, reason: 'symlink_outside_root', detail: target });
      return;
    }
    const targetRel = path.relative(this.rootReal, target).split(path.sep).join('/');
    if (targetStat?.isDirectory()) {
      const linkDir = path.dirname(rel) === '.' ? '' : path.dirname(rel);
      const isAncestor = targetRel === '' || linkDir === targetRel || linkDir.startsWith(targetRel + '/');
      this.skipped.push({ path: rel + '/', reason: isAncestor ? 'symlink_loop' : 'symlink', detail: targetRel || '.' });
      return;
    }
    if (this.accept(rel)) this.skipped.push({ path: rel, reason: 'symlink', detail: targetRel });
  }

  inspect(rel: string): void {
    const abs = this.absolute(rel);
    let info: Stats;
    try {
      info = lstatSync(abs);
    } catch {
      this.skipped.push({ path: rel, reason: 'unreadable' });
      return;
    }
    if (info.size > this.settings.maxFileBytes) {
      this.skipped.push({ path: rel, reason: 'too_large', detail: `${info.size} bytes` });
      return;
    }
    if (this.settings.skipGenerated && GENERATED_NAME.some((pattern) => pattern.test(rel))) {
      this.skipped.push({ path: rel, reason: 'generated', detail: 'file name' });
      return;
    }
    if (this.settings.skipMinified && MINIFIED_NAME.test(rel)) {
      this.skipped.push({ path: rel, reason: 'minified', detail: 'file name' });
      return;
    }
    const known = this.options.previous?.get(rel);
    // An mtime can be set back (`touch -d`, a tool restoring timestamps), a ctime cannot: a
    // file whose ctime moved is hashed again (a chmod or a hard link moves it too: a rehash
    // that finds the same content).
    if (known && known.sizeBytes === info.size && known.mtimeMs === info.mtimeMs && (known.ctimeMs === undefined || known.ctimeMs === info.ctimeMs)) {
      this.files.push({ path: rel, absolutePath: abs, sizeBytes: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, contentHash: known.contentHash });
      return;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(abs);
    } catch {
      this.skipped.push({ path: rel, reason: 'unreadable' });
      return;
    }
    const verdict = classifyContent(bytes, this.settings);
    if (verdict) {
      this.skipped.push({ path: rel, ...verdict });
      return;
    }
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    this.files.push({ path: rel, absolutePath: abs, sizeBytes: bytes.length, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, contentHash });
  }
}

/**
 * Why a file's bytes disqualify it (binary, generated marker, minified), or undefined.
 *
 * @example
 * ```ts
 * classifyContent(Buffer.from('// Code generated by protoc. DO NOT EDIT.\n')); // { reason: 'generated', … }
 * ```
 */
export function classifyContent(
  bytes: Uint8Array,
  settings: { readonly skipGenerated?: boolean; readonly skipMinified?: boolean; readonly maxAverageLineLength?: number } = {},
): { reason: SkipReason; detail?: string } | undefined {
  const probe = Math.min(bytes.length, BINARY_PROBE_BYTES);
  for (let i = 0; i < probe; i++) if (bytes[i] === 0) return { reason: 'binary' };
  if (settings.skipGenerated ?? true) {
    const marker = generatedMarker(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, HEAD_BYTES)).toString('utf8'));
    if (marker) return { reason: 'generated', detail: marker };
  }
  if ((settings.skipMinified ?? true) && bytes.length >= MINIFIED_MIN_BYTES) {
    let lines = 1;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lines++;
    const average = bytes.length / lines;
    const limit = settings.maxAverageLineLength ?? DEFAULT_DISCOVER_OPTIONS.maxAverageLineLength;
    if (average > limit) return { reason: 'minified', detail: `average line ${Math.round(average)} characters` };
  }
  return undefined;
}

/**
 * The generator marker in `head`'s leading comments, or undefined. The header runs from the
 * start of the file (after a byte-order mark or shebang) through blank lines, `//` and `#` line
 * comments (a `#` line may be a directive or attribute: it carries no marker either way), block
 * comments, Python docstrings (where OpenAPI's Python client says "Generated by OpenAPI
 * Generator") and a `'use strict'` line, and ends at the first other code.
 */
function generatedMarker(head: string): string | undefined {
  const lines = head.replace(/^\uFEFF/, '').split('\n');
  // The end of the block comment or docstring being read (`*/`, `"""`, `'''`), if any.
  let closer: string | undefined;
  // True until a comment has shown its first words (a new block, or line comments after a blank line).
  let commentStart = true;
  for (let row = 0; row < lines.length; row++) {
    let line = lines[row]!.trim();
    let from = 0;
    if (closer === undefined) {
      const opener = /^(?:\/\*|[rRuU]?(?:"""|'''))/.exec(line)?.[0];
      if (opener) {
        closer = opener === '/*' ? '*/' : opener.slice(-3);
        commentStart = true;
        from = opener.length;
      } else if (line === '' || /^(['"])use strict\1;?$/.test(line) || (row === 0 && line.startsWith('#!'))) {
        commentStart = true;
        continue;
      } else if (line.startsWith('//')) {
        line = line.replace(/^\/\/+[!/]*/, '');
      } else if (line.startsWith('#')) {
        line = line.replace(/^#+/, '');
      } else {
        return undefined;
      }
    }
    let closed = false;
    let codeAfter = false;
    if (closer !== undefined) {
      const close = line.indexOf(closer, from);
      const blockComment = closer === '*/';
      if (close >= 0) {
        codeAfter = line.slice(close + closer.length).trim() !== '';
        line = line.slice(from, close);
        closer = undefined;
        closed = true;
      } else {
        line = line.slice(from);
      }
      // `/**`, `/*!` and the ` * ` of each line inside.
      if (blockComment) line = line.replace(/^\*+!?/, '');
    }
    const text = line.trim();
    for (const marker of GENERATED_MARKERS) {
      if (marker.sentence && !commentStart && !/^[A-Z]/.test(text)) continue;
      if (marker.pattern.test(text)) return marker.label;
    }
    if (codeAfter) return undefined;
    if (text !== '') commentStart = false;
    if (closed) commentStart = true;
  }
  return undefined;
}

function isIgnored(levels: readonly IgnoreLevel[], rel: string, isDirectory: boolean, warnings: string[]): boolean {
  // Deeper ignore files take precedence, and a later `!pattern` can re-include a file, so the
  // last level with an opinion wins.
  let ignored = false;
  for (const level of levels) {
    const local = level.dir ? rel.slice(level.dir.length + 1) : rel;
    const target = isDirectory ? local + '/' : local;
    level.matcher ??= ignore().add(level.text);
    let verdict: ReturnType<Ignore['test']>;
    try {
      verdict = level.matcher.test(target);
    } catch {
      // `ignore` compiles each pattern on first use: one it cannot compile throws here.
      level.matcher = compilablePatterns(level, warnings);
      verdict = level.matcher.test(target);
    }
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

/** `text` without its over-long patterns (blanked, so line numbers hold), each reported in `warnings`. */
function usablePatterns(text: string, file: string, warnings: string[]): string {
  if (text.length <= MAX_IGNORE_PATTERN_CHARS) return text;
  const lines = text.split('\n');
  let skipped = false;
  for (let i = 0; i < lines.length; i++) {
    const length = lines[i]!.length;
    if (length <= MAX_IGNORE_PATTERN_CHARS) continue;
    warnings.push(`${file}:${i + 1}: ignore pattern of ${length} characters skipped (the limit is ${MAX_IGNORE_PATTERN_CHARS})`);
    lines[i] = '';
    skipped = true;
  }
  return skipped ? lines.join('\n') : text;
}

/** A matcher of the level's patterns that compile, each one that does not reported in `warnings`. */
function compilablePatterns(level: IgnoreLevel, warnings: string[]): Ignore {
  const lines = level.text.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    try {
      // A negated pattern is only tried on paths an earlier one ignored: probe its body.
      ignore().add(line.replace(/^!/, '')).test('probe');
      kept.push(line);
    } catch (error) {
      // V8 quotes the whole expression ("Invalid regular expression: /…/: Regular expression too large"): keep the reason.
      const message = error instanceof Error ? error.message : String(error);
      const reason = message.slice(message.lastIndexOf(': ') + 2).slice(0, 80);
      warnings.push(`${level.file}:${i + 1}: ignore pattern skipped (${reason})`);
    }
  }
  return ignore().add(kept.join('\n'));
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
