/**
 * Starts the knowing MCP server on stdio from the TypeScript sources, the way `knowing mcp`
 * does from the build. Arguments: repo root, database path, optional JSON of extra options.
 */
import { runStdioServer } from '../../src/index.js';

const [repoRoot, dbPath, extra] = process.argv.slice(2);
if (!repoRoot) {
  process.stderr.write('usage: server-entry <repoRoot> [dbPath] [optionsJson]\n');
  process.exit(2);
}
await runStdioServer({
  repoRoot,
  ...(dbPath ? { dbPath } : {}),
  // Parsing in the calling thread: worker threads need the built dist/.
  indexOptions: { workers: 0 },
  ...(extra ? (JSON.parse(extra) as object) : {}),
});
