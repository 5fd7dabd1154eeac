/**
 * `npm run bench:web`: Lighthouse (mobile profile, its default simulated slow 4G and CPU
 * slow-down) on the public pages and the signed-in dashboard of the built app, three runs
 * a page, the medians printed beside the targets. Needs `npm run build` first. Prints
 * figures; asserts nothing.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startChildServer } from './child-server';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

type Ready = { port: number; cookie: string };
type Page = { path: string; signedIn: boolean };
type Figures = {
  performance: number;
  lcp: number;
  tbt: number;
  cls: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
};

const PAGES: Page[] = [
  { path: '/', signedIn: false },
  { path: '/auth', signedIn: false },
  { path: '/about', signedIn: false },
  { path: '/welcome', signedIn: false },
  { path: '/dashboard', signedIn: true },
];

function score(value: number | null | undefined): number {
  return Math.round((value ?? 0) * 100);
}

/** One Lighthouse run of `url` in a fresh Chromium (no cache, no state from earlier runs). */
async function measure(url: string, cookie: string | null): Promise<Figures> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      // The session cookie on every request, as a signed-in browser sends it.
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { categories, audits } = result.lhr;
    if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
    return {
      performance: score(categories.performance?.score),
      lcp: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbt: audits['total-blocking-time']?.numericValue ?? Number.NaN,
      cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
      accessibility: score(categories.accessibility?.score),
      bestPractices: score(categories['best-practices']?.score),
      seo: score(categories.seo?.score),
    };
  } finally {
    chrome.kill();
  }
}

/** Lighthouse now and then fails to record a load (NO_NAVSTART): that run is made again. */
async function measureAgainOnFailure(url: string, cookie: string | null): Promise<Figures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, cookie);
    } catch (err) {
      if (attempt === 3) throw err;
      process.stderr.write(
        `${url}: ${err instanceof Error ? err.message : String(err)} (run again)\n`,
      );
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function medians(runs: Figures[]): Figures {
  const of = (key: keyof Figures) => median(runs.map((r) => r[key]));
  return {
    performance: of('performance'),
    lcp: of('lcp'),
    tbt: of('tbt'),
    cls: of('cls'),
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
    seo: of('seo'),
  };
}

/** "81 (≥ 95) MISS": the figure, the target, and whether it is met. */
function cell(text: string, target: string, met: boolean): string {
  return `${text} (${target}) ${met ? 'ok' : 'MISS'}`;
}

function row(page: Page, m: Figures): string[] {
  const perfTarget = page.signedIn ? 90 : 95;
  return [
    page.signedIn ? `${page.path} (signed in)` : page.path,
    cell(String(m.performance), `≥ ${perfTarget}`, m.performance >= perfTarget),
    page.signedIn
      ? `${(m.lcp / 1000).toFixed(1)} s`
      : cell(`${(m.lcp / 1000).toFixed(1)} s`, '≤ 2.0 s', m.lcp <= 2000),
    `${Math.round(m.tbt)} ms`,
    m.cls.toFixed(3),
    cell(String(m.accessibility), '100', m.accessibility === 100),
    cell(String(m.bestPractices), '100', m.bestPractices === 100),
    cell(String(m.seo), '100', m.seo === 100),
  ];
}

function printTable(rows: string[][]): void {
  const head = ['Page', 'Performance', 'LCP', 'TBT', 'CLS', 'Accessibility', 'Best pr.', 'SEO'];
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  for (const r of all) console.log(r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  '));
}

const server = await startChildServer<Ready>('bench/web-server.ts');
try {
  const base = `http://127.0.0.1:${server.ready.port}`;
  const rows: string[][] = [];
  for (const page of PAGES) {
    const runs: Figures[] = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(
        await measureAgainOnFailure(
          `${base}${page.path}`,
          page.signedIn ? server.ready.cookie : null,
        ),
      );
    }
    const m = medians(runs);
    process.stderr.write(`${page.path}: ${JSON.stringify(m)}\n`);
    rows.push(row(page, m));
  }
  console.log(`\nLighthouse ${RUNS} runs a page, mobile, simulated throttling; medians:\n`);
  printTable(rows);
} finally {
  await server.stop();
}
