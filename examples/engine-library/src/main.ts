import { parseArgs } from 'node:util';
import { formatPack } from '@knowing/wire';
import { openProject } from './project.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    root: { type: 'string' },
    db: { type: 'string' },
    budget: { type: 'string', default: '120' },
    format: { type: 'string', default: 'gcf' },
  },
});
const task = positionals.join(' ') || 'apply a discount code to an invoice and reject expired codes';
const budget = Number(values.budget);
const format = values.format!;

const project = await openProject({
  ...(values.root ? { root: values.root, repoId: values.root } : {}),
  ...(values.db ? { dbPath: values.db } : {}),
});
try {
  const { summary, engine } = project;
  console.log(`indexed ${summary.root}: ${summary.files.discovered} files (${summary.files.parsed} parsed), ${summary.nodes} nodes, ${summary.edges} edges in ${Math.round(summary.timings.totalMs)} ms`);
  console.log(`task: ${task}\n`);

  const { pack, ranked } = await engine.forTask(task, { budget, format });
  console.log(`${pack.symbols.length} of ${ranked.length} ranked symbols fit in ${pack.tokenBudget} ${format} tokens (${pack.tokensUsed} used):`);
  for (const [i, s] of pack.symbols.entries()) {
    console.log(`${String(i + 1).padStart(3)}. ${s.score.toFixed(3)}  ${s.node.kind.padEnd(11)} ${s.node.qualifiedName}  (${s.node.file}:${s.node.startLine})`);
  }

  // What an agent would receive: the same pack in the chosen wire format.
  const output = formatPack(pack, { format, task, tool: 'engine-library' });
  console.log(`\n--- ${format} ---`);
  console.log(typeof output === 'string' ? output : `<${output.byteLength} bytes of ${format}>`);
} finally {
  await project.close();
}
