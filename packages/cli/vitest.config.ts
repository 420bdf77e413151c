import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@knowing/source'] },
  ssr: { resolve: { conditions: ['@knowing/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: true,
    // Builds the workspace packages the binary imports (and the binary), when stale.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
