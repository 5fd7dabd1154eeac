import fs from 'node:fs';
import path from 'node:path';

/**
 * The project's import graph, for the tools that need it: the import aliases for Vite and
 * Vitest, and the specifiers, resolution and cycle search the import-boundary tests judge
 * (`npm run lint`). Read from the source text: the graph tools that read TypeScript need
 * the compiler's JavaScript API, which this project's TypeScript does not ship (decision
 * 0030).
 *
 * The aliases (`@server/…`, `@web/…`, `@server-test/…`) are declared once, in `paths` of
 * tsconfig.base.json: TypeScript, esbuild and tsx read that file themselves; the rest take
 * them from here as absolute folders.
 */
const base: { compilerOptions: { paths: Record<string, string[]> } } = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'tsconfig.base.json'), 'utf8'),
);

export const PATH_ALIASES: ReadonlyArray<{ prefix: string; dir: string }> = Object.entries(
  base.compilerOptions.paths,
).map(([pattern, [target = '']]) => ({
  prefix: pattern.replace(/\*$/, ''),
  dir: path.resolve(import.meta.dirname, target.replace(/\*$/, '')),
}));

/** The aliases in Vite's `resolve.alias` form. */
export const viteAliases = PATH_ALIASES.map(({ prefix, dir }) => ({
  find: new RegExp(`^${prefix.replace(/[/-]/g, '\\$&')}`),
  replacement: `${dir}/`,
}));

/**
 * Every module specifier a source file names: after `from`, `import` or `import(`. Every
 * import form the code base uses is one of these, so a pattern finds them all (the boundary
 * tests prove it on known imports); no graph tool is needed.
 */
export function specifiersOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map(
    (match) => match[1] ?? '',
  );
}

/**
 * The source file a specifier names, relative (`./x`) or aliased (`@server/x`), resolved as
 * the bundlers do (`.ts`, `.tsx`, then a folder's index); null for a package's import or
 * a path that names no file.
 */
export function resolveSpecifier(fromFile: string, spec: string): string | null {
  const alias = PATH_ALIASES.find(({ prefix }) => spec.startsWith(prefix));
  let base: string;
  if (alias) base = path.join(alias.dir, spec.slice(alias.prefix.length));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(fromFile), spec);
  else return null;
  base = base.replace(/\.js$/, '');
  const candidates = [
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
    base,
  ];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

/** The project's own files a source file imports, resolved. */
export function importedFiles(file: string): string[] {
  return specifiersOf(file).flatMap((spec) => resolveSpecifier(file, spec) ?? []);
}

/**
 * Every cycle a depth-first walk of an import graph meets, each named by its nodes in import
 * order (`a → b → c → a`), so a failure says which import to undo. Nodes are visited in
 * sorted order, so the report is the same on every run.
 */
export function cyclesOf(edges: ReadonlyMap<string, Iterable<string>>): string[] {
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
    for (const next of [...(edges.get(node) ?? [])].sort()) visit(next);
    trail.pop();
    state.set(node, 'done');
  };
  for (const node of [...edges.keys()].sort()) visit(node);
  return cycles;
}
