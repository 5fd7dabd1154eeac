import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { settled, showTheme } from './app';

/** The widths every screen is judged at: a desktop and a phone. */
export const WALK_VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 375, height: 812 },
] as const;

/** A screen of the walk: where it is, and what shows that its content has arrived. */
export type Screen = {
  name: string;
  path: string;
  ready: (page: Page) => Promise<void>;
};

/** The screen's own h1, once its data has loaded. */
export const heading =
  (name: string | RegExp) =>
  async (page: Page): Promise<void> => {
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  };

/** How far the page is wider than the window, in px (0 when it fits). */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** The serious and critical axe findings on the screen as it is, one line each. */
async function seriousAxeFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.html.slice(0, 100)}`));
}

/**
 * Text of the main content that a fixed element (the phone's floating menu button) is drawn
 * over, at the top of the page and scrolled to its end: the layout must reserve the
 * button's space instead.
 */
async function textUnderFixedElements(page: Page): Promise<string[]> {
  const covered: string[] = [];
  for (const to of ['top', 'bottom'] as const) {
    await page.evaluate(
      (where) => window.scrollTo(0, where === 'top' ? 0 : document.documentElement.scrollHeight),
      to,
    );
    covered.push(
      ...(await page.evaluate(() => {
        const fixed = [...document.querySelectorAll<HTMLElement>('body *')].filter((el) => {
          const style = getComputedStyle(el);
          return (
            style.position === 'fixed' &&
            style.visibility !== 'hidden' &&
            el.offsetWidth > 0 &&
            el.closest('main') === null &&
            el.getBoundingClientRect().height < window.innerHeight / 2
          );
        });
        const boxes = fixed.map((el) => el.getBoundingClientRect());
        const main = document.querySelector('main');
        if (!main || boxes.length === 0) return [];
        const hits: string[] = [];
        const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const text = node.textContent?.trim() ?? '';
          if (text === '') continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) {
            if (r.width === 0 || r.height === 0) continue;
            const hit = boxes.some(
              (b) => r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top,
            );
            if (hit) {
              hits.push(text.slice(0, 60));
              break;
            }
          }
        }
        return hits;
      })),
    );
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return [...new Set(covered)];
}

/**
 * Opens each screen at 1440 and 375 px, in the light and the dark theme, and judges it as a
 * person would: nothing wider than the window, no serious or critical axe finding, and (on
 * the phone) no text under the floating menu. Each screen's four pictures are written to the
 * test's output folder (`screens/<name>-<width>-<theme>.png`) for a look. Every problem of
 * every screen is reported together, by screen, width and theme.
 */
export async function walkScreens(page: Page, screens: readonly Screen[]): Promise<void> {
  const problems: string[] = [];
  await page.emulateMedia({ reducedMotion: 'reduce' });
  for (const viewport of WALK_VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready(page);
      for (const dark of [false, true]) {
        const where = `${screen.name} at ${viewport.width} (${dark ? 'dark' : 'light'})`;
        await showTheme(page, dark);
        await settled(page);
        const overflow = await sidewaysOverflow(page);
        if (overflow > 0) problems.push(`${where}: ${overflow} px wider than the window`);
        for (const finding of await seriousAxeFindings(page)) {
          problems.push(`${where}: axe ${finding}`);
        }
        if (viewport.width < 768) {
          for (const text of await textUnderFixedElements(page)) {
            problems.push(`${where}: "${text}" is under a fixed element`);
          }
        }
        await page.screenshot({
          path: test
            .info()
            .outputPath(
              'screens',
              `${screen.name}-${viewport.width}-${dark ? 'dark' : 'light'}.png`,
            ),
          fullPage: true,
          animations: 'disabled',
        });
      }
    }
  }
  expect(problems, `${screens.length} screens × 2 widths × 2 themes`).toEqual([]);
}
