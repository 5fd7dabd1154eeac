import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATH_ALIASES, resolveSpecifier, specifiersOf } from '../../../import-graph';

// Features never import each other or the app layer (the app layer composes them), the
// shared package imports nothing from the apps, and no import climbs two folders where an
// alias names the place.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const FEATURES = path.join(ROOT, 'apps/web/src/features');
const APP = path.join(ROOT, 'apps/web/src/app');
const SHARED = path.join(ROOT, 'packages/shared/src');
const WEB_SRC = path.join(ROOT, 'apps/web/src');
const SOURCE_TREES = ['apps', 'packages', 'e2e', 'bench'].map((t) => path.join(ROOT, t));

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (e) =>
        e.isFile() &&
        /\.tsx?$/.test(e.name) &&
        !/[\\/](node_modules|dist)([\\/]|$)/.test(path.relative(ROOT, e.parentPath)),
    )
    .map((e) => path.join(e.parentPath, e.name));
}

const inside = (dir: string, file: string) => !path.relative(dir, file).startsWith('..');

/** Each import of a file with the file it resolves to, as `file -> specifier`. */
function importsOf(file: string): Array<{ spec: string; target: string | null; line: string }> {
  return specifiersOf(file).map((spec) => ({
    spec,
    target: resolveSpecifier(file, spec),
    line: `${path.relative(ROOT, file)} -> ${spec}`,
  }));
}

describe('import boundaries', () => {
  it('resolves aliased and relative imports alike', () => {
    const file = path.join(WEB_SRC, 'main.tsx');
    expect(resolveSpecifier(file, '@web/app/router')).toBe(path.join(WEB_SRC, 'app/router.tsx'));
    expect(resolveSpecifier(file, './app/router')).toBe(path.join(WEB_SRC, 'app/router.tsx'));
    expect(resolveSpecifier(file, 'react')).toBeNull();
  });

  it('no feature imports another feature', () => {
    const crossings = sourceFiles(FEATURES).flatMap((file) => {
      const own = path.relative(FEATURES, file).split(path.sep)[0];
      return importsOf(file).flatMap(({ target, line }) => {
        if (target === null || !inside(FEATURES, target)) return [];
        return path.relative(FEATURES, target).split(path.sep)[0] === own ? [] : [line];
      });
    });
    expect(crossings).toEqual([]);
  });

  it('no feature imports the app layer (app/ composes features, never the reverse)', () => {
    const offenders = sourceFiles(FEATURES).flatMap((file) =>
      importsOf(file).flatMap(({ target, line }) =>
        target !== null && inside(APP, target) ? [line] : [],
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('packages/shared imports nothing from the apps', () => {
    const offenders = sourceFiles(SHARED).flatMap((file) =>
      importsOf(file).flatMap(({ spec, target, line }) =>
        (target !== null && inside(path.join(ROOT, 'apps'), target)) ||
        /^@coffer\/(server|web)/.test(spec)
          ? [line]
          : [],
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('an import into an aliased folder that climbs two levels uses the alias instead', () => {
    // `@web/components/ui/button` says where the file is; `../../../components/ui/button`
    // says only how far up to climb, and breaks when the importing file moves.
    const offenders = SOURCE_TREES.flatMap(sourceFiles).flatMap((file) =>
      importsOf(file).flatMap(({ spec, target, line }) =>
        spec.startsWith('../../') &&
        target !== null &&
        PATH_ALIASES.some(({ dir }) => inside(dir, target))
          ? [line]
          : [],
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
