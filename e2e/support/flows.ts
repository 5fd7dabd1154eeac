import { expect, type Locator, type Page, test } from '@playwright/test';
import { totpAt } from '@server-test/totp-reference';
import { createAdmin, freshCode, linkIn, mailTo, ownAddress, PASSWORD, uniqueEmail } from './app';

/**
 * What the 2FA setup shows: the secret key, the recovery phrase (none for staff) and the
 * backup codes; the same on every reload until the setup is confirmed or cancelled.
 */
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

/**
 * Step 1 of the forced setup: reads the secret key, the 12 words and the backup codes off
 * the screen. Staff are shown no phrase, and a note why.
 */
export async function readSetupScreen(
  page: Page,
  { staff = false }: { staff?: boolean } = {},
): Promise<SetupScreen> {
  await expect(
    page.getByRole('heading', { level: 1, name: 'Set up two-factor authentication' }),
  ).toBeVisible();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();

  // Shown in groups of four for typing by hand: "ABCD EFGH ...".
  const key = page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const secret = ((await key.textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  const phraseRegion = page.getByRole('region', {
    name: 'Critical: write down your recovery phrase',
  });
  let phrase: string[] = [];
  if (staff) {
    await expect(page.getByText('Staff accounts have no recovery phrase.')).toBeVisible();
    await expect(phraseRegion).toHaveCount(0);
  } else {
    const phraseItems = phraseRegion.getByRole('listitem');
    await expect(phraseItems).toHaveCount(12);
    phrase = (await phraseItems.allInnerTexts()).map((t) => t.replace(/^\s*\d+\.\s*/, '').trim());
    for (const word of phrase) expect(word).toMatch(/^[a-z]+$/);
  }

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

/** The fields of step 2 that ask words of the phrase back, labelled "Word 3" and so on. */
export function phraseWordFields(page: Page): Locator {
  return page.getByRole('group', { name: 'Check your recovery phrase' }).getByRole('textbox');
}

/**
 * Types the words step 2 asks for (three, at positions the server picked; none for staff)
 * from the phrase the setup showed; returns the positions asked.
 */
export async function typePhraseWords(page: Page, phrase: string[]): Promise<number[]> {
  const fields = phraseWordFields(page);
  await expect(fields).toHaveCount(phrase.length > 0 ? 3 : 0);
  const positions: number[] = [];
  for (const field of await fields.all()) {
    const label = await page.locator(`label[for="${await field.getAttribute('id')}"]`).innerText();
    const position = Number(/^Word (\d+)$/.exec(label.trim())?.[1]);
    positions.push(position);
    await field.fill(phrase[position - 1] ?? '');
  }
  return positions;
}

/**
 * Step 2 of the setup: types the words of the phrase it asks for and a code from the
 * secret; returns the code used.
 */
export async function confirmSetup(page: Page, setup: SetupScreen): Promise<string> {
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await typePhraseWords(page, setup.phrase);
  const code = await freshCode(setup.secret);
  await page.getByLabel('Enter the 6-digit code from your authenticator app').fill(code);
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expectDashboard(page);
  return code;
}

/** The dashboard's greeting: 'Welcome' in an account's first session, 'Welcome back' after. */
export type Greeting = 'Welcome' | 'Welcome back';

/** The dashboard, greeting with `greeting` when given (either one otherwise). */
export async function expectDashboard(page: Page, greeting?: Greeting): Promise<void> {
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('heading', { level: 1, name: greeting ?? /^Welcome( back)?$/, exact: true }),
  ).toBeVisible();
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
  const lastCode = await confirmSetup(page, setup);
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
  const phraseCheck = field(setup, 'phraseCheck');
  if (
    typeof secret !== 'string' ||
    typeof seedPhrase !== 'string' ||
    !Array.isArray(backupCodes) ||
    !Array.isArray(phraseCheck)
  ) {
    throw new Error(`unexpected 2FA setup answer: ${JSON.stringify(setup)}`);
  }
  const words = seedPhrase.split(' ');
  const phraseWords = phraseCheck.map((position) => words[Number(position) - 1]);
  const lastCode = await freshCode(secret);
  await post(page, '/api/2fa/enable', { code: lastCode, phraseWords });
  await page.goto('/dashboard');
  await expectDashboard(page, 'Welcome');
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
export async function signInNewAdmin(page: Page, prefix: string): Promise<string> {
  return (await signInNewAdminAccount(page, prefix)).email;
}

/** An admin who can confirm step-ups: their e-mail and the backup codes of their 2FA setup. */
export type StepUpAdmin = Pick<Account, 'email' | 'backupCodes'>;

/**
 * As `signInNewAdmin`, keeping the whole account (backup codes and secret) for step-ups.
 * With `roles`, a staff member holding only those; every role otherwise.
 */
export async function signInNewAdminAccount(
  page: Page,
  prefix: string,
  roles?: readonly string[],
): Promise<Account> {
  const email = uniqueEmail(prefix);
  createAdmin(email, PASSWORD, roles);
  const base = test.info().project.use.baseURL;
  if (!base) throw new Error('baseURL is not set in playwright.config.ts');
  const post = async (path: string, data: object) => {
    const res = await page.request.post(path, { data, headers: { origin: new URL(base).origin } });
    if (!res.ok()) throw new Error(`POST ${path}: ${res.status()} ${await res.text()}`);
    return res.json();
  };
  await post('/api/auth/sign-in', { email, password: PASSWORD });
  // Staff are shown no phrase, so no words are asked back.
  const setup = await post('/api/2fa/setup', {});
  const lastCode = await freshCode(setup.secret);
  await post('/api/2fa/enable', { code: lastCode });
  await page.goto('/dashboard/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  return {
    email,
    password: PASSWORD,
    secret: setup.secret,
    phrase: [],
    backupCodes: setup.backupCodes,
    address: '',
    lastCode,
  };
}

/** The step-up dialog that asks for a fresh second factor before a sensitive request. */
export function stepUpDialog(page: Page): Locator {
  return page.getByRole('dialog');
}

/** What the step-up dialog should say: its title and, in part, what is being confirmed. */
export type StepUpExpectation = { title?: string; says?: string | RegExp };

/**
 * Confirms the open step-up dialog with the account's next unused backup code (taken off
 * the list, as the server accepts each once) and waits for the dialog to close, whatever the
 * server then says of the request itself (a refusal such as a hold goes back to the form that
 * asked). A backup code never has to wait for the authenticator's next 30-second step. With a
 * title, the dialog is found by it (a reason dialog may be open beneath it).
 */
export async function confirmStepUp(
  page: Page,
  account: Pick<Account, 'email' | 'backupCodes'>,
  expected: StepUpExpectation = {},
): Promise<void> {
  const dialog = expected.title
    ? page.getByRole('dialog', { name: expected.title })
    : stepUpDialog(page);
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
 * Saves App Settings' unsaved changes as `admin`: Save Settings, then the step-up dialog
 * with their next backup code.
 */
export async function saveSettingsWithStepUp(page: Page, admin: StepUpAdmin): Promise<void> {
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await confirmStepUp(page, admin, { title: 'Confirm the settings change' });
}

/**
 * Approves, as another admin, the pending change of the setting with this label on App
 * Settings (four eyes), with a step-up, and waits for it to be applied.
 */
export async function approveSettingChange(
  page: Page,
  admin: StepUpAdmin,
  label: string,
): Promise<void> {
  await page.goto('/dashboard/admin/settings');
  const change = page
    .getByRole('list', { name: 'Changes awaiting approval' })
    .getByRole('listitem')
    .filter({ has: page.getByText(label, { exact: true }) });
  await change.getByRole('button', { name: 'Approve' }).click();
  await confirmStepUp(page, admin, { title: 'Approve this change' });
  await expect(toasts(page).getByText('Change approved and applied')).toBeVisible();
  await expect(change).toHaveCount(0);
}

/** A change waiting for a second staff member, as `GET /api/admin/changes` lists it. */
export type PendingChange = {
  id: string;
  kind: string;
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  proposedBy: { id: string; email: string };
  subject: { id: string; email: string } | null;
};

/** The changes waiting, read in `page`'s session (any staff member's). */
export async function pendingChanges(page: Page): Promise<PendingChange[]> {
  const res = await page.request.get('/api/admin/changes');
  if (!res.ok()) throw new Error(`GET /api/admin/changes: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { changes: PendingChange[] }).changes;
}

/**
 * Approves, as `approver` signed in on `page`, the newest waiting change `proposer` made
 * (of `kind` when given) with the approver's next backup code, straight through the API: for
 * specs about something else, where the second person's approval is a step on the way.
 * Returns the change approved.
 */
export async function approveThroughApi(
  page: Page,
  approver: StepUpAdmin,
  proposer: { email: string },
  kind?: string,
): Promise<PendingChange> {
  const mine = (await pendingChanges(page)).filter(
    (c) => c.proposedBy.email === proposer.email && (!kind || c.kind === kind),
  );
  const change = mine.at(-1);
  if (!change) throw new Error(`no change of ${proposer.email} waits${kind ? ` (${kind})` : ''}`);
  const code = approver.backupCodes.shift();
  if (!code) throw new Error(`${approver.email} has no backup code left`);
  await post(page, `/api/admin/changes/${change.id}/approve`, { stepUp: { code } });
  return change;
}

/** The staff home's queue of changes waiting for a second staff member. */
export function changesQueue(page: Page): Locator {
  return page.getByRole('region', { name: /^Changes waiting/ });
}

/** One change in the staff home's queue, found by its summary. */
export function queuedChange(page: Page, summary: string | RegExp): Locator {
  return changesQueue(page).getByRole('listitem').filter({ hasText: summary });
}

/** A GET of the app's API in the page's cookie jar; its JSON answer. */
async function getJson<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  if (!res.ok()) throw new Error(`GET ${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Proposes, as `admin` signed in on `page`, setting a customer's wallet of `assetId` to
 * `newBalance`, through the API the Wallet Management screen calls: a change waiting for a
 * second staff member (202). For specs that need money on an account or a change queued.
 */
export async function proposeBalanceThroughApi(
  page: Page,
  admin: StepUpAdmin,
  customerEmail: string,
  assetId: string,
  newBalance: string,
  reason = 'Opening balance for the test',
): Promise<PendingChange> {
  const { users } = await getJson<{ users: { id: string; email: string }[] }>(
    page,
    `/api/admin/user-directory?q=${encodeURIComponent(customerEmail)}&limit=5`,
  );
  const user = users.find((u) => u.email === customerEmail);
  if (!user) throw new Error(`no customer ${customerEmail} in the directory`);
  const { wallets } = await getJson<{ wallets: { id: string; assetId: string }[] }>(
    page,
    `/api/admin/users/${user.id}/wallets`,
  );
  const wallet = wallets.find((w) => w.assetId === assetId);
  if (!wallet) throw new Error(`${customerEmail} has no ${assetId} wallet`);
  const code = admin.backupCodes.shift();
  if (!code) throw new Error(`${admin.email} has no backup code left`);
  const res = await page.request.post(`/api/admin/wallets/${wallet.id}/balance`, {
    data: { newBalance, reason, stepUp: { code } },
    headers: { origin: appOrigin(), 'Idempotency-Key': crypto.randomUUID() },
  });
  if (res.status() !== 202) {
    throw new Error(`balance proposal: ${res.status()} ${await res.text()}`);
  }
  return ((await res.json()) as { pending: PendingChange }).pending;
}
