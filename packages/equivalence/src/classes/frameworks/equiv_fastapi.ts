import { defineEquivalenceClasses } from '../../define.js';

/** FastAPI, in the vocabulary of its documentation: path operations, dependencies, parameters, security. */
export default defineEquivalenceClasses({
  framework: 'fastapi',
  language: 'python',
  source: 'framework',
  classes: [
    {
      concept: 'FASTAPI_APP_ROUTER',
      phrases: ['fastapi app', 'api router', 'include router', 'path operation', 'path operation decorator'],
      targets: ['FastAPI', 'APIRouter', 'include_router', 'add_api_route', 'APIRoute', 'api_route'],
    },
    {
      concept: 'FASTAPI_DEPENDENCIES',
      phrases: ['dependency injection', 'depends', 'dependency override', 'sub dependency', 'dependencies with yield'],
      targets: ['Depends', 'Dependant', 'solve_dependencies', 'get_dependant', 'dependency_overrides', 'get_sub_dependant'],
    },
    {
      concept: 'FASTAPI_PARAMETERS',
      phrases: ['query parameter', 'path parameter', 'request body', 'header parameter', 'form data', 'cookie parameter'],
      targets: ['params.Query', 'params.Path', 'params.Body', 'params.Header', 'params.Form', 'params.File', 'params.Cookie', 'request_params_to_args', 'request_body_to_args'],
    },
    {
      concept: 'FASTAPI_RESPONSES',
      phrases: ['response model', 'response class', 'json response', 'serialize response', 'jsonable encoder'],
      targets: ['response_model', 'JSONResponse', 'ORJSONResponse', 'serialize_response', 'jsonable_encoder', 'ResponseValidationError'],
    },
    {
      concept: 'FASTAPI_VALIDATION',
      phrases: ['request validation', 'validation error', 'pydantic model', 'field validator', 'model validator'],
      targets: ['RequestValidationError', 'BaseModel', 'field_validator', 'model_validator', 'create_model_field', 'ModelField'],
    },
    {
      concept: 'FASTAPI_SECURITY',
      phrases: ['oauth2 password', 'bearer token', 'api key header', 'http basic auth', 'security scheme', 'security scopes'],
      targets: ['OAuth2PasswordBearer', 'OAuth2PasswordRequestForm', 'HTTPBearer', 'APIKeyHeader', 'HTTPBasic', 'SecurityScopes', 'HTTPAuthorizationCredentials'],
    },
    {
      concept: 'FASTAPI_MIDDLEWARE',
      phrases: ['fastapi middleware', 'cors middleware', 'add middleware', 'http middleware', 'gzip middleware'],
      targets: ['add_middleware', 'CORSMiddleware', 'BaseHTTPMiddleware', 'GZipMiddleware', 'TrustedHostMiddleware', 'build_middleware_stack'],
    },
    {
      concept: 'FASTAPI_BACKGROUND_TASKS',
      phrases: ['background task', 'run after response', 'fire and forget'],
      targets: ['BackgroundTasks', 'BackgroundTask', 'add_task'],
    },
    {
      concept: 'FASTAPI_LIFESPAN',
      phrases: ['lifespan', 'startup event', 'shutdown event', 'lifespan context'],
      targets: ['lifespan', 'on_event', 'add_event_handler', 'Lifespan', 'lifespan_context'],
    },
    {
      concept: 'FASTAPI_WEBSOCKETS',
      phrases: ['fastapi websocket', 'websocket route', 'websocket endpoint', 'websocket disconnect'],
      targets: ['WebSocket', 'WebSocketDisconnect', 'APIWebSocketRoute', 'websocket_route', 'add_api_websocket_route'],
    },
    {
      concept: 'FASTAPI_EXCEPTIONS',
      phrases: ['http exception', 'exception handler', 'custom exception handler', 'raise http exception'],
      targets: ['HTTPException', 'exception_handler', 'add_exception_handler', 'http_exception_handler', 'request_validation_exception_handler'],
    },
    {
      concept: 'FASTAPI_OPENAPI',
      phrases: ['openapi schema', 'swagger ui', 'api docs', 'openapi generation', 'redoc'],
      targets: ['get_openapi', 'get_swagger_ui_html', 'get_redoc_html', 'get_openapi_path', 'openapi_schema'],
    },
    {
      concept: 'FASTAPI_TESTING',
      phrases: ['testclient', 'test client', 'override dependencies in tests'],
      targets: ['TestClient'],
    },
  ],
});
