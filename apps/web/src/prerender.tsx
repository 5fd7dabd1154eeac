import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppProvider } from './app/provider';
import { AppRoutes, routes } from './app/router';

/**
 * The build's entry for the public pages: each is rendered here once, to HTML with its
 * real content, so a visitor sees the page before any script has run. The tree is the one
 * main.tsx hydrates, with the build's router in place of the browser's. Figures that come
 * from the server (staking rate, live figures) are placeholders in this HTML.
 */

/** A path no page has: the not-found page is rendered for it, and the server puts the asked-for path in its place. */
export const NOT_FOUND_PATH = '/coffer-not-found-path';

/** The prerendered pages: the path, and the file it is written to. */
export const PAGES: { path: string; file: string }[] = [
  { path: '/', file: 'home.html' },
  { path: '/about', file: 'about.html' },
  { path: '/welcome', file: 'welcome.html' },
  { path: '/auth', file: 'auth.html' },
  { path: '/reset-password', file: 'reset-password.html' },
  { path: NOT_FOUND_PATH, file: '404.html' },
];

/** The page at `location` as HTML, every lazy page module loaded into it. */
export async function renderPage(location: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <AppProvider>
        <StaticRouter location={location}>
          <AppRoutes />
        </StaticRouter>
      </AppProvider>
    </StrictMode>,
  );
  return new Response(prelude).text();
}

/**
 * The first path segments the app has pages under (`dashboard`, `auth`, …; '' for `/`): a
 * path under none of them is the not-found page, which the server can then answer with 404.
 */
export function appSegments(): string[] {
  const segments = new Set<string>();
  const walk = (list: typeof routes) => {
    for (const route of list) {
      if (route.path && route.path !== '*') {
        segments.add(route.path.split('/')[1]?.toLowerCase() ?? '');
      }
      if (route.children) walk(route.children);
    }
  };
  walk(routes);
  return [...segments].sort();
}
