import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** NestJS, in the vocabulary of its documentation: modules, providers, guards, interceptors, pipes, filters. */
export default builtinPlugin({
  framework: 'nestjs',
  language: ['typescript', 'javascript'],
  source: 'framework',
  classes: [
    concept('NEST_MODULES', ['nest module', 'feature module', 'dynamic module', 'global module', 'module imports'], [
      'DynamicModule', 'NestModule', 'forRoot', 'forRootAsync', 'forFeature', 'ConfigurableModuleBuilder', 'ModulesContainer',
    ]),
    concept('NEST_CONTROLLERS', ['nest controller', 'route handler', 'request mapping', 'controller decorator', 'route params'], [
      'Controller', 'RequestMapping', 'RouterExplorer', 'RoutesResolver', 'RouteParamsFactory', 'RouterExecutionContext',
    ]),
    concept('NEST_PROVIDERS', ['nest provider', 'injectable service', 'custom provider', 'injection scope', 'injection token', 'factory provider'], [
      'Injectable', 'Inject', 'Injector', 'InstanceWrapper', 'ModuleRef', 'useFactory', 'InjectionToken',
    ]),
    concept('NEST_GUARDS', ['guard', 'nest guard', 'auth guard', 'can activate', 'roles guard', 'execution context'], [
      'CanActivate', 'canActivate', 'UseGuards', 'AuthGuard', 'ExecutionContext', 'Reflector', 'GuardsConsumer',
    ]),
    concept('NEST_INTERCEPTORS', ['nest interceptor', 'call handler', 'intercept response', 'logging interceptor', 'response mapping'], [
      'NestInterceptor', 'intercept', 'CallHandler', 'UseInterceptors', 'InterceptorsConsumer',
    ]),
    concept('NEST_PIPES', ['validation pipe', 'parse int pipe', 'pipe transform', 'custom pipe', 'argument metadata'], [
      'PipeTransform', 'ValidationPipe', 'ParseIntPipe', 'UsePipes', 'ArgumentMetadata', 'PipesConsumer',
    ]),
    concept('NEST_EXCEPTION_FILTERS', ['exception filter', 'catch decorator', 'base exception filter', 'http exception', 'arguments host'], [
      'ExceptionFilter', 'BaseExceptionFilter', 'UseFilters', 'HttpException', 'ArgumentsHost', 'ExceptionsHandler',
    ]),
    concept('NEST_MIDDLEWARE', ['nest middleware', 'middleware consumer', 'apply middleware', 'configure middleware'], [
      'NestMiddleware', 'MiddlewareConsumer', 'forRoutes', 'MiddlewareBuilder', 'MiddlewareModule',
    ]),
    concept('NEST_LIFECYCLE', ['module init', 'application bootstrap hook', 'lifecycle hook', 'on module destroy', 'shutdown hooks'], [
      'OnModuleInit', 'onModuleInit', 'OnApplicationBootstrap', 'OnModuleDestroy', 'OnApplicationShutdown', 'enableShutdownHooks',
    ]),
    concept('NEST_BOOTSTRAP', ['nest factory', 'create nest application', 'nest application', 'application adapter'], [
      'NestFactory', 'NestFactoryStatic', 'NestApplication', 'INestApplication', 'NestFactory.create', 'AbstractHttpAdapter',
    ]),
    concept('NEST_MICROSERVICES', ['message pattern', 'event pattern', 'microservice transport', 'client proxy', 'custom transporter'], [
      'MessagePattern', 'EventPattern', 'ClientProxy', 'ClientsModule', 'ServerTCP', 'CustomTransportStrategy',
    ]),
  ],
});
