import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inputHashes, ROOT, SERVER_DIST, STAMP, staleParts } from './build-inputs.mjs';

/**
 * `npm run build`: the web app (Vite) and the server (esbuild) compiled once, for `npm start`
 * to run with plain Node (decision 0018). Only the parts whose sources changed since the last
 * build are rebuilt; `--force` rebuilds both, `--only=server` or `--only=web` one.
 *
 * The server is bundled from its TypeScript, with `@coffer/shared` (TypeScript too) inside;
 * every other package stays an import from node_modules, so `npm ci --omit=dev` provides
 * them. The PDF check's worker thread gets its own file next to the server.
 */

const SERVER = path.join(ROOT, 'apps/server');

/**
 * `import.meta.dirname` means the source file's folder (migrations at `../../drizzle` from
 * src/db, the web build at `../../web/dist` from src): in the bundle it is dist/, so each use
 * is pointed back at the folder its source file is in.
 */
const sourceDirname = {
  name: 'source-dirname',
  setup(build) {
    build.onLoad({ filter: /apps\/server\/src\/.*\.ts$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.dirname')) return undefined;
      const back = path.relative(SERVER_DIST, path.dirname(args.path));
      return {
        contents: text.replaceAll(
          'import.meta.dirname',
          `(import.meta.dirname + ${JSON.stringify(`/${back}`)})`,
        ),
        loader: 'ts',
      };
    });
  },
};

/**
 * Packages are loaded from node_modules at run time; only the workspace's own are bundled:
 * `@coffer/…` and the source's import aliases (`@server/…`, from tsconfig's `paths`).
 */
const OWN_PREFIXES = ['@coffer/', '@server/', '@server-test/'];
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      OWN_PREFIXES.some((prefix) => args.path.startsWith(prefix))
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

async function buildServer() {
  const esbuild = await import('esbuild');
  fs.rmSync(SERVER_DIST, { recursive: true, force: true });
  const common = {
    absWorkingDir: SERVER,
    bundle: true,
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [sourceDirname, externalPackages],
  };
  await esbuild.build({
    ...common,
    entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts' },
    outdir: SERVER_DIST,
    // No shared chunks: every file of the bundle sits in dist/ itself, where the paths
    // above (and the worker's) are worked out from.
    format: 'esm',
  });
  // Loaded by lib/pdf-check.ts with require() in a worker thread: CommonJS.
  await esbuild.build({
    ...common,
    entryPoints: ['src/lib/pdf-check.worker.ts'],
    outfile: path.join(SERVER_DIST, 'pdf-check.worker.cjs'),
    format: 'cjs',
  });
}

function buildWeb() {
  const run = spawnSync('npm', ['run', 'build', '-w', '@coffer/web'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`the web build failed (exit ${run.status})`);
}

/**
 * Builds what is stale (everything with `force`), of `only` the parts named when given;
 * returns the parts it built.
 */
export async function build({ force = false, only = ['server', 'web'] } = {}) {
  const hashes = inputHashes();
  const stale = staleParts(hashes);
  const parts = (force ? Object.keys(hashes) : stale).filter((part) => only.includes(part));
  let previous = {};
  try {
    previous = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    // First build.
  }
  if (parts.includes('web')) buildWeb();
  if (parts.includes('server')) await buildServer();
  if (parts.length > 0) {
    // A part left stale keeps the hash of what it was built from, so it stays stale.
    const stamp = { ...previous };
    for (const part of Object.keys(hashes)) {
      if (parts.includes(part) || !stale.includes(part)) stamp[part] = hashes[part];
    }
    fs.mkdirSync(SERVER_DIST, { recursive: true });
    fs.writeFileSync(STAMP, `${JSON.stringify(stamp, null, 2)}\n`);
  }
  return parts;
}

if (process.argv[1] === import.meta.filename) {
  const started = Date.now();
  // `--only=server` (or web) builds that part alone, as a test of the server needs.
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  const parts = await build({
    force: process.argv.includes('--force'),
    ...(only ? { only: only.split(',') } : {}),
  });
  console.log(
    parts.length === 0
      ? 'Build is current: nothing to do.'
      : `Built ${parts.join(' and ')} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
}
