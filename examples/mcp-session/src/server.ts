/**
 * The server side: what `knowing mcp` runs, here started from the workspace sources.
 * Arguments: repository root, database path.
 */
import { runStdioServer } from '@knowing/mcp';

const [repoRoot, dbPath] = process.argv.slice(2);
if (!repoRoot || !dbPath) {
  process.stderr.write('usage: server.ts <repoRoot> <dbPath>\n');
  process.exit(2);
}
// Parse in the calling thread: worker threads need the built dist/ of the indexer.
await runStdioServer({ repoRoot, dbPath, indexOptions: { workers: 0 } });
