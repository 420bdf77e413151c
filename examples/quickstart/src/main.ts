import { quickstart } from './quickstart.js';

const query = process.argv[2] ?? 'before_request OR cart';
const { hits, snapshot, callersOfLoadSession } = await quickstart(query);

console.log(`snapshot ${snapshot.id.slice(0, 12)}… (generation ${snapshot.generation}): ${snapshot.nodeCount} nodes, ${snapshot.edgeCount} edges`);
console.log(`BM25 search for ${JSON.stringify(query)}:`);
for (const { node, score } of hits) {
  console.log(`  ${score.toFixed(3).padStart(7)}  ${node.kind.padEnd(8)} ${node.qualifiedName}  (${node.file}:${node.startLine})`);
}
console.log(`callers of load_session: ${callersOfLoadSession.join(', ')}`);
