import { defineEquivalenceClasses } from '../../define.js';

/** ASP.NET Core, in the vocabulary of its documentation: controllers, middleware, hosting, auth, EF Core. */
export default defineEquivalenceClasses({
  framework: 'aspnetcore',
  language: 'csharp',
  source: 'framework',
  classes: [
    {
      concept: 'ASPNET_CONTROLLERS',
      phrases: ['api controller', 'controller action', 'action result', 'route attribute', 'model binding', 'from body'],
      targets: ['ControllerBase', 'ApiController', 'IActionResult', 'ActionResult', 'HttpGet', 'HttpPost', 'FromBody', 'FromQuery'],
    },
    {
      concept: 'ASPNET_MIDDLEWARE',
      phrases: ['aspnet middleware', 'request delegate', 'use middleware', 'middleware pipeline', 'application builder'],
      targets: ['RequestDelegate', 'IMiddleware', 'UseMiddleware', 'IApplicationBuilder', 'InvokeAsync', 'HttpContext', 'UseWhen'],
    },
    {
      concept: 'ASPNET_MINIMAL_APIS',
      phrases: ['minimal api', 'map get', 'endpoint routing', 'route group', 'endpoint filter'],
      targets: ['MapGet', 'MapPost', 'MapGroup', 'IEndpointRouteBuilder', 'RouteHandlerBuilder', 'IEndpointFilter', 'UseRouting', 'UseEndpoints'],
    },
    {
      concept: 'ASPNET_HOSTING',
      phrases: ['generic host', 'hosted service', 'background service', 'web host', 'kestrel', 'application lifetime'],
      targets: ['IHostedService', 'BackgroundService', 'ExecuteAsync', 'HostBuilder', 'WebHostBuilder', 'KestrelServer', 'IHostApplicationLifetime'],
    },
    {
      concept: 'ASPNET_AUTH',
      phrases: ['authentication scheme', 'authorization policy', 'jwt bearer', 'authentication handler', 'claims principal', 'authorize attribute'],
      targets: ['AuthenticationHandler', 'AddAuthentication', 'AddAuthorization', 'AuthorizationPolicy', 'ClaimsPrincipal', 'IAuthorizationHandler', 'JwtBearerHandler', 'AuthorizeAttribute'],
    },
    {
      concept: 'ASPNET_FILTERS',
      phrases: ['action filter', 'result filter', 'authorization filter', 'filter pipeline', 'on action executing'],
      targets: ['IActionFilter', 'ActionFilterAttribute', 'IResultFilter', 'IAuthorizationFilter', 'IAsyncActionFilter', 'OnActionExecuting'],
    },
    {
      concept: 'ASPNET_EF_CORE',
      phrases: ['db context', 'entity framework', 'ef core migration', 'db set', 'model builder', 'save changes'],
      targets: ['DbContext', 'DbSet', 'OnModelCreating', 'ModelBuilder', 'SaveChanges', 'SaveChangesAsync', 'DbContextOptions'],
    },
    {
      concept: 'ASPNET_OPTIONS',
      phrases: ['options pattern', 'configure options', 'named options', 'configuration provider', 'options validation'],
      targets: ['IOptionsSnapshot', 'IOptionsMonitor', 'OptionsBuilder', 'ConfigurationProvider', 'IConfigurationSource', 'IValidateOptions'],
    },
    {
      concept: 'ASPNET_RAZOR',
      phrases: ['razor page', 'razor view', 'view component', 'tag helper', 'page model'],
      targets: ['PageModel', 'ViewComponent', 'TagHelper', 'RazorPage', 'IViewComponentResult', 'ViewResult'],
    },
    {
      concept: 'ASPNET_SIGNALR',
      phrases: ['signalr hub', 'hub connection', 'hub context', 'hub method', 'map hub'],
      targets: ['HubConnection', 'IHubContext', 'MapHub', 'HubConnectionContext', 'HubLifetimeManager'],
    },
    {
      concept: 'ASPNET_HEALTH_CHECKS',
      phrases: ['health checks', 'health check endpoint', 'readiness check', 'health check result'],
      targets: ['IHealthCheck', 'AddHealthChecks', 'MapHealthChecks', 'HealthCheckResult', 'HealthCheckService'],
    },
    {
      concept: 'ASPNET_MODEL_VALIDATION',
      phrases: ['model validation', 'model state', 'validation attribute', 'data annotations', 'validatable object'],
      targets: ['ModelState', 'ModelStateDictionary', 'ValidationAttribute', 'IValidatableObject', 'RequiredAttribute', 'ObjectModelValidator'],
    },
  ],
});
