/**
 * Mine natural-language tasks from a repository's git history into benchmarks/history.
 *
 *   pnpm bench:mine --mirror github:pallets/flask --repo flask --language python --split tuning [--cap 40] [--window 3000]
 *   pnpm bench:mine --git-dir path/to/repo/.git --repo mine --language go --split heldout --out my-history
 *
 * Writes <out>/<repo>/<short-hash>.yaml per task and updates <out>/MANIFEST.yaml.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_MIRRORS_DIR, DEFAULT_MINE_OPTIONS, mineRepository, resolveMirror, writeHistoryManifestEntry, writeHistoryTasks } from './index.js';

const here = dirname(fileURLToPath(import.meta.url));
const LANGUAGES = ['go', 'python', 'typescript', 'javascript', 'rust', 'java', 'csharp', 'ruby'];

const USAGE =
  'usage: mine (--mirror github:owner/name [--mirrors dir] | --git-dir dir) --repo name --language id [--split tuning|heldout] [--cap 40] [--window 3000] [--out dir]\n' +
  `  language: one of ${LANGUAGES.join(', ')}; tasks go to <out>/<repo>/*.yaml and <out>/MANIFEST.yaml\n`;

function parse() {
  try {
    return parseArgs({
      options: {
        help: { type: 'boolean', short: 'h', default: false },
        mirror: { type: 'string' },
        mirrors: { type: 'string', default: DEFAULT_MIRRORS_DIR },
        'git-dir': { type: 'string' },
        repo: { type: 'string' },
        language: { type: 'string' },
        split: { type: 'string', default: 'tuning' },
        cap: { type: 'string', default: String(DEFAULT_MINE_OPTIONS.cap) },
        window: { type: 'string', default: String(DEFAULT_MINE_OPTIONS.window) },
        ref: { type: 'string', default: DEFAULT_MINE_OPTIONS.ref },
        out: { type: 'string', default: resolve(here, '../../history') },
        verbose: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    // A mistyped flag is the caller's mistake: the usage, not a stack trace.
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const { values } = parse();

const usage = USAGE;
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
if ((!values.mirror && !values['git-dir']) || !values.language || !LANGUAGES.includes(values.language) || (values.split !== 'tuning' && values.split !== 'heldout')) {
  process.stderr.write(usage);
  process.exit(2);
}
const invokedFrom = process.env.INIT_CWD ?? process.cwd();
const gitDir = values['git-dir'] ? resolve(invokedFrom, values['git-dir']) : resolveMirror(values.mirror!, resolve(invokedFrom, values.mirrors!));
const mirror = values.mirror ? (values.mirror.startsWith('github:') ? values.mirror : `github:${values.mirror}`) : gitDir;
const repo = values.repo ?? mirror.replace(/^.*[/+]/, '').replace(/\.git$/, '').toLowerCase();
const out = resolve(invokedFrom, values.out!);
const cap = Number(values.cap);
const window = Number(values.window);

const started = performance.now();
const result = await mineRepository({
  gitDir,
  repo,
  language: values.language,
  cap,
  window,
  ref: values.ref!,
  onCommit: (commit, verdict, tasks) => {
    if (values.verbose || verdict === 'task') process.stderr.write(`${commit.hash.slice(0, 10)} ${verdict.padEnd(40)} ${tasks}\n`);
  },
});
writeHistoryTasks(out, repo, result.tasks);
writeHistoryManifestEntry(out, { name: repo, mirror, language: values.language, split: values.split, tasks: result.tasks.length, head: result.head, window, cap });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`${repo} (${values.language}, ${values.split}): ${result.tasks.length} tasks from ${result.examined} commits of ${result.head.slice(0, 10)}'s newest ${window} in ${seconds} s\n`);
const reasons = Object.entries(result.skipped).sort((a, b) => b[1] - a[1]);
for (const [reason, count] of reasons) process.stdout.write(`  skipped ${String(count).padStart(5)}  ${reason}\n`);
process.stdout.write(`wrote ${out}/${repo}/ and ${out}/MANIFEST.yaml\n`);
