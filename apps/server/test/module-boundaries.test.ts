import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importedFiles } from '../../../import-graph';

/**
 * The server's module boundaries, checked on every test run (this is what fails CI when
 * they are crossed). A module is a folder under src/modules; its index.ts is its front
 * door, and other modules import it only through that. The ledger's is the only way to
 * money: nothing outside the ledger's folder reaches its repository or service files.
 *
 * Read from the source text rather than with a dependency graph tool: the ones that read
 * TypeScript need the compiler's JavaScript API, which this project's TypeScript does not
 * ship (decision 0030). The specifiers are found and resolved, aliases included, by
 * import-graph.ts at the root; the test below proves it finds known ones.
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

/** The files a source file imports from this project (relative or aliased), resolved. */
const importsOf = importedFiles;

/** The module a path belongs to ('ledger' for src/modules/ledger/…), or null. */
function moduleOf(file: string): string | null {
  const rel = path.relative(MODULES, file);
  if (rel.startsWith('..')) return null;
  return rel.split(path.sep)[0] ?? null;
}

const isFrontDoor = (file: string) => path.basename(file) === 'index.ts';

/**
 * A node of the import graph the circle check walks: a module (its folder's name), or one of
 * the wiring files directly in src (app-services.ts, app.ts, config.ts, jobs.ts, …); null
 * for the shared ground under src/lib, src/plugins and src/db, which the graph leaves out.
 */
function nodeOf(file: string): string | null {
  const module = moduleOf(file);
  if (module !== null) return module;
  const rel = path.relative(SRC, file);
  return rel.startsWith('..') || rel.includes(path.sep) ? null : rel;
}

const allFiles = [...tsFiles(SRC), ...tsFiles(path.join(SERVER, 'test'))];

/**
 * A statement sent to the database: `.query(` or `.query<Row>(`, on a pool, a client or a
 * connection. `request.query` (a route's query string) is no call and does not match.
 */
const QUERY_CALL = /\.query\s*(?:<|\()/;

/** Where a file sends a statement, as `path:line`, lines numbered from 1. */
function queryCallsIn(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) =>
      QUERY_CALL.test(line) ? [`${path.relative(SERVER, file)}:${i + 1}`] : [],
    );
}

describe('server module boundaries', () => {
  it('finds the imports it judges', () => {
    const money = importsOf(path.join(SRC, 'app-services-money.ts'));
    expect(money).toContain(path.join(MODULES, 'ledger', 'index.ts'));
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

  it('only repositories send SQL from a module (decision 0029)', () => {
    const outside = tsFiles(MODULES)
      .filter((file) => !file.endsWith('.test.ts') && !file.endsWith('.repository.ts'))
      .flatMap(queryCallsIn);
    expect(outside).toEqual([]);
  });

  it('finds the statements it judges', () => {
    expect(QUERY_CALL.test("await pool.query('SELECT 1')")).toBe(true);
    expect(QUERY_CALL.test('const { rows } = await client.query<{ n: number }>(')).toBe(true);
    expect(QUERY_CALL.test('service.list(request.query)')).toBe(false);
    expect(
      queryCallsIn(path.join(MODULES, 'ledger', 'ledger.repository.ts')).length,
    ).toBeGreaterThan(0);
  });

  it('modules and the wiring beside them do not import each other in a circle', () => {
    const edges = new Map<string, Set<string>>();
    for (const file of allFiles) {
      const from = nodeOf(file);
      if (from === null || file.endsWith('.test.ts')) continue;
      for (const target of importsOf(file)) {
        const to = nodeOf(target);
        if (to === null || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)?.add(to);
      }
    }
    // The composition root (app-services.ts and the area builders beside it) is judged like
    // any module: it imports nearly every module, so a module that imports it back (for the
    // type of the whole service set) closes a circle.
    expect(edges.get('app-services.ts')).toContain('app-services-money.ts');
    expect(edges.get('app-services-money.ts')).toContain('ledger');
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('names the circle it finds', () => {
    const edges = new Map([
      ['app-services.ts', new Set(['auth', 'ledger'])],
      ['auth', new Set(['sessions'])],
      ['sessions', new Set(['app-services.ts'])],
      ['ledger', new Set<string>()],
    ]);
    expect(cyclesOf(edges)).toEqual(['app-services.ts → auth → sessions → app-services.ts']);
  });
});
