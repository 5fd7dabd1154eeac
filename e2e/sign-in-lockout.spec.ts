import { expect, test } from '@playwright/test';
import { expectAccessible, ownAddress } from './support/app';
import {
  createCustomer,
  expectDashboard,
  signIn,
  signOutFromMenu,
  verifyWithCode,
} from './support/flows';
import { snap } from './support/shots';

test("a stranger's wrong passwords keep strangers out, not the customer's own browser", async ({
  page,
  browser,
}) => {
  // Signed in once from this browser: it holds the account's device cookie.
  const account = await createCustomer(page, 'lockout');
  const origin = new URL(page.url()).origin;
  await signOutFromMenu(page);

  // Someone elsewhere guesses at the account until it is locked for strangers.
  const stranger = await browser.newContext();
  await ownAddress(stranger);
  const guess = () =>
    stranger.request.post('/api/auth/sign-in', {
      data: { email: account.email, password: 'Not-the-password-9' },
      headers: { origin },
    });
  for (let i = 0; i < 10; i++) expect((await guess()).status()).toBe(401);
  expect((await guess()).status()).toBe(429);
  await stranger.close();

  // A browser Coffer has not seen waits, even with the right password.
  const newLaptop = await browser.newContext();
  await ownAddress(newLaptop);
  const laptop = await newLaptop.newPage();
  await signIn(laptop, account.email);
  await expect(laptop.getByRole('alert')).toHaveText(
    'Too many attempts. Please wait 15 minutes and try again.',
  );
  await expect(laptop).toHaveURL(/\/auth$/);
  await expectAccessible(laptop);
  await snap(laptop, 'sign-in-locked-for-unknown-browser');
  await newLaptop.close();

  // The customer's own browser signs in as ever, and passes the second factor.
  await signIn(page, account.email);
  await verifyWithCode(page, account.secret, account.lastCode);
  await expectDashboard(page);
});
