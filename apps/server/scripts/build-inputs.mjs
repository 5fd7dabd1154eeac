import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What each compiled part is made from, and a hash over it, so `npm start` can tell whether a
 * build is current by content: a copied or freshly cloned tree has new timestamps but the
 * same sources, and needs no rebuild. Plain JavaScript: it runs where no dev dependency is.
 */
export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const SERVER_DIST = path.join(ROOT, 'apps/server/dist');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');
/** Written last by a successful build: the input hashes that build was made from. */
export const STAMP = path.join(SERVER_DIST, 'build-stamp.json');

// The import aliases (`paths`) decide what a specifier names, so they are inputs too.
const SHARED = ['packages/shared/src', 'packages/shared/package.json', 'tsconfig.base.json'];
const INPUTS = {
  server: [
    'apps/server/src',
    'apps/server/package.json',
    'apps/server/scripts/build.mjs',
    'apps/server/scripts/build-inputs.mjs',
    'apps/server/tsconfig.json',
    ...SHARED,
  ],
  web: [
    'apps/web/src',
    'apps/web/public',
    'apps/web/scripts',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/scripts',
    'import-graph.ts',
    'apps/web/package.json',
    ...SHARED,
  ],
};

/** Test files are not part of a build; changing one needs none. */
const skipped = (name) => /\.test\.tsx?$/.test(name);

function files(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((d) => !skipped(d.name))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((d) => files(path.join(entry, d.name)));
}

/** SHA-256 over every input's path and content, per part: { server, web }. */
export function inputHashes() {
  const out = {};
  for (const [part, entries] of Object.entries(INPUTS)) {
    const hash = createHash('sha256');
    for (const file of entries.flatMap(files)) {
      hash.update(`${file}\0`);
      hash.update(fs.readFileSync(path.join(ROOT, file)));
      hash.update('\0');
    }
    out[part] = hash.digest('hex');
  }
  return out;
}

/** The parts whose build is missing or made from other sources than these: [] when current. */
export function staleParts(hashes = inputHashes()) {
  let stamp = {};
  try {
    stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    // No stamp: nothing was built here yet (or a build stopped half way).
  }
  const present = {
    server: fs.existsSync(path.join(SERVER_DIST, 'main.js')),
    web: fs.existsSync(path.join(WEB_DIST, 'index.html')),
  };
  return Object.keys(hashes).filter((part) => !present[part] || stamp[part] !== hashes[part]);
}
