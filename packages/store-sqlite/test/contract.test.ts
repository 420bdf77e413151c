import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { testGraphStore } from '@knowing/graph/testing';
import { createSqliteStore } from '../src/index.js';

// A real file per store (WAL, temp triggers, re-prepared statements), not only :memory:.
const dir = mkdtempSync(join(tmpdir(), 'knowing-contract-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

testGraphStore('store-sqlite (file)', () => createSqliteStore({ path: join(dir, `store-${n++}.db`) }));
