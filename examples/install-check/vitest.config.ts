import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Packing twelve packages and installing them takes a while on a small CI machine; a cold
    // build of the packages (when their dist is stale) takes about a minute more.
    testTimeout: 10 * 60_000,
    hookTimeout: 10 * 60_000,
  },
});
