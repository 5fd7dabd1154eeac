/**
 * `npm run bench:web`: Lighthouse (mobile profile, its default simulated slow 4G and CPU
 * slow-down) on the public pages and the signed-in dashboard of the built app, three runs
 * a page, the medians printed beside the targets. Needs `npm run build` first. Prints
 * figures; asserts nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startChildServer } from './child-server';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Only the pages whose path contains this text (e.g. `BENCH_WEB_ONLY=dashboard`); all if unset. */
const ONLY = process.env.BENCH_WEB_ONLY ?? '';
/** A folder to keep every run's full Lighthouse report in (JSON), to read what a score lost. */
const REPORTS = process.env.BENCH_WEB_REPORTS ?? '';

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
  /** The SEO audits that did not pass, by id: what a score under 100 lost. */
  seoLost: string[];
};

/**
 * A signed-in page is disallowed in robots.txt, as it should be: no search engine may list
 * it. Lighthouse counts that against SEO ("is-crawlable"), so the dashboard's SEO target is
 * every other SEO audit passing (decision 0035).
 */
const KEPT_OUT_OF_SEARCH = 'is-crawlable';

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
    const seoLost = (categories.seo?.auditRefs ?? [])
      .filter((ref) => {
        const audit = audits[ref.id];
        return audit && ref.weight > 0 && audit.score !== null && audit.score < 1;
      })
      .map((ref) => ref.id);
    if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
    if (REPORTS) keepReport(url, result.report);
    return {
      performance: score(categories.performance?.score),
      lcp: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbt: audits['total-blocking-time']?.numericValue ?? Number.NaN,
      cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
      accessibility: score(categories.accessibility?.score),
      bestPractices: score(categories['best-practices']?.score),
      seo: score(categories.seo?.score),
      seoLost,
    };
  } finally {
    chrome.kill();
  }
}

function keepReport(url: string, report: string | string[]): void {
  fs.mkdirSync(REPORTS, { recursive: true });
  const name = new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'landing';
  const file = path.join(REPORTS, `${name}-${Date.now()}.json`);
  fs.writeFileSync(file, Array.isArray(report) ? report.join('\n') : report);
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
  const of = (key: Exclude<keyof Figures, 'seoLost'>) => median(runs.map((r) => r[key]));
  return {
    performance: of('performance'),
    lcp: of('lcp'),
    tbt: of('tbt'),
    cls: of('cls'),
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
    seo: of('seo'),
    seoLost: [...new Set(runs.flatMap((r) => r.seoLost))],
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
    page.signedIn
      ? cell(
          `${m.seo} (${m.seoLost.join(', ') || 'none lost'})`,
          `all but ${KEPT_OUT_OF_SEARCH}`,
          m.seoLost.every((id) => id === KEPT_OUT_OF_SEARCH),
        )
      : cell(
          `${m.seo}${m.seoLost.length ? ` (${m.seoLost.join(', ')})` : ''}`,
          '100',
          m.seo === 100,
        ),
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
  for (const page of PAGES.filter((p) => p.path.includes(ONLY))) {
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
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `\nLighthouse ${RUNS} runs a page, mobile, simulated throttling; medians (load average ${load}):\n`,
  );
  printTable(rows);
} finally {
  await server.stop();
}
