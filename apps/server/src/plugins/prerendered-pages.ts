import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';

/**
 * The public pages the web build prerendered (`prerendered/` in the build, listed in its
 * `pages.json`): each is answered with its own HTML, content included, so it paints before
 * any script runs. Every other page path keeps the empty shell (index.html) as before.
 */
export type PrerenderedPages = {
  /**
   * Answers `urlPath` (decoded, no query) with its prerendered page, or with the not-found
   * page and 404 when no page of the app lives under its first segment; null leaves the
   * path to the shell. `rawPath` is the path as the browser sent it: the not-found page
   * shows it, as the browser's router does.
   */
  reply(reply: FastifyReply, urlPath: string, rawPath: string): FastifyReply | null;
};

type Manifest = {
  pages: Record<string, string>;
  notFoundPath: string;
  appSegments: string[];
};

const DIR = 'prerendered';

/** As React escapes text, so the page the browser hydrates reads exactly as it was sent. */
function escapeText(text: string): string {
  return text.replace(
    /["&'<>]/g,
    (c) => ({ '"': '&quot;', '&': '&amp;', "'": '&#x27;', '<': '&lt;', '>': '&gt;' })[c] ?? c,
  );
}

function readManifest(distDir: string): Manifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(distDir, DIR, 'pages.json'), 'utf8')) as Manifest;
  } catch {
    // A build from before prerendering: every page path gets the shell.
    return null;
  }
}

export function loadPrerenderedPages(distDir: string): PrerenderedPages | null {
  const manifest = readManifest(distDir);
  if (!manifest) return null;
  const files = new Map<string, string>();
  for (const [pagePath, file] of Object.entries(manifest.pages)) {
    if (pagePath !== manifest.notFoundPath) files.set(pagePath.toLowerCase(), file);
  }
  const notFoundFile = manifest.pages[manifest.notFoundPath];
  // Read once: it is sent with the asked-for path written in, so never as a file.
  const notFoundHtml = notFoundFile
    ? fs.readFileSync(path.join(distDir, DIR, notFoundFile), 'utf8')
    : null;
  const segments = new Set(manifest.appSegments);

  return {
    reply(reply, urlPath, rawPath) {
      // The browser's router matches without regard to case or a trailing slash.
      const key = urlPath.replace(/\/+$/, '').toLowerCase() || '/';
      const file = files.get(key);
      if (file) {
        return reply
          .header('cache-control', 'no-cache')
          .sendFile(`${DIR}/${file}`, { cacheControl: false });
      }
      const first = key.split('/')[1] ?? '';
      if (notFoundHtml === null || segments.has(first)) return null;
      const html = notFoundHtml.replaceAll(manifest.notFoundPath, escapeText(rawPath));
      return reply
        .status(404)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html);
    },
  };
}
