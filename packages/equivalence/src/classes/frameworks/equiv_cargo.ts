import { defineEquivalenceClasses } from '../../define.js';

/**
 * Cargo-style Rust command-line tools: argument parsing with clap or structopt, subcommands,
 * manifests, workspaces, lock files and dependency resolution, build units, shell output.
 */
export default defineEquivalenceClasses({
  framework: 'cargo',
  language: 'rust',
  source: 'framework',
  classes: [
    {
      concept: 'RSCLI_ARGS',
      phrases: ['command line arguments', 'clap args', 'cli args', 'derive parser', 'argument parsing', 'structopt'],
      targets: ['Parser', 'Args', 'ArgMatches', 'StructOpt', 'get_matches', 'get_one', 'value_of', 'ArgAction'],
    },
    {
      concept: 'RSCLI_SUBCOMMANDS',
      phrases: ['subcommand', 'sub command', 'command dispatch', 'external subcommand', 'builtin command'],
      targets: ['Subcommand', 'subcommand', 'Commands', 'builtin', 'execute_subcommand', 'execute_external_subcommand', 'cli_main'],
    },
    {
      concept: 'RSCLI_MANIFEST',
      phrases: ['cargo manifest', 'cargo toml', 'manifest parsing', 'package manifest', 'toml manifest'],
      targets: ['Manifest', 'TomlManifest', 'read_manifest', 'TomlProfile', 'ManifestError', 'to_real_manifest'],
    },
    {
      concept: 'RSCLI_WORKSPACE',
      phrases: ['cargo workspace', 'workspace members', 'workspace root', 'virtual manifest', 'workspace inheritance'],
      targets: ['Workspace', 'WorkspaceConfig', 'find_root', 'VirtualManifest', 'root_manifest', 'WorkspaceRootConfig'],
    },
    {
      concept: 'RSCLI_LOCKFILE',
      phrases: ['lock file', 'lockfile', 'cargo lock', 'resolve graph', 'dependency resolution', 'resolver'],
      targets: ['Resolve', 'resolve_ws', 'write_pkg_lockfile', 'load_pkg_lockfile', 'EncodableResolve', 'resolve_with_previous'],
    },
    {
      concept: 'RSCLI_DEPENDENCIES',
      phrases: ['dependency spec', 'version requirement', 'registry source', 'git dependency', 'path dependency', 'crate features'],
      targets: ['Dependency', 'VersionReq', 'SourceId', 'Summary', 'FeatureValue', 'PackageId', 'Registry'],
    },
    {
      concept: 'RSCLI_BUILD',
      phrases: ['build script', 'compile unit', 'build context', 'compilation job', 'target directory', 'build plan'],
      targets: ['BuildContext', 'Compilation', 'BuildRunner', 'Layout', 'JobQueue', 'BuildConfig', 'UnitGraph'],
    },
    {
      concept: 'RSCLI_CONFIG',
      phrases: ['cargo config', 'config value', 'global context', 'config file', 'environment config'],
      targets: ['GlobalContext', 'ConfigValue', 'ConfigRelativePath', 'get_string', 'CargoConfig'],
    },
    {
      concept: 'RSCLI_OUTPUT',
      phrases: ['terminal output', 'shell output', 'progress bar', 'colored output', 'status message', 'verbosity'],
      targets: ['Shell', 'Progress', 'ProgressBar', 'ColorChoice', 'Verbosity', 'status', 'warn'],
    },
    {
      concept: 'RSCLI_ERRORS',
      phrases: ['cli error', 'exit code', 'error context', 'user facing error', 'anyhow error'],
      targets: ['CliError', 'CliResult', 'exit_with_error', 'ExitCode', 'display_error', 'with_context'],
    },
    {
      concept: 'RSCLI_FILE_WALK',
      phrases: ['directory walk', 'gitignore rules', 'ignore files', 'walk directory', 'glob pattern', 'hidden files'],
      targets: ['WalkBuilder', 'WalkDir', 'Gitignore', 'GitignoreBuilder', 'GlobSet', 'GlobSetBuilder', 'Override'],
    },
  ],
});
