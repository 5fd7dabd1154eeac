import { expect, test } from '@playwright/test';
import { creditDeposit, expectAccessible, uniqueTxHash } from './support/app';
import { createCustomer, expectDashboard, sidebar, topBar } from './support/flows';
import { expectNotTruncated, lineBreaks } from './support/layout';
import { snap } from './support/shots';

test.describe('dashboard on a desktop (1280 px)', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('shows the fixed sidebar and no menu button', async ({ page }) => {
    const account = await createCustomer(page, 'desktop');

    await expect(topBar(page).getByRole('link', { name: 'Coffer dashboard' })).toBeVisible();
    await expect(topBar(page).getByText(account.email)).toBeVisible();
    await expect(topBar(page).getByRole('status', { name: 'Portfolio total' })).toBeVisible();
    await expect(sidebar(page)).toBeVisible();
    await expect(
      sidebar(page).getByRole('link', { name: 'Dashboard', exact: true }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await expectAccessible(page);

    await sidebar(page).getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await topBar(page).getByRole('link', { name: 'Coffer dashboard' }).click();
    await expectDashboard(page);
  });
});

test.describe('dashboard on a phone (375 px)', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('hides the sidebar; the menu button opens the menu', async ({ page }) => {
    // An address too long for one line of a phone.
    const account = await createCustomer(page, 'alice.nguyen.phone-layout');
    const main = page.getByRole('main');

    // The e-mail under the greeting wraps before the @ (or a dot), never inside a word.
    const email = main.getByText(account.email, { exact: true });
    const { lines, split } = await lineBreaks(email);
    expect(lines, 'the address takes more than one line at 375 px').toBeGreaterThan(1);
    expect(split, 'pieces of the address broken mid-word').toEqual([]);
    // Where the line ends depends on the address's random tail, so narrow the box step by
    // step down to the widest piece: at no width is a piece broken, not even after the
    // hyphen in "phone-layout".
    const widest = await email.evaluate((e) =>
      Math.max(...Array.from(e.children, (piece) => piece.getBoundingClientRect().width)),
    );
    for (let width = 360; width > widest; width -= 8) {
      await email.evaluate((e, w) => {
        if (e.parentElement) e.parentElement.style.maxWidth = `${w}px`;
      }, width);
      expect((await lineBreaks(email)).split, `pieces broken at ${width} px`).toEqual([]);
    }
    await email.evaluate((e) => e.parentElement?.style.removeProperty('max-width'));

    // Each asset's name and network read in full ("USDT · ERC-20", not "USDT · ER…" nor
    // "ERC-" over "20"), even beside a balance as wide as 1,304.19070000 BTC.
    creditDeposit(account.email, 'BTC', '1304.1907', uniqueTxHash());
    await page.reload();
    await expect(main.getByText('1,304.19070000 BTC', { exact: true })).toBeVisible();
    for (const [name, label] of [
      ['Bitcoin', 'BTC · Bitcoin Network'],
      ['Ethereum', 'ETH · Ethereum Network'],
      ['Tether', 'USDT · ERC-20'],
      ['Tether', 'USDT · TRC-20'],
    ] as const) {
      const shown = main.getByText(label, { exact: true });
      await expect(shown).toBeVisible();
      await expectNotTruncated(shown);
      expect(
        (await lineBreaks(shown.locator('span'))).lines,
        `${label}: the network on one line`,
      ).toBe(1);
      await expectNotTruncated(main.getByText(name, { exact: true }).first());
    }
    await snap(page, 'dashboard-phone-labels', ['mobile']);

    await expect(sidebar(page)).toBeHidden();
    const openMenu = page.getByRole('button', { name: 'Open menu' });
    await expect(openMenu).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
    await expectAccessible(page);

    await openMenu.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    for (const entry of ['Dashboard', 'Secret Combination', 'Settings']) {
      await expect(menu.getByRole('link', { name: entry, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'dashboard-menu-open', ['mobile']);

    // Close button, then a menu entry: both close the menu.
    await menu.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
    await openMenu.click();
    await menu.getByRole('link', { name: 'Settings' }).click();
    await expect(menu).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard\/settings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

    // Menu logout goes to the sign-in page.
    await openMenu.click();
    await menu.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByText('Signed out', { exact: true }).first()).toBeVisible();
  });
});
