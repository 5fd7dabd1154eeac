import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { expectAccessible, ownAddress } from './support/app';
import {
  type Account,
  confirmStepUp,
  createCustomer,
  signInNewAdminAccount,
} from './support/flows';
import { snap } from './support/shots';

// A customer and an admin side by side, each in their own browser: the chat is live both ways.
test.describe.configure({ mode: 'serial' });

let customerContext: BrowserContext;
let adminContext: BrowserContext;
let customer: Page;
let admin: Page;
let account: Account;
/** The admin, with the backup codes their step-ups spend. */
let adminAccount: Account;

/** A 1x1 PNG: what the admin attaches. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const rooms = (page: Page) => page.getByRole('list', { name: 'Conversations' });
const customerRoom = (page: Page) =>
  rooms(page).getByRole('button').filter({ hasText: account.email });

test.beforeAll(async ({ browser }) => {
  customerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ownAddress(customerContext);
  customer = await customerContext.newPage();
  account = await createCustomer(customer, 'chat');

  adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ownAddress(adminContext);
  admin = await adminContext.newPage();
  adminAccount = await signInNewAdminAccount(admin, 'chat-admin');
});

test.afterAll(async () => {
  await customerContext.close();
  await adminContext.close();
});

test('a customer opens Support and gets a conversation of their own', async () => {
  await customer.getByRole('link', { name: 'Support' }).first().click();
  await expect(customer).toHaveURL(/\/dashboard\/chat$/);
  await expect(customer.getByRole('heading', { name: 'Messages' })).toBeVisible();
  await expect(customer.getByRole('button', { name: 'New Chat' })).toBeVisible();
  // Created automatically and opened: empty so far.
  await expect(rooms(customer).getByRole('button')).toHaveCount(1);
  await expect(customer.getByText('Start a Conversation', { exact: true })).toBeVisible();
  await expect(
    customer.getByRole('region', { name: /Conversation with Support/ }).getByText('Online'),
  ).toBeVisible();

  // Whitespace is not a message.
  await composer(customer).fill('   ');
  await expect(customer.getByRole('button', { name: 'Send message' })).toBeDisabled();
  await expectAccessible(customer);
  await snap(customer, 'chat-customer-empty');
});

test('the admin sees the message arrive live with an unread count, and opening it clears the count', async () => {
  await admin.goto('/dashboard/admin/chat');
  await expect(admin.getByRole('heading', { name: 'Support Conversations' })).toBeVisible();
  await expect(admin.getByText('Select a Conversation')).toBeVisible();

  await composer(customer).fill('My deposit has not arrived.');
  await composer(customer).press('Shift+Enter');
  await composer(customer).pressSequentially('Transaction sent an hour ago.');
  await composer(customer).press('Enter');
  await expect(
    messages(customer).getByText(/My deposit has not arrived\.\s+Transaction sent an hour ago\./),
  ).toBeVisible();
  await expect(composer(customer)).toHaveValue('');

  // No reload: the admin's list learns of it over the socket.
  await expect(customerRoom(admin)).toContainText('1 unread');
  await expect(customerRoom(admin)).toContainText(/ago/);
  // A customer without a name is listed by their e-mail, once.
  await expect(customerRoom(admin).getByText(account.email, { exact: true })).toHaveCount(1);
  await customerRoom(admin).click();
  const header = admin.getByRole('heading', { level: 2, name: account.email, exact: true });
  await expect(header).toBeVisible();
  await expect(header.locator('xpath=..').getByText(account.email)).toHaveCount(1);
  await expect(
    messages(admin).getByText('My deposit has not arrived.', { exact: false }),
  ).toBeVisible();
  await expect(customerRoom(admin)).not.toContainText('unread');
  await expectAccessible(admin);
  await snap(admin, 'chat-admin-open');
});

test('the admin replies with an image; the customer sees it live and answers', async () => {
  await admin
    .locator('input[type="file"]')
    .setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: PNG });
  await expect(admin.getByRole('list', { name: 'Attachments' })).toContainText('screenshot.png');
  await composer(admin).fill('Here is what we see on our side.');
  await composer(admin).press('Enter');
  await expect(messages(admin).getByRole('img', { name: 'screenshot.png' })).toBeVisible();

  await expect(messages(customer).getByText('Here is what we see on our side.')).toBeVisible();
  const image = messages(customer).getByRole('img', { name: 'screenshot.png' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  await composer(customer).fill('Thanks, that helps.');
  await customer.getByRole('button', { name: 'Send message' }).click();
  await expect(messages(admin).getByText('Thanks, that helps.')).toBeVisible();
  await snap(customer, 'chat-customer-conversation');
});

test('on a phone the list and the conversation take turns, with a back button', async () => {
  await customer.setViewportSize({ width: 375, height: 812 });
  await customer.reload();
  await expect(rooms(customer)).toBeVisible();
  await rooms(customer).getByRole('button').first().click();
  await expect(messages(customer).getByText('Thanks, that helps.')).toBeVisible();
  await expect(rooms(customer)).toBeHidden();
  await customer.getByRole('button', { name: 'Back to conversations' }).click();
  await expect(rooms(customer)).toBeVisible();
  await customer.setViewportSize({ width: 1440, height: 900 });
});

test('the admin can start a chat with a chosen customer', async () => {
  await admin.getByRole('button', { name: 'Start New Chat' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Start New Chat' });
  await dialog.getByRole('combobox', { name: 'Customer' }).fill(account.email);
  await admin.getByRole('option').filter({ hasText: account.email }).first().click();
  await snap(admin, 'chat-admin-start-dialog', ['desktop']);
  await dialog.getByRole('button', { name: 'Start Chat' }).click();
  await expect(dialog).toBeHidden();
  // The customer already has a conversation: it opens rather than a second one.
  await expect(rooms(admin).getByRole('button').filter({ hasText: account.email })).toHaveCount(1);
  await expect(messages(admin).getByText('Thanks, that helps.')).toBeVisible();
});

test('the admin closes the conversation with a step-up; the customer keeps it and reopens it', async () => {
  await admin.getByRole('button', { name: 'Close conversation' }).click();
  await confirmStepUp(admin, adminAccount, {
    title: 'Close this conversation',
    says: 'Its messages and files are kept',
  });
  // Closed, never deleted: both sides still see it and every message in it.
  await expect(customerRoom(admin)).toHaveCount(1);
  const adminRegion = admin.getByRole('region', { name: /Conversation with/ });
  await expect(adminRegion.getByText('Closed', { exact: true })).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Close conversation' })).toHaveCount(0);
  await expect(messages(admin).getByText('Thanks, that helps.')).toBeVisible();

  const customerRegion = customer.getByRole('region', { name: /Conversation with Support/ });
  await expect(customerRegion.getByText('Closed', { exact: true })).toBeVisible();
  await expect(messages(customer).getByText('Thanks, that helps.')).toBeVisible();
  await expect(
    customer.getByText(
      'Support closed this conversation. You can still read it; send a message to open it again.',
    ),
  ).toBeVisible();
  await expectAccessible(customer);
  await snap(customer, 'chat-customer-closed', ['desktop']);

  // The customer's next message opens it again, for staff too.
  await composer(customer).fill('One more thing, please.');
  await customer.getByRole('button', { name: 'Send message' }).click();
  await expect(customerRegion.getByText('Online')).toBeVisible();
  await expect(messages(admin).getByText('One more thing, please.')).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Close conversation' })).toBeVisible();
});
