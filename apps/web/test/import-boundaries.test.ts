import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// features never import each other (the app layer composes them), and the
// shared package imports nothing from the apps.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const FEATURES = path.join(ROOT, 'apps/web/src/features');
const SHARED = path.join(ROOT, 'packages/shared/src');
const WEB_SRC = path.join(ROOT, 'apps/web/src');

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
}

describe('import boundaries', () => {
  it('no feature imports another feature', () => {
    const crossings: string[] = [];
    for (const file of sourceFiles(FEATURES)) {
      const own = path.relative(FEATURES, file).split(path.sep)[0];
      for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
        const target = path.relative(FEATURES, path.resolve(path.dirname(file), spec));
        const feature = target.startsWith('..') ? null : target.split(path.sep)[0];
        if (feature && feature !== own) crossings.push(`${path.relative(ROOT, file)} -> ${spec}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('no feature imports the app layer (app/ composes features, never the reverse)', () => {
    const APP = path.join(ROOT, 'apps/web/src/app');
    const offenders: string[] = [];
    for (const file of sourceFiles(FEATURES)) {
      for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
        const target = path.resolve(path.dirname(file), spec);
        if (!path.relative(APP, target).startsWith('..'))
          offenders.push(`${path.relative(ROOT, file)} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('packages/shared imports nothing from the apps', () => {
    const offenders = sourceFiles(SHARED).filter((f) =>
      importsOf(f).some(
        (s) => s.includes('apps/') || s.startsWith('@coffer/server') || s.startsWith('@coffer/web'),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('query keys come from the key factories, never a literal array where they are used', () => {
    // A key written out by hand drifts from the one a mutation refreshes: the screen then
    // shows stale figures without any error. Keys live in each feature's api/keys.ts and in
    // lib (query-keys.ts, money/keys.ts).
    const literal = /queryKey:\s*\[/;
    const offenders = sourceFiles(WEB_SRC)
      .filter((f) => literal.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f));
    expect(offenders).toEqual([]);
  });
});
