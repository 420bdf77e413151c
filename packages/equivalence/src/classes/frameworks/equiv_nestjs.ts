import { defineEquivalenceClasses } from '../../define.js';

/** NestJS, in the vocabulary of its documentation: modules, providers, guards, interceptors, pipes, filters. */
export default defineEquivalenceClasses({
  framework: 'nestjs',
  language: ['typescript', 'javascript'],
  source: 'framework',
  classes: [
    {
      concept: 'NEST_MODULES',
      phrases: ['nest module', 'feature module', 'dynamic module', 'global module', 'module imports'],
      targets: ['DynamicModule', 'NestModule', 'forRoot', 'forRootAsync', 'forFeature', 'ConfigurableModuleBuilder', 'ModulesContainer'],
    },
    {
      concept: 'NEST_CONTROLLERS',
      phrases: ['nest controller', 'route handler', 'request mapping', 'controller decorator', 'route params'],
      targets: ['Controller', 'RequestMapping', 'RouterExplorer', 'RoutesResolver', 'RouteParamsFactory', 'RouterExecutionContext'],
    },
    {
      concept: 'NEST_PROVIDERS',
      phrases: ['nest provider', 'injectable service', 'custom provider', 'injection scope', 'injection token', 'factory provider'],
      targets: ['Injectable', 'Inject', 'Injector', 'InstanceWrapper', 'ModuleRef', 'useFactory', 'InjectionToken'],
    },
    {
      concept: 'NEST_GUARDS',
      phrases: ['guard', 'nest guard', 'auth guard', 'can activate', 'roles guard', 'execution context'],
      targets: ['CanActivate', 'canActivate', 'UseGuards', 'AuthGuard', 'ExecutionContext', 'Reflector', 'GuardsConsumer'],
    },
    {
      concept: 'NEST_INTERCEPTORS',
      phrases: ['nest interceptor', 'call handler', 'intercept response', 'logging interceptor', 'response mapping'],
      targets: ['NestInterceptor', 'intercept', 'CallHandler', 'UseInterceptors', 'InterceptorsConsumer'],
    },
    {
      concept: 'NEST_PIPES',
      phrases: ['validation pipe', 'parse int pipe', 'pipe transform', 'custom pipe', 'argument metadata'],
      targets: ['PipeTransform', 'ValidationPipe', 'ParseIntPipe', 'UsePipes', 'ArgumentMetadata', 'PipesConsumer'],
    },
    {
      concept: 'NEST_EXCEPTION_FILTERS',
      phrases: ['exception filter', 'catch decorator', 'base exception filter', 'http exception', 'arguments host'],
      targets: ['ExceptionFilter', 'BaseExceptionFilter', 'UseFilters', 'HttpException', 'ArgumentsHost', 'ExceptionsHandler'],
    },
    {
      concept: 'NEST_MIDDLEWARE',
      phrases: ['nest middleware', 'middleware consumer', 'apply middleware', 'configure middleware'],
      targets: ['NestMiddleware', 'MiddlewareConsumer', 'forRoutes', 'MiddlewareBuilder', 'MiddlewareModule'],
    },
    {
      concept: 'NEST_LIFECYCLE',
      phrases: ['module init', 'application bootstrap hook', 'lifecycle hook', 'on module destroy', 'shutdown hooks'],
      targets: ['OnModuleInit', 'onModuleInit', 'OnApplicationBootstrap', 'OnModuleDestroy', 'OnApplicationShutdown', 'enableShutdownHooks'],
    },
    {
      concept: 'NEST_BOOTSTRAP',
      phrases: ['nest factory', 'create nest application', 'nest application', 'application adapter'],
      targets: ['NestFactory', 'NestFactoryStatic', 'NestApplication', 'INestApplication', 'NestFactory.create', 'AbstractHttpAdapter'],
    },
    {
      concept: 'NEST_MICROSERVICES',
      phrases: ['message pattern', 'event pattern', 'microservice transport', 'client proxy', 'custom transporter'],
      targets: ['MessagePattern', 'EventPattern', 'ClientProxy', 'ClientsModule', 'ServerTCP', 'CustomTransportStrategy'],
    },
  ],
});
