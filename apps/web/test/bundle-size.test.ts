import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Reads the production build (npm test builds before it runs the unit tests) and adds up
// every JavaScript file a page loads (the entry, the page's own chunk, and all the chunks
// they import statically) as a browser receives it: the brotli copy the build wrote beside
// each file the server sends to every current browser, or the file itself when it has none.
const DIST = path.resolve(import.meta.dirname, '../dist');

type Chunk = { file: string; imports?: string[]; isEntry?: boolean };
type Manifest = Record<string, Chunk>;

function readManifest(): Manifest {
  const file = path.join(DIST, '.vite/manifest.json');
  if (!fs.existsSync(file))
    throw new Error('No web build: run `npm run build` first (npm test does).');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** The bytes the server sends for `file` to a browser that accepts brotli. */
function servedBytes(file: string): number {
  const full = path.join(DIST, file);
  return fs.statSync(fs.existsSync(`${full}.br`) ? `${full}.br` : full).size;
}

/** The JavaScript files a page loads: its roots and every chunk they import statically. */
function scriptsOf(manifest: Manifest, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const root of roots) visit(root);
  return [...seen].filter((file) => file.endsWith('.js'));
}

function servedKb(scripts: string[]): number {
  return scripts.reduce((bytes, file) => bytes + servedBytes(file), 0) / 1024;
}

const LANDING = ['index.html', 'src/features/marketing/components/landing-page.tsx'];
const DASHBOARD = [
  'index.html',
  'src/app/layouts/portal-layout.tsx',
  'src/features/dashboard/components/dashboard-page.tsx',
];

// The ceilings are about a tenth over the build measured when they were set (landing page
// 105.7 KB, dashboard 155.9 KB; 94.6 KB and 155.3 KB since decision 0035): room for a
// feature, not for an accidental heavy import.
describe('production bundle size', () => {
  it('keeps the public landing page at or under 115 KB of JavaScript on the wire', () => {
    const kb = servedKb(scriptsOf(readManifest(), LANDING));
    console.info(`landing page JavaScript: ${kb.toFixed(1)} KB served (brotli)`);
    expect(kb).toBeGreaterThan(20);
    expect(kb).toBeLessThanOrEqual(115);
  });

  it('keeps the portal dashboard at or under 170 KB of JavaScript on the wire', () => {
    const kb = servedKb(scriptsOf(readManifest(), DASHBOARD));
    console.info(`dashboard JavaScript: ${kb.toFixed(1)} KB served (brotli)`);
    expect(kb).toBeGreaterThan(50);
    expect(kb).toBeLessThanOrEqual(170);
  });

  // Every file is a round trip on a phone's connection: small shared parts are copied into the
  // pages' chunks (decision 0035). Before, the landing page loaded 17 files and the
  // dashboard 51; now 7 and 11.
  it('loads the landing page in at most 10 JavaScript files and the dashboard in at most 16', () => {
    const manifest = readManifest();
    const landing = scriptsOf(manifest, LANDING).length;
    const dashboard = scriptsOf(manifest, DASHBOARD).length;
    console.info(`JavaScript files: landing page ${landing}, dashboard ${dashboard}`);
    expect(landing).toBeLessThanOrEqual(10);
    expect(dashboard).toBeLessThanOrEqual(16);
  });
});
