import { inject } from 'vitest';

/** The test server's connection string, or null when none could be started (tests skip). */
export const POSTGRES_URL: string | null = inject('postgresUrl');

/** Why the tests skip, for `describe.skipIf(...)` titles. */
export const SKIP_REASON: string = inject('postgresSkipReason');

let counter = 0;

/** A repository name no other test uses: each store starts empty in its own schema. */
export function freshRepository(label = 'repo'): string {
  return `${label}-${process.pid}-${Date.now().toString(36)}-${counter++}`;
}
