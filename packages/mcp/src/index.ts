export { createKnowingServer, DEFAULT_SERVER_OPTIONS, TOOL_NAMES } from './server.js';
export { runStdioServer, DEFAULT_STDIO_OPTIONS } from './stdio.js';
export { FORMATS, MAX_BUDGET, MAX_FILES, MAX_FEEDBACK_SYMBOLS, MAX_NAME_CHARS, MAX_PATH_CHARS } from './schemas.js';
export type { KnowingServer, KnowingServerOptions, StdioServerOptions, McpFormat, McpIndexOptions, McpEngineExtras } from './types.js';
