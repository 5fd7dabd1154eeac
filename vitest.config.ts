import { defineConfig } from 'vitest/config';
import { viteAliases } from './import-graph.ts';

export default defineConfig({
  resolve: { alias: viteAliases },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'apps/web/test/**/*.test.ts',
    ],
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores: two test files at a time, each on its own database.
    maxWorkers: 2,
  },
});
