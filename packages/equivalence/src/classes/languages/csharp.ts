import { concept } from '../concept.js';
import { languagePlugin } from './define.js';

/** C# / .NET idioms: hosting and startup, the service collection, options, LINQ, `IDisposable`. */
export const CSHARP_PLUGIN = languagePlugin('csharp', 'csharp', [
  concept('CS_STARTUP', ['startup', 'program entry', 'configure services', 'host builder', 'application startup', 'minimal api'], [
    'Startup', 'Program', 'Program.Main', 'ConfigureServices', 'Configure', 'CreateHostBuilder', 'WebApplication', 'CreateBuilder',
  ]),
  concept('CS_DEPENDENCY_INJECTION', ['dependency injection', 'service collection', 'register service', 'scoped service', 'singleton service', 'service lifetime'], [
    'IServiceCollection', 'ServiceCollection', 'AddSingleton', 'AddScoped', 'AddTransient', 'IServiceProvider', 'GetService', 'GetRequiredService',
  ]),
  concept('CS_CONFIGURATION', ['appsettings', 'configuration binding', 'options pattern', 'configuration section'], [
    'IConfiguration', 'IOptions', 'IOptionsMonitor', 'GetSection', 'ConfigurationBuilder', 'Bind',
  ]),
  concept('CS_ASYNC', ['async task', 'await', 'cancellation token', 'task completion', 'configure await'], [
    'Task', 'ValueTask', 'CancellationToken', 'ConfigureAwait', 'WhenAll', 'TaskCompletionSource',
  ]),
  concept('CS_LINQ', ['linq', 'query expression', 'enumerable', 'queryable', 'where select'], [
    'IEnumerable', 'IQueryable', 'Enumerable', 'Where', 'Select', 'ToList', 'FirstOrDefault',
  ]),
  concept('CS_DISPOSE', ['dispose', 'using statement', 'resource cleanup', 'finalizer', 'disposable'], [
    'Dispose', 'IDisposable', 'DisposeAsync', 'IAsyncDisposable', 'Finalize',
  ]),
  concept('CS_EVENTS', ['event handler', 'delegate', 'event args', 'raise event', 'property changed'], [
    'EventHandler', 'EventArgs', 'Action', 'Func', 'OnPropertyChanged', 'PropertyChanged',
  ]),
  concept('CS_EXCEPTIONS', ['custom exception', 'exception filter', 'throw exception', 'argument null'], [
    'Exception', 'ArgumentException', 'ArgumentNullException', 'InvalidOperationException', 'IExceptionFilter',
  ]),
  concept('CS_LOGGING', ['ilogger', 'logging', 'log message', 'logger factory'], [
    'ILogger', 'ILoggerFactory', 'LogInformation', 'LogError', 'LogWarning', 'CreateLogger',
  ]),
  concept('CS_EQUALITY', ['equality', 'hash code', 'equatable', 'comparable'], [
    'GetHashCode', 'IEquatable', 'IComparable', 'CompareTo', 'EqualityComparer',
  ]),
  concept('CS_TESTING', ['xunit', 'nunit', 'mstest', 'test fixture', 'theory data', 'inline data'], [
    'Fact', 'Theory', 'InlineData', 'TestFixture', 'OneTimeSetUp', 'TestMethod', 'Assert',
  ]),
]);
