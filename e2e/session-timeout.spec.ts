import { expect, type Page, test } from '@playwright/test';
import { query } from './support/db';
import { createCustomer, toasts } from './support/flows';

/** The server's notion of the customer's last activity, moved `minutes` back. */
async function idleFor(email: string, minutes: number): Promise<void> {
  const rows = await query(
    `UPDATE sessions s SET last_seen_at = now() - make_interval(mins => $2)
       FROM users u WHERE u.id = s.user_id AND u.email = $1 RETURNING s.id`,
    [email, minutes],
  );
  expect(rows).toHaveLength(1);
}

async function minutesIdle(email: string): Promise<number | null> {
  const rows = await query<{ minutes: number }>(
    `SELECT EXTRACT(EPOCH FROM now() - s.last_seen_at)::float8 / 60 AS minutes
       FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
    [email],
  );
  return rows[0]?.minutes ?? null;
}

/**
 * Moves the tab's clock `minutes` on while the server's last activity is moved back as
 * far: the tab's clock is stopped first, so none of its polls reaches the server between
 * the two moves, and 15 s pass before, so the last click no longer counts as activity.
 */
async function letTimePass(page: Page, email: string, minutes: number): Promise<void> {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 15_000);
  await idleFor(email, minutes);
  await page.clock.fastForward(minutes * 60_000);
  await page.clock.resume();
}

test('a minute before the idle timeout the tab warns, Stay signed in keeps the session, and a lapse signs out with the reason', async ({
  page,
}) => {
  await page.clock.install();
  const account = await createCustomer(page, 'idle');
  const warning = page.getByRole('dialog', { name: 'Are you still there?' });

  // 29 minutes of the page polling on its own: the warning, and the polls kept nothing alive.
  await letTimePass(page, account.email, 29);
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('you will be signed out in');
  expect(await minutesIdle(account.email)).toBeGreaterThan(28.9);

  await warning.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(warning).toBeHidden();
  expect(await minutesIdle(account.email)).toBeLessThan(1);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Another 31 minutes without activity: signed out, on the sign-in page, told why.
  await letTimePass(page, account.email, 31);
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/);
  await expect(toasts(page)).toContainText(
    'You were signed out after 30 minutes without activity.',
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  expect(await minutesIdle(account.email)).toBeNull();
});
