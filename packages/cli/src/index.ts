export { run, COMMANDS, version } from './run.js';
export { ExitCode, CliError } from './errors.js';
export { defineConfig, loadConfig, validateConfig, CONFIG_FILE_NAMES } from './config.js';
export type { KnowingConfig, ConfigDefaults, LoadedConfig } from './config.js';
export type { CliIO, OutputStream } from './io.js';
export type { Command, CommandContext } from './command.js';
