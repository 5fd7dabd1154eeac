import { createRequire } from 'node:module';
import { staleParts } from './build-inputs.mjs';

/**
 * `npm start` (and `npm run cli`, as `start.mjs cli …`): runs the compiled server with plain
 * Node, building first only when the build is missing or was made from other sources
 * (decision 0018). In a tree installed with `npm ci --omit=dev` there are no build tools:
 * a current build starts, a stale one is a clear message instead of a rebuild.
 */
const cli = process.argv[2] === 'cli';
// The CLI reads its command from argv[2] onwards, as when it is run directly.
if (cli) process.argv.splice(2, 1);

// The CLI needs only the server; its output stays clean on stdout.
const needed = cli ? ['server'] : ['server', 'web'];
const stale = staleParts().filter((part) => needed.includes(part));
if (stale.length > 0) {
  const require = createRequire(import.meta.url);
  const tools = { server: 'esbuild', web: 'vite' };
  const missing = stale.filter((part) => {
    try {
      require.resolve(`${tools[part]}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    console.error(
      `Coffer cannot start: the ${stale.join(' and ')} build is missing or older than its sources, and the build tools are not installed (${missing.map((p) => tools[p]).join(', ')}). Run \`npm ci && npm run build\` first; after that, \`npm ci --omit=dev\` is enough to run it.`,
    );
    process.exit(1);
  }
  console.error(`Building the ${stale.join(' and ')} (its sources changed since the last build)…`);
  const { build } = await import('./build.mjs');
  await build({ only: stale });
}

process.setSourceMapsEnabled(true);
await import(cli ? '../dist/cli.js' : '../dist/main.js');
