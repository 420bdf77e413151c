import { languagePlugin } from './define.js';

/** C# / .NET idioms: hosting and startup, the service collection, options, LINQ, `IDisposable`. */
export const CSHARP_PLUGIN = languagePlugin('csharp', 'csharp', [
  {
    concept: 'CS_STARTUP',
    phrases: ['startup', 'program entry', 'configure services', 'host builder', 'application startup', 'minimal api'],
    targets: ['Startup', 'Program', 'Program.Main', 'ConfigureServices', 'Configure', 'CreateHostBuilder', 'WebApplication', 'CreateBuilder'],
  },
  {
    concept: 'CS_DEPENDENCY_INJECTION',
    phrases: ['dependency injection', 'service collection', 'register service', 'scoped service', 'singleton service', 'service lifetime'],
    targets: ['IServiceCollection', 'ServiceCollection', 'AddSingleton', 'AddScoped', 'AddTransient', 'IServiceProvider', 'GetService', 'GetRequiredService'],
  },
  {
    concept: 'CS_CONFIGURATION',
    phrases: ['appsettings', 'configuration binding', 'options pattern', 'configuration section'],
    targets: ['IConfiguration', 'IOptions', 'IOptionsMonitor', 'GetSection', 'ConfigurationBuilder', 'Bind'],
  },
  {
    concept: 'CS_ASYNC',
    phrases: ['async task', 'await', 'cancellation token', 'task completion', 'configure await'],
    targets: ['Task', 'ValueTask', 'CancellationToken', 'ConfigureAwait', 'WhenAll', 'TaskCompletionSource'],
  },
  {
    concept: 'CS_LINQ',
    phrases: ['linq', 'query expression', 'enumerable', 'queryable', 'where select'],
    targets: ['IEnumerable', 'IQueryable', 'Enumerable', 'Where', 'Select', 'ToList', 'FirstOrDefault'],
  },
  {
    concept: 'CS_DISPOSE',
    phrases: ['dispose', 'using statement', 'resource cleanup', 'finalizer', 'disposable'],
    targets: ['Dispose', 'IDisposable', 'DisposeAsync', 'IAsyncDisposable', 'Finalize'],
  },
  {
    concept: 'CS_EVENTS',
    phrases: ['event handler', 'delegate', 'event args', 'raise event', 'property changed'],
    targets: ['EventHandler', 'EventArgs', 'Action', 'Func', 'OnPropertyChanged', 'PropertyChanged'],
  },
  {
    concept: 'CS_EXCEPTIONS',
    phrases: ['custom exception', 'exception filter', 'throw exception', 'argument null'],
    targets: ['Exception', 'ArgumentException', 'ArgumentNullException', 'InvalidOperationException', 'IExceptionFilter'],
  },
  {
    concept: 'CS_LOGGING',
    phrases: ['ilogger', 'logging', 'log message', 'logger factory'],
    targets: ['ILogger', 'ILoggerFactory', 'LogInformation', 'LogError', 'LogWarning', 'CreateLogger'],
  },
  {
    concept: 'CS_EQUALITY',
    phrases: ['equality', 'hash code', 'equatable', 'comparable'],
    targets: ['GetHashCode', 'IEquatable', 'IComparable', 'CompareTo', 'EqualityComparer'],
  },
  {
    concept: 'CS_TESTING',
    phrases: ['xunit', 'nunit', 'mstest', 'test fixture', 'theory data', 'inline data'],
    targets: ['Fact', 'Theory', 'InlineData', 'TestFixture', 'OneTimeSetUp', 'TestMethod', 'Assert'],
  },
]);
