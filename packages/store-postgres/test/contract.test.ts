import { describe, it } from 'vitest';
import { testGraphStore } from '@knowing/graph/testing';
import { createPostgresStore } from '../src/index.js';
import { POSTGRES_URL, SKIP_REASON, freshRepository } from './support/db.js';

if (POSTGRES_URL === null) {
  describe.skip(`GraphStore contract: store-postgres — no PostgreSQL server (${SKIP_REASON})`, () => {
    it('needs a server', () => {});
  });
} else {
  const connectionString = POSTGRES_URL;
  // Every store is a new repository of the same database: its own schema, created on open.
  testGraphStore('store-postgres', () => createPostgresStore({ connectionString, repository: freshRepository('contract'), maxConnections: 2 }));
}
