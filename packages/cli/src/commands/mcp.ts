import type { StdioServerOptions } from '@knowing/mcp';
import { createEngine } from '@knowing/engine';
import type { CreateEngineOptions } from '@knowing/engine';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { CommandContext } from '../command.js';
import { CliError, ExitCode, configError, toFailure } from '../errors.js';
import { loadRanker } from '../config.js';
import { ignoreIndexDirectory } from '../repo.js';
import { locate } from '../session.js';

type RunStdioServer = (options: StdioServerOptions) => Promise<void>;

async function loadServer(): Promise<RunStdioServer> {
  let module: Record<string, unknown>;
  try {
    module = (await import('@knowing/mcp')) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(
      ExitCode.Failure,
      'MCP_UNAVAILABLE',
      `the MCP server package @knowing/mcp cannot be loaded (${(error as Error).message ?? String(error)})`,
      'reinstall knowing; in the knowing repository, build it with `pnpm --filter @knowing/mcp build`',
      { cause: error },
    );
  }
  const run = module['runStdioServer'];
  if (typeof run !== 'function') {
    throw new CliError(ExitCode.Failure, 'MCP_UNAVAILABLE', '@knowing/mcp does not export runStdioServer', 'install matching versions of knowing and @knowing/mcp');
  }
  return run as RunStdioServer;
}

const MCP_FORMATS = new Set(['gcf', 'xml', 'markdown', 'json', 'gcb']);

export async function runMcp(ctx: CommandContext): Promise<ExitCode> {
  const location = await locate(ctx);
  const runStdioServer = await loadServer();
  const { loaded } = location;
  const ranker = await loadRanker(loaded);
  // The server builds its own engine, so plugins are resolved here, on a scratch engine over
  // the same store, and handed over as the full class list (built-ins included).
  const store = await createSqliteStore({ path: location.dbPath });
  // As `knowing index` does: keep the default index directory out of git, so that it never
  // shows up as a change (context_for_pr also leaves the index's files out on its own).
  ignoreIndexDirectory(location.root, location.dbPath);
  try {
    let classes: CreateEngineOptions['classes'];
    if (loaded.config.plugins?.length) {
      const scratch = createEngine({ store });
      for (const [i, plugin] of loaded.config.plugins.entries()) {
        try {
          await scratch.classes.loadFromPackage(plugin, { from: loaded.directory });
        } catch (error) {
          const failure = toFailure(error);
          throw configError(loaded.file ?? 'config', `"plugins[${i}]" (${plugin}): ${failure.message}`, failure.hint, error);
        }
      }
      classes = scratch.classes.list();
    }
    const defaults = loaded.config.defaults ?? {};
    const format = defaults.format?.trim().toLowerCase();
    await runStdioServer({
      repoRoot: location.root,
      dbPath: location.dbPath,
      store,
      ...(loaded.config.engine ? { engineOptions: loaded.config.engine } : {}),
      engine: { ...(ranker ? { ranker } : {}), ...(classes ? { classes } : {}) },
      indexOptions: {
        ...(defaults.languages ? { languages: defaults.languages } : {}),
        ...(defaults.workers !== undefined ? { workers: defaults.workers } : {}),
      },
      ...(format && MCP_FORMATS.has(format) ? { defaultFormat: format as StdioServerOptions['defaultFormat'] & string } : {}),
      log: (message: string) => {
        if (!ctx.out.quiet) ctx.io.stderr.write(`${message.startsWith('knowing') ? message : `knowing: ${message}`}\n`);
      },
    });
  } finally {
    await store.close().catch(() => {});
  }
  return ExitCode.Ok;
}
