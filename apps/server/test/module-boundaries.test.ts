import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's module boundaries, checked on every test run (this is what fails CI when
 * they are crossed). A module is a folder under src/modules; its index.ts is its front
 * door, and other modules import it only through that. The ledger's is the only way to
 * money: nothing outside the ledger's folder reaches its repository or service files.
 *
 * Read from the source text rather than with a dependency graph tool: the ones that read
 * TypeScript need the compiler's JavaScript API, which this project's TypeScript does not
 * ship. Every import form the code base uses is a quoted specifier after `from`, `import`
 * or `import(`, so a pattern finds them all; the test below proves it finds known ones.
 */
const SRC = path.resolve(import.meta.dirname, '../src');
const MODULES = path.join(SRC, 'modules');
const SERVER = path.resolve(import.meta.dirname, '..');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** The files a source file imports from this server (relative specifiers), resolved. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const spec = match[1];
    if (!spec?.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), spec);
    const candidates = [`${base}.ts`, path.join(base, 'index.ts'), base];
    out.push(candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? base);
  }
  return out;
}

/** The module a path belongs to ('ledger' for src/modules/ledger/…), or null. */
function moduleOf(file: string): string | null {
  const rel = path.relative(MODULES, file);
  if (rel.startsWith('..')) return null;
  return rel.split(path.sep)[0] ?? null;
}

const isFrontDoor = (file: string) => path.basename(file) === 'index.ts';

const allFiles = [...tsFiles(SRC), ...tsFiles(path.join(SERVER, 'test'))];

describe('server module boundaries', () => {
  it('finds the imports it judges', () => {
    const app = importsOf(path.join(SRC, 'app-services.ts'));
    expect(app).toContain(path.join(MODULES, 'ledger', 'index.ts'));
    expect(allFiles.length).toBeGreaterThan(100);
  });

  it('modules import each other only through index.ts', () => {
    const crossings: string[] = [];
    for (const file of allFiles) {
      const from = moduleOf(file);
      if (from === null) continue;
      for (const target of importsOf(file)) {
        const to = moduleOf(target);
        if (to !== null && to !== from && !isFrontDoor(target)) {
          crossings.push(`${path.relative(SERVER, file)} → ${path.relative(SERVER, target)}`);
        }
      }
    }
    expect(crossings).toEqual([]);
  });

  it('nothing outside the ledger reaches past its front door', () => {
    const crossings: string[] = [];
    for (const file of allFiles) {
      if (moduleOf(file) === 'ledger') continue;
      for (const target of importsOf(file)) {
        if (moduleOf(target) === 'ledger' && !isFrontDoor(target)) {
          crossings.push(`${path.relative(SERVER, file)} → ${path.relative(SERVER, target)}`);
        }
      }
    }
    expect(crossings).toEqual([]);
  });

  it('front doors do not import each other in a circle', () => {
    // Module → modules its files import, through their front doors.
    const edges = new Map<string, Set<string>>();
    for (const file of allFiles) {
      const from = moduleOf(file);
      if (from === null || file.endsWith('.test.ts')) continue;
      for (const target of importsOf(file)) {
        const to = moduleOf(target);
        if (to === null || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)?.add(to);
      }
    }
    const cycles: string[] = [];
    const visit = (node: string, trail: string[]) => {
      if (trail.includes(node)) {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(' → '));
        return;
      }
      for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
    };
    for (const node of edges.keys()) visit(node, []);
    expect([...new Set(cycles)]).toEqual([]);
  });
});
