import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import cycles anywhere: between any two production files of the server, the web app or
 * the shared package, type-only imports included (a cycle of types still ties two files so
 * that neither can be read, moved or split without the other). Read from the source text,
 * as the other boundary checks are: the project's TypeScript ships no JavaScript compiler API
 * for a graph tool to use.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const TREES = ['apps/server/src', 'apps/web/src', 'packages/shared/src'].map((t) =>
  path.join(ROOT, t),
);
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function productionFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The files of these trees a file imports by a relative path, resolved. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const spec = match[1];
    if (!spec?.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), spec.replace(/\.js$/, ''));
    const found = [
      `${base}.ts`,
      `${base}.tsx`,
      path.join(base, 'index.ts'),
      path.join(base, 'index.tsx'),
    ].find((c) => fs.existsSync(c));
    if (found) out.push(found);
  }
  return out;
}

/** Every cycle a depth-first walk meets, named by its files in import order. */
export function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const cycles: string[] = [];
  const visit = (node: string) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(' → '));
      return;
    }
    state.set(node, 'open');
    trail.push(node);
    for (const next of edges.get(node) ?? []) visit(next);
    trail.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) visit(node);
  return cycles;
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
          importsOf(file).map((f) => path.relative(ROOT, f)),
        );
      }
    }
    expect(edges.size).toBeGreaterThan(400);
    expect(cyclesOf(edges)).toEqual([]);
  });
});
