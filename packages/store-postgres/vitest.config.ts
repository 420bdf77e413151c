import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@knowing/source'] },
  ssr: { resolve: { conditions: ['@knowing/source'] } },
  test: {
    // Starts a throw-away PostgreSQL server (installing Debian's postgresql package when missing).
    globalSetup: ['./test/support/global-setup.ts'],
    // Tests run beside builds and other packages' tests on 2 cores: generous limits, so load is not a failure.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    include: ['test/**/*.test.ts'],
    passWithNoTests: true,
  },
});
