import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@knowing/source'] },
  ssr: { resolve: { conditions: ['@knowing/source'] } },
  test: { include: ['test/**/*.test.ts'], passWithNoTests: true },
});
