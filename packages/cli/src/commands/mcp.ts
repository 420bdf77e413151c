import type { StdioServerOptions } from '@knowing/mcp';
import { createEngine } from '@knowing/engine';
import type { CreateEngineOptions } from '@knowing/engine';
import type { GraphStore } from '@knowing/graph';
import type { CommandContext } from '../command.js';
import { CliError, ExitCode, configError, toFailure } from '../errors.js';
import { loadRanker } from '../config.js';
import type { LoadedConfig } from '../config.js';
import { locate, openIndex, openWritableIndex } from '../session.js';

type RunStdioServer = (options: StdioServerOptions) => Promise<void>;

/** @knowing/mcp, loaded on first need (the commands that do not serve never load it). */
export async function importMcp(): Promise<typeof import('@knowing/mcp')> {
  try {
    return await import('@knowing/mcp');
  } catch (error) {
    throw new CliError(
      ExitCode.Failure,
      'MCP_UNAVAILABLE',
      `the MCP server package @knowing/mcp cannot be loaded (${(error as Error).message ?? String(error)})`,
      'reinstall knowing; in the knowing repository, build it with `pnpm --filter @knowing/mcp build`',
      { cause: error },
    );
  }
}

async function loadServer(): Promise<RunStdioServer> {
  const module = (await importMcp()) as Record<string, unknown>;
  const run = module['runStdioServer'];
  if (typeof run !== 'function') {
    throw new CliError(ExitCode.Failure, 'MCP_UNAVAILABLE', '@knowing/mcp does not export runStdioServer', 'install matching versions of knowing and @knowing/mcp');
  }
  return run as RunStdioServer;
}

const MCP_FORMATS = new Set(['gcf', 'xml', 'markdown', 'json', 'gcb']);

/** The server options a repository's config gives (ranker, plugins, engine options, index defaults, format). */
export type ConfiguredServerOptions = Pick<StdioServerOptions, 'engineOptions' | 'engine' | 'indexOptions' | 'defaultFormat'>;

/**
 * What the config of a repository asks of its MCP server. The server builds its own engine, so
 * plugins are resolved here, on a scratch engine over the same store, and handed over as the
 * full class list (built-ins included).
 */
export async function configuredServerOptions(loaded: LoadedConfig, store: GraphStore): Promise<ConfiguredServerOptions> {
  const ranker = await loadRanker(loaded);
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
  return {
    ...(loaded.config.engine ? { engineOptions: loaded.config.engine } : {}),
    engine: { ...(ranker ? { ranker } : {}), ...(classes ? { classes } : {}) },
    indexOptions: {
      ...(defaults.languages ? { languages: defaults.languages } : {}),
      ...(defaults.workers !== undefined ? { workers: defaults.workers } : {}),
    },
    ...(format && MCP_FORMATS.has(format) ? { defaultFormat: format as StdioServerOptions['defaultFormat'] & string } : {}),
  };
}

export async function runMcp(ctx: CommandContext): Promise<ExitCode> {
  const location = await locate(ctx);
  const runStdioServer = await loadServer();
  // With --store (PostgreSQL), the server answers from the shared index as it is, read-only: a
  // working tree's edits never go into the team's database (`knowing index --store` writes it).
  const shared = location.postgres ? await openIndex(ctx) : undefined;
  // As `knowing index` does: keep the default index directory out of git, so that it never
  // shows up as a change (context_for_pr also leaves the index's files out on its own).
  const store: GraphStore = shared?.store ?? (await openWritableIndex(location, ctx.cwd)).store;
  try {
    await runStdioServer({
      repoRoot: shared?.root ?? location.root,
      // The server's index runs open the file again in a worker thread, so that it answers meanwhile.
      ...(shared ? { indexing: false } : { dbPath: location.dbPath, storeLocator: { kind: 'sqlite', path: location.dbPath } }),
      store,
      ...(await configuredServerOptions(location.loaded, store)),
      log: (message: string) => {
        if (!ctx.out.quiet) ctx.io.stderr.write(`${message.startsWith('knowing') ? message : `knowing: ${message}`}\n`);
      },
    });
  } finally {
    await store.close().catch(() => {});
  }
  return ExitCode.Ok;
}
