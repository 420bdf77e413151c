export { run, version } from './run.js';
export { COMMANDS } from './commands.js';
export { ExitCode, CliError } from './errors.js';
export { defineConfig, loadConfig, CONFIG_FILE_NAMES } from './config.js';
export { validateConfig } from './validate-config.js';
export type { KnowingConfig, ConfigDefaults, LoadedConfig } from './config.js';
export type { CliIO, OutputStream } from './io.js';
export type { Command, CommandContext } from './command.js';
