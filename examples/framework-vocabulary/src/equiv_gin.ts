import { defineEquivalenceClasses } from '@knowing/equivalence';

/**
 * Gin (github.com/gin-gonic/gin), in the vocabulary of its documentation: the engine and its
 * modes, router groups, middleware and the handler chain, model binding and validation,
 * rendering, request input, context keys, logging, recovery and basic auth.
 *
 * Phrases are the words the Gin guides and people asking about Gin use; targets are the names
 * of Gin's public API. Methods are written `Type.method` (`Context.Abort`) so that names such as
 * `Next`, `Get` or `JSON` resolve only on the Gin type that owns them.
 *
 * @example
 * ```ts
 * import gin from './equiv_gin.js';
 * const engine = createEngine({ store });
 * engine.classes.register(gin);
 * ```
 */
export default defineEquivalenceClasses({
  framework: 'gin',
  language: 'go',
  // `plugin` (the default): weight 0.9, so a strong match is injected at the top of the ranking.
  source: 'plugin',
  classes: [
    {
      concept: 'GIN_ENGINE',
      phrases: ['gin engine', 'blank gin', 'gin default', 'gin mode', 'release mode', 'trusted proxies', 'run server'],
      targets: ['Engine', 'Engine.Run', 'Engine.RunTLS', 'Engine.ServeHTTP', 'Engine.handleHTTPRequest', 'Engine.SetTrustedProxies', 'SetMode'],
    },
    {
      concept: 'GIN_ROUTING',
      phrases: ['router group', 'route group', 'grouping routes', 'path parameter', 'no route', 'register route'],
      targets: ['RouterGroup', 'RouterGroup.Group', 'RouterGroup.Handle', 'RouterGroup.GET', 'RouterGroup.POST', 'Engine.NoRoute', 'Context.Param', 'Engine.addRoute'],
    },
    {
      concept: 'GIN_MIDDLEWARE',
      phrases: ['gin middleware', 'custom middleware', 'handler chain', 'middleware chain', 'abort request', 'abort chain', 'stop handler chain', 'call next handler'],
      targets: ['HandlerFunc', 'HandlersChain', 'RouterGroup.Use', 'Context.Next', 'Context.Abort', 'Context.AbortWithStatus', 'Context.AbortWithStatusJSON', 'Context.IsAborted'],
    },
    {
      concept: 'GIN_BINDING',
      phrases: ['model binding', 'bind request body', 'bind json', 'should bind', 'bind query string', 'bind uri', 'bind form'],
      targets: [
        'Context.ShouldBind',
        'Context.ShouldBindJSON',
        'Context.ShouldBindWith',
        'Context.ShouldBindQuery',
        'Context.ShouldBindUri',
        'Context.BindJSON',
        'Context.MustBindWith',
        'binding.Binding',
      ],
    },
    {
      concept: 'GIN_VALIDATION',
      phrases: ['custom validator', 'binding validation', 'required field', 'struct validation', 'validate struct'],
      targets: ['StructValidator', 'StructValidator.ValidateStruct', 'binding.Validator', 'defaultValidator.ValidateStruct', 'RegisterValidation'],
    },
    {
      concept: 'GIN_RENDERING',
      phrases: ['render json', 'json response', 'html rendering', 'html template', 'secure json', 'pure json', 'render xml', 'render yaml'],
      targets: ['Context.JSON', 'Context.SecureJSON', 'Context.PureJSON', 'Context.XML', 'Context.YAML', 'Context.HTML', 'Context.Render', 'Engine.LoadHTMLGlob'],
    },
    {
      concept: 'GIN_REQUEST_INPUT',
      phrases: ['query string parameter', 'default query', 'post form', 'upload file', 'multipart form', 'request header', 'client ip'],
      targets: ['Context.Query', 'Context.DefaultQuery', 'Context.PostForm', 'Context.FormFile', 'Context.SaveUploadedFile', 'Context.GetHeader', 'Context.ClientIP'],
    },
    {
      concept: 'GIN_CONTEXT_KEYS',
      phrases: ['context keys', 'must get', 'request scoped value', 'copy context', 'goroutine inside middleware'],
      targets: ['Context.Set', 'Context.Get', 'Context.MustGet', 'Context.Keys', 'Context.Copy'],
    },
    {
      concept: 'GIN_LOGGING',
      phrases: ['gin logger', 'access log', 'custom log format', 'log formatter', 'request logging'],
      targets: ['Logger', 'LoggerWithFormatter', 'LoggerWithConfig', 'LogFormatter', 'LogFormatterParams'],
    },
    {
      concept: 'GIN_RECOVERY',
      phrases: ['recovery middleware', 'panic recovery', 'recover from panic', 'custom recovery'],
      targets: ['Recovery', 'CustomRecovery', 'RecoveryWithWriter', 'RecoveryFunc'],
    },
    {
      concept: 'GIN_BASIC_AUTH',
      phrases: ['basic auth', 'basic authentication', 'authorized group', 'auth user key'],
      targets: ['BasicAuth', 'BasicAuthForRealm', 'Accounts', 'AuthUserKey'],
    },
  ],
});
