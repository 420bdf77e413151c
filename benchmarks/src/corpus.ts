import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** One benchmark task (`tasks/<repo>/<tier>/*.yaml`). */
export interface BenchTask {
  readonly id: string;
  readonly repo: string;
  readonly tier: string;
  readonly description: string;
  readonly groundTruth: readonly string[];
  readonly file: string;
}

export interface ManifestRepo {
  readonly name: string;
  readonly url: string;
  readonly commit: string;
  readonly language: string;
}

export function readManifest(benchDir: string): ManifestRepo[] {
  const manifest = parse(readFileSync(join(benchDir, 'MANIFEST.yaml'), 'utf8')) as { repos?: Record<string, unknown>[] };
  return (manifest.repos ?? [])
    .filter((r) => typeof r.name === 'string' && typeof r.commit === 'string')
    .map((r) => ({ name: String(r.name), url: String(r.url ?? ''), commit: String(r.commit), language: String(r.language ?? '') }));
}

function walkYaml(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walkYaml(path, out);
    else if (entry.endsWith('.yaml') || entry.endsWith('.yml')) out.push(path);
  }
}

/** Every task of the corpus, grouped by the repository it targets (its `repo` field). */
export function readTasks(benchDir: string): Map<string, BenchTask[]> {
  const files: string[] = [];
  const tasksDir = join(benchDir, 'tasks');
  if (existsSync(tasksDir)) walkYaml(tasksDir, files);
  const byRepo = new Map<string, BenchTask[]>();
  for (const file of files) {
    const data = parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
    if (!data || typeof data.description !== 'string' || !Array.isArray(data.ground_truth)) continue;
    const task: BenchTask = {
      id: String(data.id ?? file),
      repo: String(data.repo ?? ''),
      tier: String(data.tier ?? 'unknown'),
      description: data.description,
      groundTruth: data.ground_truth.map(String),
      file,
    };
    const list = byRepo.get(task.repo) ?? [];
    list.push(task);
    byRepo.set(task.repo, list);
  }
  return byRepo;
}
