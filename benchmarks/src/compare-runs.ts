/**
 * Which answers differ between two runs of the retrieval benchmark (their `--out` files): per
 * system present in both, the tasks whose returned top 10 is not the same list.
 *
 *   pnpm bench:compare <a.json> <b.json>
 *
 * For checking that a change which should move nothing (a refactor, a re-index) moves nothing.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface Run {
  readonly system: string;
  readonly tasks: readonly { readonly id: string; readonly returned: readonly string[] }[];
  readonly systems: Readonly<Record<string, { readonly tasks?: Run['tasks'] }>>;
}

const files = process.argv.slice(2);
if (files.length !== 2) {
  process.stderr.write('usage: pnpm bench:compare <a.json> <b.json>\n');
  process.exit(2);
}
const [a, b] = files.map((f) => JSON.parse(readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), f), 'utf8')) as Run);
/** A system's tasks: the first system's are the report's top-level `tasks`. */
const tasksOf = (run: Run, system: string) => (run.system === system ? run.tasks : run.systems[system]?.tasks);
for (const system of Object.keys(a!.systems)) {
  const left = tasksOf(a!, system);
  const right = new Map((tasksOf(b!, system) ?? []).map((t) => [t.id, t.returned]));
  if (!left || right.size === 0) continue;
  const differ = left.filter((t) => right.has(t.id) && JSON.stringify(t.returned) !== JSON.stringify(right.get(t.id)));
  const shared = left.filter((t) => right.has(t.id)).length;
  process.stdout.write(`${system.padEnd(8)} ${differ.length} of ${shared} tasks answer differently${differ.length ? `: ${differ.slice(0, 10).map((t) => t.id).join(', ')}${differ.length > 10 ? ', …' : ''}` : ''}\n`);
}
