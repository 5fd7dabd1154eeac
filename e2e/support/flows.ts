import { expect, type Locator, type Page, test } from '@playwright/test';
import { totpAt } from '../../apps/server/test/totp-reference';
import { createAdmin, freshCode, linkIn, mailTo, ownAddress, PASSWORD, uniqueEmail } from './app';

/** What the forced 2FA setup shows once: the secret key, the recovery phrase and the backup codes. */
export type SetupScreen = { secret: string; phrase: string[]; backupCodes: string[] };

/** A customer who went through sign-up, e-mail confirmation and 2FA setup in the browser. */
export type Account = SetupScreen & {
  email: string;
  password: string;
  /** The client address the account signed up and signed in from (see ownAddress). */
  address: string;
  /** The last authenticator code the server accepted; the same code is refused a second time. */
  lastCode: string;
};

/** A 12-word phrase that is valid BIP-39 but belongs to nobody. */
export const FOREIGN_PHRASE =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

export function emailField(page: Page): Locator {
  return page.getByLabel('Email', { exact: true });
}

/** The password field only: "Show password" is a button whose label also says password. */
export function passwordField(page: Page): Locator {
  return page.getByLabel('Password', { exact: true });
}

/** Fills the sign-in form of the current /auth page and submits it. */
export async function submitSignIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Opens /auth and signs in. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/auth');
  await submitSignIn(page, email, password);
}

/** Creates an account on /auth?mode=signup; the page then switches to sign-in. */
export async function signUp(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/auth?mode=signup');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created!', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
}

/** Opens the link of the confirmation e-mail from the server's outbox. */
export async function confirmEmail(page: Page, email: string): Promise<void> {
  const link = linkIn(await mailTo(email));
  expect(link).toContain('/verify-email?token=');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'E-mail confirmed' })).toBeVisible();
}

/** Step 1 of the forced setup: reads the secret key, the 12 words and the backup codes off the screen. */
export async function readSetupScreen(page: Page): Promise<SetupScreen> {
  await expect(
    page.getByRole('heading', { level: 1, name: 'Set up two-factor authentication' }),
  ).toBeVisible();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();

  // Shown in groups of four for typing by hand: "ABCD EFGH ...".
  const key = page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const secret = ((await key.textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  const phraseItems = page
    .getByRole('region', { name: 'Critical: write down your recovery phrase' })
    .getByRole('listitem');
  await expect(phraseItems).toHaveCount(12);
  const phrase = (await phraseItems.allInnerTexts()).map((t) =>
    t.replace(/^\s*\d+\.\s*/, '').trim(),
  );
  for (const word of phrase) expect(word).toMatch(/^[a-z]+$/);

  const codeItems = page.getByRole('region', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codeItems).toHaveCount(10);
  const backupCodes = (await codeItems.allInnerTexts()).map((t) => t.trim());
  for (const code of backupCodes) expect(code).toMatch(/^[A-Z0-9]{8}$/);

  return { secret, phrase, backupCodes };
}

/** A 6-digit code the server cannot accept now: none of the codes around the current step. */
export function wrongCode(secret: string): string {
  const now = Date.now();
  const near = new Set([-2, -1, 0, 1, 2].map((step) => totpAt(secret, now + step * 30_000)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

/** Step 2 of the setup: confirms with a code from the secret; returns the code used. */
export async function confirmSetup(page: Page, secret: string): Promise<string> {
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  const code = await freshCode(secret);
  await page.getByLabel('Enter the 6-digit code from your authenticator app').fill(code);
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expectDashboard(page);
  return code;
}

export async function expectDashboard(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
}

/** The verification screen of a signed-in session that has not passed 2FA yet. */
export async function expectTwoFactorPrompt(page: Page): Promise<void> {
  await expect(
    page.getByRole('heading', { level: 1, name: 'Two-Factor Authentication' }),
  ).toBeVisible();
}

/** Passes the verification screen with an authenticator code other than `lastUsed`; returns it. */
export async function verifyWithCode(
  page: Page,
  secret: string,
  lastUsed: string,
): Promise<string> {
  await expectTwoFactorPrompt(page);
  const code = await freshCode(secret, lastUsed);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  return code;
}

/** Passes the verification screen with a backup code. */
export async function verifyWithBackupCode(page: Page, backupCode: string): Promise<void> {
  await expectTwoFactorPrompt(page);
  await page.getByRole('button', { name: 'Use a backup code instead' }).click();
  await page.getByLabel('Backup code').fill(backupCode);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

/**
 * The whole way in for a new customer, in the browser: sign up, confirm the e-mail, sign
 * in, set up 2FA. Ends on the dashboard.
 */
export async function registerCustomer(page: Page, prefix: string): Promise<Account> {
  // Each new customer from an address of its own, as real sign-ups come: the per-address
  // limit of sign-up mails (20 an hour) then never stands between one test and the next.
  const address = await ownAddress(page.context());
  const email = uniqueEmail(prefix);
  await signUp(page, email);
  await confirmEmail(page, email);
  await signIn(page, email);
  const setup = await readSetupScreen(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  const lastCode = await confirmSetup(page, setup.secret);
  return { ...setup, email, password: PASSWORD, address, lastCode };
}

/** The origin of the app under test (baseURL of playwright.config.ts). */
function appOrigin(): string {
  const base = test.info().project.use.baseURL;
  if (!base) throw new Error('baseURL is not set in playwright.config.ts');
  return new URL(base).origin;
}

/** A POST to the app's API in the page's cookie jar, sent as the app's own pages send it. */
async function post(page: Page, path: string, data: object): Promise<unknown> {
  const res = await page.request.post(path, { data, headers: { origin: appOrigin() } });
  if (!res.ok()) throw new Error(`POST ${path}: ${res.status()} ${await res.text()}`);
  return res.json();
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

/**
 * A customer for tests about something else: the same calls the screens make (sign-up,
 * the link from the outbox, sign-in, 2FA setup and confirmation), made straight to the
 * API in the page's cookie jar. Ends signed in, with 2FA passed, on the dashboard.
 */
export async function createCustomer(page: Page, prefix: string): Promise<Account> {
  // An address of its own, as in registerCustomer.
  const address = await ownAddress(page.context());
  const email = uniqueEmail(prefix);
  await post(page, '/api/auth/sign-up', { email, password: PASSWORD });
  const token = new URL(linkIn(await mailTo(email))).searchParams.get('token');
  if (!token) throw new Error(`no token in the confirmation link for ${email}`);
  await post(page, '/api/auth/verify-email', { token });
  await post(page, '/api/auth/sign-in', { email, password: PASSWORD });
  const setup = await post(page, '/api/2fa/setup', {});
  const secret = field(setup, 'secret');
  const seedPhrase = field(setup, 'seedPhrase');
  const backupCodes = field(setup, 'backupCodes');
  if (typeof secret !== 'string' || typeof seedPhrase !== 'string' || !Array.isArray(backupCodes)) {
    throw new Error(`unexpected 2FA setup answer: ${JSON.stringify(setup)}`);
  }
  const lastCode = await freshCode(secret);
  await post(page, '/api/2fa/enable', { code: lastCode });
  await page.goto('/dashboard');
  await expectDashboard(page);
  return {
    email,
    password: PASSWORD,
    address,
    secret,
    phrase: seedPhrase.split(' '),
    backupCodes: backupCodes.map(String),
    lastCode,
  };
}

/** The portal's top bar: logo, portfolio total, e-mail and Logout. */
export function topBar(page: Page): Locator {
  return page.getByRole('banner');
}

/** The fixed sidebar of the portal (1024 px and wider). */
export function sidebar(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Sidebar' });
}

/** The 'Signed out' toast; an earlier one may still be on screen after a quick sign-in. */
function signedOutToast(page: Page): Locator {
  return page.getByText('Signed out', { exact: true }).first();
}

/** Logout in the top bar: back to the landing page. */
export async function signOutFromTopBar(page: Page): Promise<void> {
  await topBar(page).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(signedOutToast(page)).toBeVisible();
}

/** Logout in the sidebar menu: to the sign-in page. */
export async function signOutFromMenu(page: Page): Promise<void> {
  await sidebar(page).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(signedOutToast(page)).toBeVisible();
}

/** The toasts on screen (the toaster is a region named 'Notifications ...'). */
export function toasts(page: Page): Locator {
  return page.getByRole('region', { name: /^Notifications/ });
}

/** Back to the top of the page, where a full-page screenshot should start from. */
export async function scrollToTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * An admin made with the CLI and signed in on `page`, its 2FA set up through the API the
 * setup screen calls (admin-menu.spec.ts drives those screens themselves), on the admin
 * dashboard. Returns the admin as an account: staff confirm money and factor changes with
 * their own step-up, so specs that do need its backup codes and secret.
 */
export async function signInNewAdminAccount(page: Page, prefix: string): Promise<Account> {
  const email = uniqueEmail(prefix);
  createAdmin(email);
  const base = test.info().project.use.baseURL;
  if (!base) throw new Error('baseURL is not set in playwright.config.ts');
  const post = async (path: string, data: object) => {
    const res = await page.request.post(path, { data, headers: { origin: new URL(base).origin } });
    if (!res.ok()) throw new Error(`POST ${path}: ${res.status()} ${await res.text()}`);
    return res.json();
  };
  await post('/api/auth/sign-in', { email, password: PASSWORD });
  const setup = await post('/api/2fa/setup', {});
  const lastCode = await freshCode(setup.secret);
  await post('/api/2fa/enable', { code: lastCode });
  await page.goto('/dashboard/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  return {
    email,
    password: PASSWORD,
    secret: setup.secret,
    phrase: String(setup.seedPhrase ?? '').split(' '),
    backupCodes: setup.backupCodes,
    address: '',
    lastCode,
  };
}

/** `signInNewAdminAccount` for specs that need only the admin's e-mail. */
export async function signInNewAdmin(page: Page, prefix: string): Promise<string> {
  return (await signInNewAdminAccount(page, prefix)).email;
}

/** The step-up dialog (issue 12) that asks for a fresh second factor before a sensitive request. */
export function stepUpDialog(page: Page): Locator {
  return page.getByRole('dialog');
}

/** What the step-up dialog should say: its title and, in part, what is being confirmed. */
export type StepUpExpectation = { title?: string; says?: string | RegExp };

/**
 * Confirms the open step-up dialog with the account's next unused backup code (taken off
 * the list, as the server accepts each once) and waits for the dialog to close. A backup
 * code never has to wait for the authenticator's next 30-second step.
 */
export async function confirmStepUp(
  page: Page,
  account: Account,
  expected: StepUpExpectation = {},
): Promise<void> {
  const dialog = stepUpDialog(page);
  await expect(dialog).toBeVisible();
  if (expected.title) {
    await expect(dialog.getByRole('heading', { name: expected.title, exact: true })).toBeVisible();
  }
  if (expected.says) await expect(dialog).toContainText(expected.says);
  const code = account.backupCodes.shift();
  if (!code) throw new Error(`${account.email} has no backup code left`);
  await dialog.getByLabel('Authentication code').fill(code);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog).toBeHidden();
}

/**
 * Answers the step-up dialog titled `title` with the account's next unused backup code and
 * waits for that dialog to close, whatever the server then says: a refusal of the request
 * itself (a hold, a wrong phrase) goes back to the form that asked.
 */
export async function answerStepUp(page: Page, account: Account, title: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  const code = account.backupCodes.shift();
  if (!code) throw new Error(`${account.email} has no backup code left`);
  await dialog.getByLabel('Authentication code').fill(code);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog).toBeHidden();
}
