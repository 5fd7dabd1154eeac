import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importedFiles } from '../../../import-graph';

/**
 * No import cycles anywhere: between any two production files of the server, the web app or
 * the shared package, type-only imports included (a cycle of types still ties two files so
 * that neither can be read, moved or split without the other).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const TREES = ['apps/server/src', 'apps/web/src', 'packages/shared/src'].map((t) =>
  path.join(ROOT, t),
);

function productionFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('import cycles', () => {
  it('finds a cycle when there is one', () => {
    const planted = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cyclesOf(planted)).toEqual(['a.ts → b.ts → c.ts → a.ts']);
  });

  it('no production file of the server, the web app or the shared package is in a cycle', () => {
    const edges = new Map<string, string[]>();
    for (const tree of TREES) {
      for (const file of productionFiles(tree)) {
        edges.set(
          path.relative(ROOT, file),
          importedFiles(file).map((f) => path.relative(ROOT, f)),
        );
      }
    }
    expect(edges.size).toBeGreaterThan(400);
    expect(cyclesOf(edges)).toEqual([]);
  });
});
