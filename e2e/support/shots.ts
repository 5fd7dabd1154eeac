import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { settled, showTheme } from './app';

const SIZES = {
  desktop: { width: 1440, height: 900 },
  laptop: { width: 1280, height: 800 },
  mobile: { width: 375, height: 812 },
} as const;

type Size = keyof typeof SIZES;

/**
 * Screenshots for a visual review, only when SHOTS_DIR is set (never in CI): the current
 * screen at the sizes asked (default 1440x900 and 375x812), light and dark, as
 * `<name>-<width>x<height>-<theme>.png`.
 * Viewport and theme are put back afterwards, so the test goes on as before.
 */
export async function snap(
  page: Page,
  name: string,
  sizes: readonly Size[] = ['desktop', 'mobile'],
): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const viewport = page.viewportSize();
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const size of sizes) {
    const { width, height } = SIZES[size];
    await page.setViewportSize({ width, height });
    for (const theme of ['light', 'dark'] as const) {
      await showTheme(page, theme === 'dark');
      await settled(page);
      await page.screenshot({
        path: path.join(dir, `${name}-${width}x${height}-${theme}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    }
  }
  if (viewport) await page.setViewportSize(viewport);
  await showTheme(page, wasDark);
}
