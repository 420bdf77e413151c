import { parseArgs } from 'node:util';
import { formatPack } from '@knowing/wire';
import { createRegistry, openSample } from './project.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { budget: { type: 'string', default: '60' } } });
const task = positionals.join(' ') || 'store a long url and return its short code';
const budget = Number(values.budget);

const registry = createRegistry();
const { engine, close } = await openSample(registry);
try {
  const { pack } = await engine.forTask(task, { format: 'lines', budget });
  process.stdout.write(formatPack(pack, { format: 'lines', registry, task }) as string);
  const xml = await engine.forTask(task, { format: 'xml', budget });
  console.error(`\n${budget} tokens hold ${pack.symbols.length} symbols as lines, ${xml.pack.symbols.length} as xml`);
} finally {
  await close();
}
