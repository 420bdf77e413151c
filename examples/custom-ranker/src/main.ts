import { parseArgs } from 'node:util';
import { createEngine } from '@knowing/engine';
import type { RankedSymbol } from '@knowing/graph';
import { createDirectoryBoostRanker } from './directory-boost.js';
import { indexSample } from './project.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { directory: { type: 'string', default: 'shop/orders' }, boost: { type: 'string', default: '0.5' } },
});
const task = positionals.join(' ') || 'send an email to the customer';
const ranker = createDirectoryBoostRanker({ directory: values.directory!, boost: Number(values.boost) });

const { store, close } = await indexSample();
try {
  const byDefault = await createEngine({ store }).forTask(task);
  const boosted = await createEngine({ store, ranker }).forTask(task);
  const line = (s: RankedSymbol | undefined): string => (s ? `${s.score.toFixed(3)} ${s.node.qualifiedName}` : '');
  console.log(`task: ${task}\n`);
  console.log(`${'default ranker'.padEnd(70)}${ranker.name}`);
  for (let i = 0; i < 10; i++) console.log(`${String(i + 1).padStart(2)}. ${line(byDefault.ranked[i]).padEnd(66)}${line(boosted.ranked[i])}`);
} finally {
  await close();
}
