import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/**
 * Cargo-style Rust command-line tools: argument parsing with clap or structopt, subcommands,
 * manifests, workspaces, lock files and dependency resolution, build units, shell output.
 */
export default builtinPlugin({
  framework: 'cargo',
  language: 'rust',
  source: 'framework',
  classes: [
    concept('RSCLI_ARGS', ['command line arguments', 'clap args', 'cli args', 'derive parser', 'argument parsing', 'structopt'], [
      'Parser', 'Args', 'ArgMatches', 'StructOpt', 'get_matches', 'get_one', 'value_of', 'ArgAction',
    ]),
    concept('RSCLI_SUBCOMMANDS', ['subcommand', 'sub command', 'command dispatch', 'external subcommand', 'builtin command'], [
      'Subcommand', 'subcommand', 'Commands', 'builtin', 'execute_subcommand', 'execute_external_subcommand', 'cli_main',
    ]),
    concept('RSCLI_MANIFEST', ['cargo manifest', 'cargo toml', 'manifest parsing', 'package manifest', 'toml manifest'], [
      'Manifest', 'TomlManifest', 'read_manifest', 'TomlProfile', 'ManifestError', 'to_real_manifest',
    ]),
    concept('RSCLI_WORKSPACE', ['cargo workspace', 'workspace members', 'workspace root', 'virtual manifest', 'workspace inheritance'], [
      'Workspace', 'WorkspaceConfig', 'find_root', 'VirtualManifest', 'root_manifest', 'WorkspaceRootConfig',
    ]),
    concept('RSCLI_LOCKFILE', ['lock file', 'lockfile', 'cargo lock', 'resolve graph', 'dependency resolution', 'resolver'], [
      'Resolve', 'resolve_ws', 'write_pkg_lockfile', 'load_pkg_lockfile', 'EncodableResolve', 'resolve_with_previous',
    ]),
    concept('RSCLI_DEPENDENCIES', ['dependency spec', 'version requirement', 'registry source', 'git dependency', 'path dependency', 'crate features'], [
      'Dependency', 'VersionReq', 'SourceId', 'Summary', 'FeatureValue', 'PackageId', 'Registry',
    ]),
    concept('RSCLI_BUILD', ['build script', 'compile unit', 'build context', 'compilation job', 'target directory', 'build plan'], [
      'BuildContext', 'Compilation', 'BuildRunner', 'Layout', 'JobQueue', 'BuildConfig', 'UnitGraph',
    ]),
    concept('RSCLI_CONFIG', ['cargo config', 'config value', 'global context', 'config file', 'environment config'], [
      'GlobalContext', 'ConfigValue', 'ConfigRelativePath', 'get_string', 'CargoConfig',
    ]),
    concept('RSCLI_OUTPUT', ['terminal output', 'shell output', 'progress bar', 'colored output', 'status message', 'verbosity'], [
      'Shell', 'Progress', 'ProgressBar', 'ColorChoice', 'Verbosity', 'status', 'warn',
    ]),
    concept('RSCLI_ERRORS', ['cli error', 'exit code', 'error context', 'user facing error', 'anyhow error'], [
      'CliError', 'CliResult', 'exit_with_error', 'ExitCode', 'display_error', 'with_context',
    ]),
    concept('RSCLI_FILE_WALK', ['directory walk', 'gitignore rules', 'ignore files', 'walk directory', 'glob pattern', 'hidden files'], [
      'WalkBuilder', 'WalkDir', 'Gitignore', 'GitignoreBuilder', 'GlobSet', 'GlobSetBuilder', 'Override',
    ]),
  ],
});
