import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@knowing/source'] },
  ssr: { resolve: { conditions: ['@knowing/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: true,
    // Type-level tests of the public extension point: `vitest run` type-checks them too.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
