import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@knowing/source'] },
  ssr: { resolve: { conditions: ['@knowing/source'] } },
  // The end-to-end tests spawn the server and index a repository: give them time.
  test: { include: ['test/**/*.test.ts'], passWithNoTests: true, testTimeout: 60_000, hookTimeout: 60_000 },
});
