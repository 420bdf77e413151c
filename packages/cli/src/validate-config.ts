import { resolveEngineOptions } from '@knowing/engine';
import { KnowingError } from '@knowing/graph';
import type { KnowingConfig } from './config.js';
import type { CliError } from './errors.js';
import { configError } from './errors.js';

const TOP_LEVEL = ['$schema', 'plugins', 'ranker', 'defaults', 'engine', 'store'] as const;
const DEFAULT_FIELDS = ['budget', 'format', 'languages', 'workers', 'refresh'] as const;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownField(file: string, field: string, known: readonly string[]): CliError {
  return configError(file, `unknown field "${field}"`, `known fields here: ${known.join(', ')}`);
}

/** Check a config value's shape; errors name the file and the field. */
export function validateConfig(raw: unknown, file: string): KnowingConfig {
  if (!isPlainObject(raw)) {
    throw configError(file, `must hold an object, found ${kindOf(raw)}`, 'e.g. { "defaults": { "budget": 8000 } }');
  }
  for (const key of Object.keys(raw)) if (!(TOP_LEVEL as readonly string[]).includes(key)) throw unknownField(file, key, TOP_LEVEL.slice(1));

  const plugins = raw['plugins'];
  if (plugins !== undefined) {
    if (!Array.isArray(plugins)) throw configError(file, `"plugins" must be an array of package names or paths, found ${kindOf(plugins)}`);
    plugins.forEach((p, i) => {
      if (typeof p !== 'string' || p.trim() === '') throw configError(file, `"plugins[${i}]" must be a package name or a path, found ${kindOf(p)}`);
    });
  }
  const ranker = raw['ranker'];
  if (ranker !== undefined && (typeof ranker !== 'string' || ranker.trim() === '')) {
    throw configError(file, `"ranker" must be a module path or package name, found ${kindOf(ranker)}`, 'e.g. "ranker": "./my-ranker.mjs"');
  }
  const defaults = raw['defaults'];
  if (defaults !== undefined) {
    if (!isPlainObject(defaults)) throw configError(file, `"defaults" must be an object, found ${kindOf(defaults)}`);
    for (const [key, value] of Object.entries(defaults)) {
      if (!(DEFAULT_FIELDS as readonly string[]).includes(key)) throw unknownField(file, `defaults.${key}`, DEFAULT_FIELDS);
      if ((key === 'budget' || key === 'workers') && !(typeof value === 'number' && Number.isInteger(value) && value >= (key === 'budget' ? 1 : 0))) {
        throw configError(file, `"defaults.${key}" must be a ${key === 'budget' ? 'positive' : 'non-negative'} whole number, found ${JSON.stringify(value)}`);
      }
      if (key === 'format' && (typeof value !== 'string' || value.trim() === '')) throw configError(file, `"defaults.format" must be a format name, found ${kindOf(value)}`);
      if (key === 'refresh' && typeof value !== 'boolean') throw configError(file, `"defaults.refresh" must be true or false, found ${JSON.stringify(value)}`);
      if (key === 'languages' && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
        throw configError(file, `"defaults.languages" must be an array of language names, found ${kindOf(value)}`, 'e.g. ["python", "go"]');
      }
    }
  }
  const engine = raw['engine'];
  if (engine !== undefined) validateEngineOptions(engine, file);
  const store = raw['store'];
  if (store !== undefined) {
    if (typeof store !== 'string' || !/^postgres(ql)?:\/\/./i.test(store.trim())) {
      throw configError(file, `"store" must be a PostgreSQL URL, found ${typeof store === 'string' ? JSON.stringify(store.replace(/(:\/\/[^:/@]*:)[^@]*@/, '$1***@')) : kindOf(store)}`, 'e.g. "store": "postgres://knowing@db.internal:5432/knowing" (the password from PGPASSWORD); leave it out for the SQLite file in .knowing/');
    }
    if (/^[^:]+:\/\/[^/@]*:[^@/]+@/.test(store.trim())) {
      throw configError(file, '"store" holds a password', 'a config file is shared with the repository: leave the password out and set PGPASSWORD (or use ~/.pgpass) where knowing runs');
    }
  }
  return raw as KnowingConfig;
}

/** Engine options are the engine's to check (`resolveEngineOptions`); its errors are told against the file. */
function validateEngineOptions(engine: unknown, file: string): void {
  if (!isPlainObject(engine)) throw configError(file, `"engine" must be an object of engine options, found ${kindOf(engine)}`);
  try {
    resolveEngineOptions(engine);
  } catch (error) {
    if (error instanceof KnowingError) throw configError(file, error.detail, error.hint);
    throw error;
  }
}
