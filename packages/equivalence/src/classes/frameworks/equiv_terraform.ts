import { defineEquivalenceClasses } from '../../define.js';

/**
 * Terraform core and its provider SDKs, in the vocabulary of their documentation: providers
 * and schemas, resource CRUD, plan and apply, state and backends, the dependency graph.
 */
export default defineEquivalenceClasses({
  framework: 'terraform',
  language: 'go',
  source: 'framework',
  classes: [
    {
      concept: 'TF_PROVIDER',
      phrases: ['terraform provider', 'provider schema', 'provider configuration', 'configure provider', 'provider server'],
      targets: ['Provider', 'ProviderServer', 'ConfigureProvider', 'GetProviderSchema', 'ProviderSchema', 'GRPCProvider'],
    },
    {
      concept: 'TF_RESOURCE_CRUD',
      phrases: ['resource create', 'resource read', 'resource update', 'resource delete', 'crud functions', 'create context'],
      targets: ['CreateContext', 'ReadContext', 'UpdateContext', 'DeleteContext', 'ReadResource', 'ApplyResourceChange', 'PlanResourceChange'],
    },
    {
      concept: 'TF_SCHEMA',
      phrases: ['resource schema', 'schema attribute', 'computed attribute', 'force new', 'nested block', 'config schema'],
      targets: ['Schema', 'Attribute', 'NestedBlock', 'ForceNew', 'ConfigSchema', 'CoreConfigSchema', 'ImpliedType'],
    },
    {
      concept: 'TF_PLAN',
      phrases: ['terraform plan', 'plan changes', 'planned state', 'plan graph', 'resource diff'],
      targets: ['Plan', 'PlanGraphBuilder', 'NodePlannableResourceInstance', 'Changes', 'ResourceInstanceChange', 'PlanOpts'],
    },
    {
      concept: 'TF_APPLY',
      phrases: ['terraform apply', 'apply changes', 'apply graph', 'apply resource change'],
      targets: ['ApplyGraphBuilder', 'NodeApplyableResourceInstance', 'Context.Apply', 'ApplyResourceChange', 'ApplyOpts'],
    },
    {
      concept: 'TF_STATE',
      phrases: ['terraform state', 'state file', 'state lock', 'remote state', 'state manager', 'state snapshot'],
      targets: ['State', 'SyncState', 'ReadState', 'WriteState', 'LockInfo', 'Persister', 'Locker', 'Filesystem'],
    },
    {
      concept: 'TF_BACKENDS',
      phrases: ['state backend', 'remote backend', 'backend configuration', 's3 backend', 'backend init'],
      targets: ['Backend', 'StateMgr', 'PrepareConfig', 'InitFn', 'BackendInit'],
    },
    {
      concept: 'TF_GRAPH',
      phrases: ['dependency graph', 'graph walk', 'graph transformer', 'graph builder', 'graph vertex'],
      targets: ['Graph', 'AcyclicGraph', 'GraphTransformer', 'GraphBuilder', 'Vertex', 'Walker', 'ReferenceTransformer'],
    },
    {
      concept: 'TF_CONFIGURATION',
      phrases: ['hcl configuration', 'terraform configuration', 'module call', 'variable block', 'config loader', 'hcl parsing'],
      targets: ['ModuleCall', 'Variable', 'LoadConfigDir', 'Module', 'Parser', 'BuildConfig'],
    },
    {
      concept: 'TF_EXPRESSIONS',
      phrases: ['built in function', 'expression evaluation', 'interpolation', 'eval context', 'cty value'],
      targets: ['Evaluator', 'EvalContext', 'Scope', 'Functions', 'EvalExpr', 'EvalBlock'],
    },
    {
      concept: 'TF_PROVISIONERS',
      phrases: ['provisioner', 'local exec', 'remote exec', 'provisioner connection'],
      targets: ['Provisioner', 'ProvisionResource', 'ValidateProvisionerConfig', 'GetSchemaResponse'],
    },
    {
      concept: 'TF_DATA_SOURCES',
      phrases: ['data source', 'read data source', 'data resource'],
      targets: ['DataSource', 'ReadDataSource', 'ReadDataSourceRequest', 'DataSourcesMap'],
    },
    {
      concept: 'TF_IMPORT',
      phrases: ['import resource', 'terraform import', 'import state', 'resource importer'],
      targets: ['Importer', 'ImportResourceState', 'ImportState', 'ImportStatePassthroughContext'],
    },
    {
      concept: 'TF_WORKSPACES',
      phrases: ['terraform workspace', 'workspace select', 'workspace delete', 'init command'],
      targets: ['Workspaces', 'WorkspaceCommand', 'InitCommand', 'DeleteWorkspace', 'WorkspaceSelectCommand'],
    },
    {
      concept: 'TF_DEPENDENCY_LOCKS',
      phrases: ['dependency lock file', 'provider installer', 'version constraints', 'required providers'],
      targets: ['Locks', 'ProviderLock', 'Installer', 'EnsureProviderVersions', 'RequiredProviders', 'VersionConstraints'],
    },
  ],
});
