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
    // A cheaper scrypt for test sign-ups (lib/password.ts, decision 0038); the files that
    // test the cost and the hashing pool stub it back to the real one.
    env: { COFFER_TEST_SCRYPT_N: String(2 ** 14) },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores: two test files at a time, each on its own database.
    maxWorkers: 2,
  },
});
