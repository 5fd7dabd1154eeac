import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

/**
 * The second half of the web build: the public pages rendered to HTML with their content
 * (src/prerender.tsx, built for Node into a scratch folder), each written into the built
 * index.html's root as `dist/prerendered/<page>.html`, with `pages.json` telling the server
 * which file answers which path. index.html itself stays the empty shell the portal and
 * back office start from.
 */

const WEB = path.resolve(import.meta.dirname, '..');
const DIST = path.join(WEB, 'dist');
// In the system's temp directory: a failed build leaves nothing in the source tree.
const SCRATCH = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-prerender-'));
const OUT = path.join(DIST, 'prerendered');

await build({
  root: WEB,
  mode: 'production',
  logLevel: 'warn',
  build: {
    ssr: 'src/prerender.tsx',
    outDir: SCRATCH,
    emptyOutDir: true,
    manifest: false,
  },
  // Bundled whole, packages included: the scratch folder has no node_modules beside it.
  ssr: { noExternal: true },
});

try {
  const entry = await import(pathToFileURL(path.join(SCRATCH, 'prerender.js')).href);
  const shell = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const ROOT_DIV = '<div id="root"></div>';
  if (!shell.includes(ROOT_DIV)) throw new Error(`index.html has no ${ROOT_DIV}`);

  // The prerendered pages start the app's script after their first paint (public/start-app.js),
  // and preload none of its chunks: they would compete with the stylesheet for the network.
  const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
  const entryFile = shell.match(ENTRY)?.[1];
  if (!entryFile) throw new Error('index.html has no entry script');
  const pageShell = shell
    .replace(ENTRY, `<script src="/start-app.js" data-entry="${entryFile}" defer></script>`)
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '');

  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const pages = {};
  for (const { path: pagePath, file } of entry.PAGES) {
    const html = await entry.renderPage(pagePath);
    // React puts what belongs in <head> first (the page's <title>, preloads): it goes there,
    // before the shell's <title>, which stays for the pages that set none once React takes
    // the page's own away (as it does in the browser when the visitor moves on).
    const head = html.match(/^(?:<link[^>]*\/>|<meta[^>]*\/>|<title>[^<]*<\/title>)*/)?.[0] ?? '';
    const body = html.slice(head.length);
    const page = pageShell
      .replace(/<title>[^<]*<\/title>/, (title) => `${head}${title}`)
      .replace(ROOT_DIV, () => `<div id="root">${body}</div>`);
    fs.writeFileSync(path.join(OUT, file), page);
    pages[pagePath] = file;
  }
  const manifest = {
    pages,
    notFoundPath: entry.NOT_FOUND_PATH,
    appSegments: entry.appSegments(),
  };
  fs.writeFileSync(path.join(OUT, 'pages.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`Prerendered ${Object.keys(pages).length} public pages.`);
} finally {
  fs.rmSync(SCRATCH, { recursive: true, force: true });
}
