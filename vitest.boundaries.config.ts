import { defineConfig } from 'vitest/config';
import { viteAliases } from './import-graph.ts';

/**
 * The import boundaries alone, with no database: `npm run lint` runs them, so a crossing
 * fails the build with the rule's name before any test runs.
 */
export default defineConfig({
  resolve: { alias: viteAliases },
  test: {
    include: [
      'apps/server/test/module-boundaries.test.ts',
      'apps/web/test/import-boundaries.test.ts',
      'apps/web/test/import-cycles.test.ts',
    ],
  },
});
