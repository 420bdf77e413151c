import { viewTask, symbolPath } from './compare.js';
import gin from './equiv_gin.js';
import { indexSample } from './project.js';

const task = process.argv.slice(2).join(' ') || 'share request scoped values between middleware';
const { store, close } = await indexSample();
try {
  const without = await viewTask(store, task);
  const withGin = await viewTask(store, task, [gin]);
  const classes = (v: typeof without): string => v.matchedClasses.map((m) => `${m.concept}${m.strong ? ' (strong)' : ''}`).join(', ') || '—';
  console.log(`task: ${task}\n`);
  console.log(`matched classes without the plugin: ${classes(without)}`);
  console.log(`matched classes with equiv_gin:     ${classes(withGin)}\n`);
  console.log(`seeds only with the plugin:    ${withGin.seeds.filter((s) => !without.seeds.includes(s)).join(', ') || '—'}`);
  console.log(`seeds only without the plugin: ${without.seeds.filter((s) => !withGin.seeds.includes(s)).join(', ') || '—'}`);
  console.log(`forced to the top by the plugin: ${withGin.forced.join(', ') || '—'}\n`);
  console.log(`${'top 8 without'.padEnd(40)}top 8 with equiv_gin`);
  for (let i = 0; i < 8; i++) {
    const a = without.ranked[i];
    const b = withGin.ranked[i];
    console.log(`${String(i + 1).padStart(2)}. ${(a ? symbolPath(a.node) : '').padEnd(36)}${b ? symbolPath(b.node) : ''}`);
  }
} finally {
  await close();
}
