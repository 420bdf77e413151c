export { createKnowingServer, DEFAULT_SERVER_OPTIONS, TOOL_NAMES } from './server.js';
export { runStdioServer } from './stdio.js';
export { FORMATS, MAX_BUDGET, MAX_FILES, MAX_FEEDBACK_SYMBOLS } from './schemas.js';
export type { KnowingServer, KnowingServerOptions, StdioServerOptions, McpFormat, McpIndexOptions, McpEngineExtras } from './types.js';
