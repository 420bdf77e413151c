import type { TestProject } from 'vitest/node';
import { PostgresUnavailable, startPostgres, type TestPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the throw-away test database, or null when none could be started. */
    postgresUrl: string | null;
    /** Why there is no server (names the missing package), when `postgresUrl` is null. */
    postgresSkipReason: string;
  }
}

let server: TestPostgres | undefined;

export async function setup(project: TestProject): Promise<void> {
  try {
    server = await startPostgres({ log: (line) => process.stderr.write(`${line}\n`) });
    project.provide('postgresUrl', server.url);
    project.provide('postgresSkipReason', '');
  } catch (error) {
    if (!(error instanceof PostgresUnavailable)) throw error;
    process.stderr.write(`[store-postgres tests] skipped: ${error.message}\n`);
    project.provide('postgresUrl', null);
    project.provide('postgresSkipReason', error.message);
  }
}

export function teardown(): void {
  server?.stop();
  server = undefined;
}
