export { createSqliteStore } from './store.js';
export { SQLITE_STORE_DEFAULTS, DEFAULT_COLUMN_WEIGHTS, DEFAULT_CACHE_NOTES } from './defaults.js';
export { SCHEMA_VERSION } from './version.js';
export type { SqliteStoreOptions, SqliteExtras, SqliteGraphStore, CacheNoteLimit, IntegrityReport, StoreUsage } from './types.js';
