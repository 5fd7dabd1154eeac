import { randomBytes } from 'node:crypto';
import { EXPLORER_TX_URL_DEFAULTS, type TAssetId, type TTransaction } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { expectReconciled, fund, setSetting, spareStepUps } from '@server-test/money-helpers';
import { putSettings, saveSettings } from '@server-test/settings-helpers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { explorerTxUrl } from './explorer-link';

// Block explorer links in the customer's history: one template per chain in the
// app settings, checked when staff save it, filled in by the server for each chain hash.

let t: TestApp;
let admin: SignedInUser;
/** Explorer links are risk settings: a second admin approves each change. */
let approver: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await verifiedAdmin(t);
  approver = await verifiedAdmin(t);
});
beforeEach(async () => {
  await spareStepUps(t, admin);
  await spareStepUps(t, approver);
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  for (const [key, value] of Object.entries(EXPLORER_TX_URL_DEFAULTS)) {
    await setSetting(t, key, value);
  }
  await expectReconciled(t);
});

const put = (values: Record<string, string>) => putSettings(t, admin, values);

async function history(user: SignedInUser): Promise<TTransaction[]> {
  const res = await call(t, { url: '/api/transactions?limit=100', cookie: user.cookie });
  expect(res.statusCode).toBe(200);
  return res.json().items;
}

const hex = () => randomBytes(32).toString('hex');

/** A customer with a completed deposit of each customer asset, hashes by asset. */
async function customerWithDeposits(): Promise<{
  user: SignedInUser;
  hashes: Record<TAssetId, string>;
}> {
  const user = await verifiedCustomer(t);
  const hashes = {} as Record<TAssetId, string>;
  for (const assetId of ['BTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20'] as const) {
    const row = await fund(t, user.userId, assetId, '1');
    hashes[assetId] = row.transaction_hash ?? '';
  }
  return { user, hashes };
}

describe('saving the explorer settings', () => {
  it('lists the three settings with their mainnet defaults', async () => {
    const res = await call(t, { url: '/api/admin/settings', cookie: admin.cookie });
    const values = Object.fromEntries(
      res.json().settings.map((s: { key: string; value: string }) => [s.key, s.value]),
    );
    expect(values).toMatchObject({
      explorer_tx_url_btc: 'https://mempool.space/tx/{hash}',
      explorer_tx_url_eth: 'https://etherscan.io/tx/{hash}',
      explorer_tx_url_tron: 'https://tronscan.org/#/transaction/{hash}',
    });
  });

  it('saves a template, empty (no link), and http:// for an explorer on this machine', async () => {
    const values = {
      explorer_tx_url_btc: 'http://localhost:3002/tx/{hash}',
      explorer_tx_url_eth: '',
      explorer_tx_url_tron: 'https://nile.tronscan.org/#/transaction/{hash}?from=coffer',
    };
    const res = await put(values);
    expect(res.statusCode).toBe(202);
    expect(res.json().pending.map((p: { key: string; value: string }) => [p.key, p.value])).toEqual(
      Object.entries(values),
    );
    await saveSettings(t, admin, approver, values);
    await saveSettings(t, admin, approver, { explorer_tx_url_btc: 'http://127.0.0.1/tx/{hash}' });
    const saved = await call(t, { url: '/api/admin/settings', cookie: admin.cookie });
    expect(
      saved.json().settings.find((x: { key: string }) => x.key === 'explorer_tx_url_btc').value,
    ).toBe('http://127.0.0.1/tx/{hash}');
  });

  const shape = (label: string) =>
    `${label} must be an https:// address containing {hash} once, e.g. https://mempool.space/tx/{hash}, or empty for no link.`;
  const bad: Array<[string, string, string]> = [
    ['explorer_tx_url_btc', 'https://mempool.space/tx/', shape('Bitcoin explorer link')],
    [
      'explorer_tx_url_eth',
      'https://etherscan.io/tx/{hash}/{hash}',
      shape('Ethereum explorer link'),
    ],
    ['explorer_tx_url_tron', 'javascript:alert({hash})', shape('TRON explorer link')],
    ['explorer_tx_url_btc', 'mempool.space/tx/{hash}', shape('Bitcoin explorer link')],
    ['explorer_tx_url_btc', 'https://mempool.space/tx/ {hash}', shape('Bitcoin explorer link')],
    [
      'explorer_tx_url_eth',
      'http://etherscan.io/tx/{hash}',
      'Ethereum explorer link must start with https:// (http:// only for an explorer on localhost or 127.0.0.1).',
    ],
    [
      'explorer_tx_url_btc',
      'https://{hash}.example.com/',
      "Bitcoin explorer link must have {hash} after the site's address, e.g. https://mempool.space/tx/{hash}.",
    ],
    [
      'explorer_tx_url_tron',
      `https://tronscan.org/${'x'.repeat(300)}{hash}`,
      'TRON explorer link must be at most 300 characters.',
    ],
  ];
  for (const [key, value, message] of bad) {
    it(`refuses ${key} = ${JSON.stringify(value.slice(0, 40))}, saving nothing and auditing nothing`, async () => {
      const res = await withoutChange(t, () =>
        // A good value beside the bad one is not saved either.
        put({ [key]: value, maintenance_mode: 'true' }),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
    });
  }
});

describe('links in the customer history', () => {
  it('links each chain hash to its chain explorer: BTC, ETH and USDT ERC-20, USDT TRC-20', async () => {
    const { user, hashes } = await customerWithDeposits();
    const items = await history(user);
    const linkOf = (assetId: string) => items.find((i) => i.assetId === assetId)?.explorerUrl;
    expect(linkOf('BTC')).toBe(`https://mempool.space/tx/${hashes.BTC}`);
    expect(linkOf('ETH')).toBe(`https://etherscan.io/tx/${hashes.ETH}`);
    expect(linkOf('USDT-ERC20')).toBe(`https://etherscan.io/tx/${hashes['USDT-ERC20']}`);
    expect(linkOf('USDT-TRC20')).toBe(`https://tronscan.org/#/transaction/${hashes['USDT-TRC20']}`);
  });

  it('follows a saved template at once, and shows no link where the setting is empty', async () => {
    const { user, hashes } = await customerWithDeposits();
    await saveSettings(t, admin, approver, {
      explorer_tx_url_btc: 'http://localhost:8080/tx/{hash}?net=regtest',
      explorer_tx_url_eth: '',
    });
    const items = await history(user);
    const byAsset = (assetId: string) => items.find((i) => i.assetId === assetId);
    expect(byAsset('BTC')?.explorerUrl).toBe(`http://localhost:8080/tx/${hashes.BTC}?net=regtest`);
    // The hash is still shown; it just is not a link.
    expect(byAsset('ETH')?.transactionHash).toBe(hashes.ETH);
    expect(byAsset('ETH')?.explorerUrl ?? null).toBeNull();
    expect(byAsset('USDT-ERC20')?.explorerUrl ?? null).toBeNull();
    expect(byAsset('USDT-TRC20')?.explorerUrl).toBe(
      `https://tronscan.org/#/transaction/${hashes['USDT-TRC20']}`,
    );
  });

  it('links pending and completed withdrawals, not failed rows, rows without a hash or other types', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    const post = (input: {
      type: 'withdrawal' | 'adjustment';
      status: 'pending' | 'completed' | 'failed';
      hash: string | null;
    }) =>
      withTransaction(t.services.pool, (client) =>
        t.services.ledger.post(client, {
          userId: user.userId,
          assetId: 'BTC',
          type: input.type,
          direction: input.type === 'withdrawal' ? 'debit' : 'credit',
          amount: 1000n,
          status: input.status,
          transactionHash: input.hash,
          createdBy: null,
        }),
      );
    const pending = await post({ type: 'withdrawal', status: 'pending', hash: hex() });
    const completed = await post({ type: 'withdrawal', status: 'completed', hash: hex() });
    const failed = await post({ type: 'withdrawal', status: 'failed', hash: hex() });
    const noHash = await post({ type: 'withdrawal', status: 'completed', hash: null });
    const adjustment = await post({ type: 'adjustment', status: 'completed', hash: hex() });

    const items = await history(user);
    const linkOf = (id: string) => items.find((i) => i.id === id)?.explorerUrl ?? null;
    expect(linkOf(pending.id)).toBe(`https://mempool.space/tx/${pending.transaction_hash}`);
    expect(linkOf(completed.id)).toBe(`https://mempool.space/tx/${completed.transaction_hash}`);
    expect(linkOf(failed.id)).toBeNull();
    expect(linkOf(noHash.id)).toBeNull();
    expect(linkOf(adjustment.id)).toBeNull();
  });

  it('keeps a hash with odd characters inside the link: encoded, never a new path, query or site', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '1');
    // The ledger only takes well-formed hashes; an imported or hand-edited row may not be.
    const odd = '../../evil?x=1#"><script>alert(1)</script> @evil.example/';
    const { rows } = await t.services.pool.query<{ id: string }>(
      `INSERT INTO transactions (user_id, wallet_id, transaction_type, direction, asset_id, network,
         crypto_amount, fee, currency, transaction_hash, status)
       SELECT user_id, id, 'deposit', 'credit', 'ETH', 'ethereum', 0, 0, 'USD', $2, 'pending'
         FROM user_wallets WHERE user_id = $1 AND asset_id = 'ETH' RETURNING id`,
      [user.userId, odd],
    );
    const link = (await history(user)).find((i) => i.id === rows[0]?.id)?.explorerUrl ?? '';
    expect(link).toBe(`https://etherscan.io/tx/${encodeURIComponent(odd)}`);
    const url = new URL(link);
    expect(url.host).toBe('etherscan.io');
    expect(url.pathname.split('/')).toHaveLength(3);
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
    expect(decodeURIComponent(url.pathname.slice('/tx/'.length))).toBe(odd);
  });

  it('gives no link for a template that would not pass the check (written to the database by hand)', async () => {
    const { user } = await customerWithDeposits();
    await setSetting(t, 'explorer_tx_url_btc', 'javascript:alert("{hash}")');
    const items = await history(user);
    expect(items.find((i) => i.assetId === 'BTC')?.explorerUrl ?? null).toBeNull();
  });
});

describe('explorerTxUrl', () => {
  it('puts the encoded hash where {hash} is, wherever that is in the template', () => {
    expect(
      explorerTxUrl('explorer_tx_url_tron', 'https://tronscan.org/#/transaction/{hash}', 'ab/c'),
    ).toBe('https://tronscan.org/#/transaction/ab%2Fc');
    expect(explorerTxUrl('explorer_tx_url_btc', 'https://x.example/?tx={hash}&a=1', 'a&b=c')).toBe(
      'https://x.example/?tx=a%26b%3Dc&a=1',
    );
    expect(explorerTxUrl('explorer_tx_url_btc', '', 'abc')).toBeNull();
  });
});
