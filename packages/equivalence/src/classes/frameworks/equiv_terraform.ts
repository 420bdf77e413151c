import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/**
 * Terraform core and its provider SDKs, in the vocabulary of their documentation: providers
 * and schemas, resource CRUD, plan and apply, state and backends, the dependency graph.
 */
export default builtinPlugin({
  framework: 'terraform',
  language: 'go',
  source: 'framework',
  classes: [
    concept('TF_PROVIDER', ['terraform provider', 'provider schema', 'provider configuration', 'configure provider', 'provider server'], [
      'Provider', 'ProviderServer', 'ConfigureProvider', 'GetProviderSchema', 'ProviderSchema', 'GRPCProvider',
    ]),
    concept('TF_RESOURCE_CRUD', ['resource create', 'resource read', 'resource update', 'resource delete', 'crud functions', 'create context'], [
      'CreateContext', 'ReadContext', 'UpdateContext', 'DeleteContext', 'ReadResource', 'ApplyResourceChange', 'PlanResourceChange',
    ]),
    concept('TF_SCHEMA', ['resource schema', 'schema attribute', 'computed attribute', 'force new', 'nested block', 'config schema'], [
      'Schema', 'Attribute', 'NestedBlock', 'ForceNew', 'ConfigSchema', 'CoreConfigSchema', 'ImpliedType',
    ]),
    concept('TF_PLAN', ['terraform plan', 'plan changes', 'planned state', 'plan graph', 'resource diff'], [
      'Plan', 'PlanGraphBuilder', 'NodePlannableResourceInstance', 'Changes', 'ResourceInstanceChange', 'PlanOpts',
    ]),
    concept('TF_APPLY', ['terraform apply', 'apply changes', 'apply graph', 'apply resource change'], [
      'ApplyGraphBuilder', 'NodeApplyableResourceInstance', 'Context.Apply', 'ApplyResourceChange', 'ApplyOpts',
    ]),
    concept('TF_STATE', ['terraform state', 'state file', 'state lock', 'remote state', 'state manager', 'state snapshot'], [
      'State', 'SyncState', 'ReadState', 'WriteState', 'LockInfo', 'Persister', 'Locker', 'Filesystem',
    ]),
    concept('TF_BACKENDS', ['state backend', 'remote backend', 'backend configuration', 's3 backend', 'backend init'], [
      'Backend', 'StateMgr', 'PrepareConfig', 'InitFn', 'BackendInit',
    ]),
    concept('TF_GRAPH', ['dependency graph', 'graph walk', 'graph transformer', 'graph builder', 'graph vertex'], [
      'Graph', 'AcyclicGraph', 'GraphTransformer', 'GraphBuilder', 'Vertex', 'Walker', 'ReferenceTransformer',
    ]),
    concept('TF_CONFIGURATION', ['hcl configuration', 'terraform configuration', 'module call', 'variable block', 'config loader', 'hcl parsing'], [
      'ModuleCall', 'Variable', 'LoadConfigDir', 'Module', 'Parser', 'BuildConfig',
    ]),
    concept('TF_EXPRESSIONS', ['built in function', 'expression evaluation', 'interpolation', 'eval context', 'cty value'], [
      'Evaluator', 'EvalContext', 'Scope', 'Functions', 'EvalExpr', 'EvalBlock',
    ]),
    concept('TF_PROVISIONERS', ['provisioner', 'local exec', 'remote exec', 'provisioner connection'], [
      'Provisioner', 'ProvisionResource', 'ValidateProvisionerConfig', 'GetSchemaResponse',
    ]),
    concept('TF_DATA_SOURCES', ['data source', 'read data source', 'data resource'], [
      'DataSource', 'ReadDataSource', 'ReadDataSourceRequest', 'DataSourcesMap',
    ]),
    concept('TF_IMPORT', ['import resource', 'terraform import', 'import state', 'resource importer'], [
      'Importer', 'ImportResourceState', 'ImportState', 'ImportStatePassthroughContext',
    ]),
    concept('TF_WORKSPACES', ['terraform workspace', 'workspace select', 'workspace delete', 'init command'], [
      'Workspaces', 'WorkspaceCommand', 'InitCommand', 'DeleteWorkspace', 'WorkspaceSelectCommand',
    ]),
    concept('TF_DEPENDENCY_LOCKS', ['dependency lock file', 'provider installer', 'version constraints', 'required providers'], [
      'Locks', 'ProviderLock', 'Installer', 'EnsureProviderVersions', 'RequiredProviders', 'VersionConstraints',
    ]),
  ],
});
