import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// Reads the production build (npm test builds before it runs the unit tests) and adds up,
// gzipped, every JavaScript file a page loads: the entry, the page's own chunk, and all
// the chunks they import statically.
const DIST = path.resolve(import.meta.dirname, '../dist');

type Chunk = { file: string; imports?: string[]; isEntry?: boolean };
type Manifest = Record<string, Chunk>;

function readManifest(): Manifest {
  const file = path.join(DIST, '.vite/manifest.json');
  if (!fs.existsSync(file))
    throw new Error('No web build: run `npm run build` first (npm test does).');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

function gzippedKb(manifest: Manifest, roots: string[]): number {
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const root of roots) visit(root);
  let bytes = 0;
  for (const file of seen) {
    if (file.endsWith('.js')) bytes += gzipSync(fs.readFileSync(path.join(DIST, file))).length;
  }
  return bytes / 1024;
}

describe('production bundle size', () => {
  it('keeps the public landing page at or under 120 KB of gzipped JavaScript', () => {
    const manifest = readManifest();
    const kb = gzippedKb(manifest, [
      'index.html',
      'src/features/marketing/components/landing-page.tsx',
    ]);
    console.info(`landing page JavaScript: ${kb.toFixed(1)} KB gzipped`);
    expect(kb).toBeGreaterThan(20);
    expect(kb).toBeLessThanOrEqual(120);
  });

  it('keeps the portal dashboard at or under 250 KB of gzipped JavaScript', () => {
    const manifest = readManifest();
    const kb = gzippedKb(manifest, [
      'index.html',
      'src/app/layouts/portal-layout.tsx',
      'src/features/dashboard/components/dashboard-page.tsx',
    ]);
    console.info(`dashboard JavaScript: ${kb.toFixed(1)} KB gzipped`);
    expect(kb).toBeGreaterThan(50);
    expect(kb).toBeLessThanOrEqual(250);
  });
});
