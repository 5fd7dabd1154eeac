import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { normalizeTxHash } from '@coffer/shared';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import { totpAt } from '@server-test/totp-reference';
import { E2E_DATA_DIR, E2E_PG_PORT } from './ports';

/** The data directory of the server Playwright started (see playwright.config.ts). */
export const DATA_DIR = path.resolve(E2E_DATA_DIR);
export const PASSWORD = 'Coffer-e2e-Pass1';

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(performance.now()).toString(36)}@example.com`;
}

/**
 * Gives a browser context a client address of its own, as the proxy in front of Coffer
 * would report it: per-address limits (20 sign-up mails an hour) then count per context.
 */
export async function ownAddress(context: BrowserContext): Promise<string> {
  const b = randomBytes(3);
  const address = `10.${b[0]}.${b[1]}.${b[2]}`;
  await context.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
  return address;
}

/** The newest mail to `email` in the server's outbox, with quoted-printable undone. */
export async function mailTo(email: string): Promise<string> {
  const outbox = path.join(DATA_DIR, 'outbox');
  for (let i = 0; i < 50; i++) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).sort().reverse() : [];
    for (const f of files) {
      const raw = fs
        .readFileSync(path.join(outbox, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (raw.includes(`To: ${email}`)) return raw;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${email} in ${outbox}`);
}

export function linkIn(mail: string): string {
  const match = mail.match(/https?:\/\/[^\s]+/);
  if (!match) throw new Error(`no link in mail:\n${mail}`);
  return match[0];
}

/** A TOTP code for `secret` now, avoiding the last seconds of a step (a code is used once). */
export async function freshCode(secret: string, lastUsed?: string): Promise<string> {
  for (;;) {
    const now = Date.now();
    const code = totpAt(secret, now);
    const secondsLeft = 30 - (Math.floor(now / 1000) % 30);
    if (code !== lastUsed && secondsLeft > 3) return code;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** `npm run cli -- <args>` against the running test server's database; its output. */
function runCli(args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR, EMBEDDED_PG_PORT: String(E2E_PG_PORT), LOG_LEVEL: 'error' },
    encoding: 'utf8',
  });
}

/**
 * `npm run cli -- create-admin` against the running test server's database: with `roles`,
 * a staff member holding only those (`--role support,auditor`); every role otherwise.
 */
export function createAdmin(email: string, password = PASSWORD, roles?: readonly string[]): string {
  return runCli([
    'create-admin',
    '--email',
    email,
    '--password',
    password,
    ...(roles ? ['--role', roles.join(',')] : []),
  ]);
}

export type TDepositAsset = 'BTC' | 'ETH' | 'USDT-ERC20' | 'USDT-TRC20';

/**
 * `npm run cli -- credit-deposit`: books a deposit seen on chain, the way an operator does,
 * as a completed deposit in the customer's history.
 */
export function creditDeposit(
  email: string,
  asset: TDepositAsset,
  amount: string,
  txHash: string,
): string {
  const out = runCli([
    'credit-deposit',
    '--email',
    email,
    '--asset',
    asset,
    '--amount',
    amount,
    '--tx-hash',
    txHash,
  ]);
  // The server keeps a hash in its network's one form (0x… on Ethereum), and says so.
  const stored = normalizeTxHash(asset, txHash);
  if (!stored.ok)
    throw new Error(`${txHash} is not a ${asset} transaction hash: ${stored.message}`);
  expect(out, 'credit-deposit output').toContain(`to ${email} (chain transaction ${stored.value})`);
  return out;
}

/** A chain transaction hash nobody has used: 64 hex digits. */
export function uniqueTxHash(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Waits until every finite animation and transition has finished (a toast fading in, colours
 * changing with the theme), so that colours are judged as they end up, not half-way.
 * Endless ones (spinners) are left alone.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
}

/**
 * axe finds no serious or critical violation, in the light theme and in the dark one. It
 * judges the screen with reduced motion, so a toast that starts fading out while axe runs
 * is gone rather than caught half-transparent.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    for (const dark of [false, true]) {
      await showTheme(page, dark);
      await settled(page);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${dark ? 'dark' : 'light'}: ${v.id} (${v.impact}) ${v.nodes
              .map(
                (n) =>
                  `${n.target.join(' ')} ${n.html.slice(0, 120)}\n    ${n.failureSummary ?? ''}`,
              )
              .join(', ')}`,
        );
      expect(serious, `accessibility on ${page.url()}`).toEqual([]);
    }
  } finally {
    await page.emulateMedia({ reducedMotion: null });
    await showTheme(
      page,
      await page.evaluate(() => localStorage.getItem('coffer-theme') === 'dark'),
    );
  }
}

/**
 * Shows the page in one theme the way the app does, without a reload that would lose the
 * screen's state: the class on <html>, and the theme of the toasts (the app gives the
 * toaster its theme through React, which a class change does not reach).
 */
export async function showTheme(page: Page, dark: boolean): Promise<void> {
  await page.evaluate((on) => {
    document.documentElement.classList.toggle('dark', on);
    for (const toaster of document.querySelectorAll('[data-sonner-toaster]')) {
      toaster.setAttribute('data-sonner-theme', on ? 'dark' : 'light');
    }
  }, dark);
}
