import { createEngine } from '@knowing/engine';
import type { PipelineTrace } from '@knowing/engine';
import type { EquivalencePlugin } from '@knowing/equivalence';
import type { GraphStore, RankedSymbol } from '@knowing/graph';

/** What one engine made of a task: the classes it matched, its seeds, forced symbols and ranking. */
export interface TaskView {
  readonly matchedClasses: PipelineTrace['matchedClasses'];
  /** Seeds as symbol paths (`Context.Set`), in seed order. */
  readonly seeds: readonly string[];
  readonly forced: readonly string[];
  readonly ranked: readonly RankedSymbol[];
}

/** `gin/context.go.Context.Set` → `Context.Set`: the part after the file. */
export function symbolPath(node: { readonly qualifiedName: string; readonly file: string }): string {
  return node.qualifiedName.startsWith(`${node.file}.`) ? node.qualifiedName.slice(node.file.length + 1) : node.qualifiedName;
}

/** Run a task with a trace on an engine that has `plugins` registered on top of the built-in vocabulary. */
export async function viewTask(store: GraphStore, task: string, plugins: readonly EquivalencePlugin[] = []): Promise<TaskView> {
  const engine = createEngine({ store });
  for (const plugin of plugins) engine.classes.register(plugin);
  const { trace, ranked } = await engine.forTask(task, { trace: true });
  return {
    matchedClasses: trace!.matchedClasses,
    seeds: trace!.seeds.map((s) => symbolPath(s.node)),
    forced: trace!.forced.map(symbolPath),
    ranked,
  };
}
