import { expect, type Locator, type Page } from '@playwright/test';
import { settled } from './app';

/** The sticky bar across the top of the portal (logo, total, e-mail and Logout). */
function topBar(page: Page): Locator {
  return page.getByRole('banner');
}

/** Every toast on screen sits wholly below the top bar: none covers its e-mail or Logout. */
export async function expectToastsBelowTopBar(page: Page): Promise<void> {
  const bar = await topBar(page).boundingBox();
  if (!bar) throw new Error('no top bar on screen');
  const toasts = page.locator('[data-sonner-toast][data-removed="false"]');
  await expect(toasts.first()).toBeVisible();
  // Where they come to rest, not where they slide in from.
  await settled(page);
  for (const toast of await toasts.all()) {
    const box = await toast.boundingBox();
    if (!box) continue;
    expect(box.y, 'a toast starts below the top bar').toBeGreaterThanOrEqual(bar.y + bar.height);
  }
}

/** The element needs no sideways scrolling: its content fits its width. */
export async function expectNoSidewaysScroll(locator: Locator): Promise<void> {
  const overflow = await locator.evaluate((e) => e.scrollWidth - e.clientWidth);
  expect(overflow, 'content wider than its box, in px').toBeLessThanOrEqual(0);
}

/**
 * Each element's text is on one line and inside it: nothing wraps onto a second line or
 * spills past its edges (a button label, an amount with its symbol).
 */
export async function expectOnOneLine(locator: Locator): Promise<void> {
  for (const element of await locator.all()) {
    const fit = await element.evaluate((e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      const lines = new Set(
        Array.from(range.getClientRects())
          .filter((r) => r.width > 0)
          .map((r) => Math.round(r.top)),
      );
      return {
        text: e.textContent ?? '',
        lines: lines.size,
        spill: e.scrollWidth - e.clientWidth,
      };
    });
    expect(fit.lines, `"${fit.text}" on one line`).toBe(1);
    expect(fit.spill, `"${fit.text}" inside its box`).toBeLessThanOrEqual(0);
  }
}

/** How far the element sits below the top edge of its nearest bordered box (a card). */
export async function textInsetFromBorder(locator: Locator): Promise<number> {
  return locator.evaluate((e) => {
    let box: Element | null = e.parentElement;
    while (box && getComputedStyle(box).borderTopWidth === '0px') box = box.parentElement;
    if (!box) throw new Error('no bordered box around the text');
    return e.getBoundingClientRect().top - box.getBoundingClientRect().top;
  });
}

/**
 * How the element's text is laid out in lines: the number of lines, and the pieces of text
 * (the text nodes) that were broken across two lines. An e-mail address set as EmailText
 * breaks only between its pieces, before the @ or a dot.
 */
export async function lineBreaks(locator: Locator): Promise<{ lines: number; split: string[] }> {
  return locator.evaluate((e) => {
    const tops = (range: Range) =>
      new Set(
        Array.from(range.getClientRects())
          .filter((r) => r.width > 0)
          .map((r) => Math.round(r.top)),
      );
    const whole = document.createRange();
    whole.selectNodeContents(e);
    const split: string[] = [];
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      if (tops(range).size > 1) split.push(node.textContent ?? '');
    }
    return { lines: tops(whole).size, split };
  });
}

/** The element shows all its text: nothing cut off with an ellipsis or hidden past its edge. */
export async function expectNotTruncated(locator: Locator): Promise<void> {
  for (const element of await locator.all()) {
    const cut = await element.evaluate((e) => ({
      text: e.textContent ?? '',
      hidden: e.scrollWidth - e.clientWidth,
    }));
    expect(cut.hidden, `"${cut.text}" shown whole`).toBeLessThanOrEqual(0);
  }
}
