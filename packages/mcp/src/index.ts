export { createKnowingServer, DEFAULT_SERVER_OPTIONS, TOOL_NAMES } from './server.js';
export { runStdioServer, DEFAULT_STDIO_OPTIONS } from './stdio.js';
export { startHttpServer, DEFAULT_HTTP_OPTIONS, FORBIDDEN_ERROR_CODE, MIN_TOKEN_CHARS } from './http.js';
export { FORMATS, MAX_BUDGET, MAX_FILES, MAX_FEEDBACK_SYMBOLS, MAX_NAME_CHARS, MAX_PATH_CHARS } from './schemas.js';
export type { KnowingServer, KnowingServerOptions, StdioServerOptions, McpFormat, McpIndexOptions, McpEngineExtras, StoreLocator } from './types.js';
export type { HttpRepository, HttpServerOptions, HttpToken, KnowingHttpServer } from './types.js';
