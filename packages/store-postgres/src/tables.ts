import { sql, type RawBuilder } from 'kysely';

const TABLES = [
  'meta', 'repo', 'files', 'nodes', 'owners', 'edges', 'search_docs', 'lexical_docs', 'lexical_terms', 'stats',
  'snapshots', 'merkle_types', 'merkle_packages', 'notes', 'feedback', 'vocab',
] as const;

export type TableName = (typeof TABLES)[number];

/** Schema-qualified references to a repository's tables, for `sql` templates. */
export type Tables = Readonly<Record<TableName, RawBuilder<unknown>>>;

export function tablesOf(schema: string): Tables {
  const out = {} as Record<TableName, RawBuilder<unknown>>;
  for (const name of TABLES) out[name] = sql.id(schema, name);
  return out;
}

/** Staging tables of a batch: per connection, dropped at commit. */
export const STAGE = Object.freeze({
  nodes: sql.raw('pg_temp.knowing_stage_nodes'),
  lexical: sql.raw('pg_temp.knowing_stage_lexical'),
  edges: sql.raw('pg_temp.knowing_stage_edges'),
  resolved: sql.raw('pg_temp.knowing_stage_resolved'),
  doomed: sql.raw('pg_temp.knowing_stage_doomed'),
  dirty: sql.raw('pg_temp.knowing_stage_dirty'),
  prune: sql.raw('pg_temp.knowing_stage_prune'),
});
