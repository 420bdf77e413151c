export { createPostgresStore } from './store.js';
export { POSTGRES_STORE_DEFAULTS, POSTGRES_COLUMN_WEIGHTS, POSTGRES_CACHE_NOTES } from './defaults.js';
export { SCHEMA_VERSION } from './migrations.js';
export { schemaNameOf } from './schema.js';
export type { PostgresStoreOptions, PostgresExtras, PostgresGraphStore, CacheNoteLimit } from './types.js';
