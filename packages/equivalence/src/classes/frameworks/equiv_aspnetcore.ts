import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** ASP.NET Core, in the vocabulary of its documentation: controllers, middleware, hosting, auth, EF Core. */
export default builtinPlugin({
  framework: 'aspnetcore',
  language: 'csharp',
  source: 'framework',
  classes: [
    concept('ASPNET_CONTROLLERS', ['api controller', 'controller action', 'action result', 'route attribute', 'model binding', 'from body'], [
      'ControllerBase', 'ApiController', 'IActionResult', 'ActionResult', 'HttpGet', 'HttpPost', 'FromBody', 'FromQuery',
    ]),
    concept('ASPNET_MIDDLEWARE', ['aspnet middleware', 'request delegate', 'use middleware', 'middleware pipeline', 'application builder'], [
      'RequestDelegate', 'IMiddleware', 'UseMiddleware', 'IApplicationBuilder', 'InvokeAsync', 'HttpContext', 'UseWhen',
    ]),
    concept('ASPNET_MINIMAL_APIS', ['minimal api', 'map get', 'endpoint routing', 'route group', 'endpoint filter'], [
      'MapGet', 'MapPost', 'MapGroup', 'IEndpointRouteBuilder', 'RouteHandlerBuilder', 'IEndpointFilter', 'UseRouting', 'UseEndpoints',
    ]),
    concept('ASPNET_HOSTING', ['generic host', 'hosted service', 'background service', 'web host', 'kestrel', 'application lifetime'], [
      'IHostedService', 'BackgroundService', 'ExecuteAsync', 'HostBuilder', 'WebHostBuilder', 'KestrelServer', 'IHostApplicationLifetime',
    ]),
    concept('ASPNET_AUTH', ['authentication scheme', 'authorization policy', 'jwt bearer', 'authentication handler', 'claims principal', 'authorize attribute'], [
      'AuthenticationHandler', 'AddAuthentication', 'AddAuthorization', 'AuthorizationPolicy', 'ClaimsPrincipal', 'IAuthorizationHandler', 'JwtBearerHandler', 'AuthorizeAttribute',
    ]),
    concept('ASPNET_FILTERS', ['action filter', 'result filter', 'authorization filter', 'filter pipeline', 'on action executing'], [
      'IActionFilter', 'ActionFilterAttribute', 'IResultFilter', 'IAuthorizationFilter', 'IAsyncActionFilter', 'OnActionExecuting',
    ]),
    concept('ASPNET_EF_CORE', ['db context', 'entity framework', 'ef core migration', 'db set', 'model builder', 'save changes'], [
      'DbContext', 'DbSet', 'OnModelCreating', 'ModelBuilder', 'SaveChanges', 'SaveChangesAsync', 'DbContextOptions',
    ]),
    concept('ASPNET_OPTIONS', ['options pattern', 'configure options', 'named options', 'configuration provider', 'options validation'], [
      'IOptionsSnapshot', 'IOptionsMonitor', 'OptionsBuilder', 'ConfigurationProvider', 'IConfigurationSource', 'IValidateOptions',
    ]),
    concept('ASPNET_RAZOR', ['razor page', 'razor view', 'view component', 'tag helper', 'page model'], [
      'PageModel', 'ViewComponent', 'TagHelper', 'RazorPage', 'IViewComponentResult', 'ViewResult',
    ]),
    concept('ASPNET_SIGNALR', ['signalr hub', 'hub connection', 'hub context', 'hub method', 'map hub'], [
      'HubConnection', 'IHubContext', 'MapHub', 'HubConnectionContext', 'HubLifetimeManager',
    ]),
    concept('ASPNET_HEALTH_CHECKS', ['health checks', 'health check endpoint', 'readiness check', 'health check result'], [
      'IHealthCheck', 'AddHealthChecks', 'MapHealthChecks', 'HealthCheckResult', 'HealthCheckService',
    ]),
    concept('ASPNET_MODEL_VALIDATION', ['model validation', 'model state', 'validation attribute', 'data annotations', 'validatable object'], [
      'ModelState', 'ModelStateDictionary', 'ValidationAttribute', 'IValidatableObject', 'RequiredAttribute', 'ObjectModelValidator',
    ]),
  ],
});
