import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** FastAPI, in the vocabulary of its documentation: path operations, dependencies, parameters, security. */
export default builtinPlugin({
  framework: 'fastapi',
  language: 'python',
  source: 'framework',
  classes: [
    concept('FASTAPI_APP_ROUTER', ['fastapi app', 'api router', 'include router', 'path operation', 'path operation decorator'], [
      'FastAPI', 'APIRouter', 'include_router', 'add_api_route', 'APIRoute', 'api_route',
    ]),
    concept('FASTAPI_DEPENDENCIES', ['dependency injection', 'depends', 'dependency override', 'sub dependency', 'dependencies with yield'], [
      'Depends', 'Dependant', 'solve_dependencies', 'get_dependant', 'dependency_overrides', 'get_sub_dependant',
    ]),
    concept('FASTAPI_PARAMETERS', ['query parameter', 'path parameter', 'request body', 'header parameter', 'form data', 'cookie parameter'], [
      'params.Query', 'params.Path', 'params.Body', 'params.Header', 'params.Form', 'params.File', 'params.Cookie', 'request_params_to_args', 'request_body_to_args',
    ]),
    concept('FASTAPI_RESPONSES', ['response model', 'response class', 'json response', 'serialize response', 'jsonable encoder'], [
      'response_model', 'JSONResponse', 'ORJSONResponse', 'serialize_response', 'jsonable_encoder', 'ResponseValidationError',
    ]),
    concept('FASTAPI_VALIDATION', ['request validation', 'validation error', 'pydantic model', 'field validator', 'model validator'], [
      'RequestValidationError', 'BaseModel', 'field_validator', 'model_validator', 'create_model_field', 'ModelField',
    ]),
    concept('FASTAPI_SECURITY', ['oauth2 password', 'bearer token', 'api key header', 'http basic auth', 'security scheme', 'security scopes'], [
      'OAuth2PasswordBearer', 'OAuth2PasswordRequestForm', 'HTTPBearer', 'APIKeyHeader', 'HTTPBasic', 'SecurityScopes', 'HTTPAuthorizationCredentials',
    ]),
    concept('FASTAPI_MIDDLEWARE', ['fastapi middleware', 'cors middleware', 'add middleware', 'http middleware', 'gzip middleware'], [
      'add_middleware', 'CORSMiddleware', 'BaseHTTPMiddleware', 'GZipMiddleware', 'TrustedHostMiddleware', 'build_middleware_stack',
    ]),
    concept('FASTAPI_BACKGROUND_TASKS', ['background task', 'run after response', 'fire and forget'], [
      'BackgroundTasks', 'BackgroundTask', 'add_task',
    ]),
    concept('FASTAPI_LIFESPAN', ['lifespan', 'startup event', 'shutdown event', 'lifespan context'], [
      'lifespan', 'on_event', 'add_event_handler', 'Lifespan', 'lifespan_context',
    ]),
    concept('FASTAPI_WEBSOCKETS', ['fastapi websocket', 'websocket route', 'websocket endpoint', 'websocket disconnect'], [
      'WebSocket', 'WebSocketDisconnect', 'APIWebSocketRoute', 'websocket_route', 'add_api_websocket_route',
    ]),
    concept('FASTAPI_EXCEPTIONS', ['http exception', 'exception handler', 'custom exception handler', 'raise http exception'], [
      'HTTPException', 'exception_handler', 'add_exception_handler', 'http_exception_handler', 'request_validation_exception_handler',
    ]),
    concept('FASTAPI_OPENAPI', ['openapi schema', 'swagger ui', 'api docs', 'openapi generation', 'redoc'], [
      'get_openapi', 'get_swagger_ui_html', 'get_redoc_html', 'get_openapi_path', 'openapi_schema',
    ]),
    concept('FASTAPI_TESTING', ['testclient', 'test client', 'override dependencies in tests'], [
      'TestClient',
    ]),
  ],
});
