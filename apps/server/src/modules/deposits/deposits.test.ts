import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { CliError, COMMANDS } from '@server/cli-commands';
import {
  call,
  createTestApp,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import {
  expectReconciled,
  setSetting,
  transactionCount,
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

const HASH = 'f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16';

function creditDeposit(args: string[]): Promise<string> {
  const command = COMMANDS['credit-deposit'];
  if (!command) throw new Error('no credit-deposit command');
  return command.run(t.services, args);
}

const args = (email: string, asset: string, amount: string, hash: string) => [
  '--email',
  email,
  '--asset',
  asset,
  `--amount=${amount}`,
  '--tx-hash',
  hash,
];

/** What a promise was rejected with, or null when it resolved. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

async function addAddress(
  user: SignedInUser,
  symbol: string,
  network: string,
  address: string,
  opts: { active?: boolean; ago?: string } = {},
) {
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, is_active, created_at)
     VALUES ($1, $2, $3, $4, $5, now() - $6::interval)`,
    [user.userId, symbol, network, address, opts.active ?? true, opts.ago ?? '0 seconds'],
  );
}

describe('GET /api/deposit-addresses', () => {
  it('lists the customer’s own active addresses, newest first, with the wallet each pays into', async () => {
    const user = await verifiedCustomer(t);
    const other = await verifiedCustomer(t);
    await addAddress(user, 'BTC', 'bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', {
      ago: '3 days',
    });
    await addAddress(user, 'USDT', 'trc20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', {
      ago: '2 days',
    });
    await addAddress(user, 'ETH', 'ethereum', '0x52908400098527886E0F7030069857D2E4169EE7', {
      ago: '1 day',
      active: false,
    });
    await addAddress(user, 'USDT', 'erc20', '0x8617E340B3D01FA5F11F306F4090FD50E238070D', {
      ago: '1 hour',
    });
    await addAddress(user, 'BNB', 'bep20', '0xde709f2102306220921060314715629080e2fb77');
    await addAddress(other, 'ETH', 'ethereum', '0x27b1fdb04752bbc536007a920d24acb045561c26');

    const res = await call(t, { url: '/api/deposit-addresses', cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.enabled).toBe(true);
    expect(body.message).toBeNull();
    expect(
      body.addresses.map((a: { assetSymbol: string; network: string; assetId: string | null }) => [
        a.assetSymbol,
        a.network,
        a.assetId,
      ]),
    ).toEqual([
      ['BNB', 'bep20', null],
      ['USDT', 'erc20', 'USDT-ERC20'],
      ['USDT', 'trc20', 'USDT-TRC20'],
      ['BTC', 'bitcoin', 'BTC'],
    ]);
    expect(body.addresses[1]).toMatchObject({
      address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    });
    expect(JSON.stringify(body)).not.toContain('0x27b1fdb04752bbc536007a920d24acb045561c26');
  });

  it('withholds every address while the operator has deposits paused', async () => {
    const user = await verifiedCustomer(t);
    await addAddress(user, 'BTC', 'bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
    await setSetting(t, 'deposits_enabled', 'false');
    try {
      const body = (await call(t, { url: '/api/deposit-addresses', cookie: user.cookie })).json();
      expect(body).toEqual({
        enabled: false,
        message:
          'Deposits are paused at the moment. Please do not send funds to a deposit address until deposits resume.',
        addresses: [],
        requestable: [],
      });
      expect(
        (await call(t, { url: '/api/money/status', cookie: user.cookie })).json().depositsEnabled,
      ).toBe(false);
    } finally {
      await setSetting(t, 'deposits_enabled', 'true');
    }
  });

  it('reads an unreadable switch the safe way: deposits stay paused', async () => {
    const user = await verifiedCustomer(t);
    await setSetting(t, 'deposits_enabled', 'yes please');
    try {
      expect(
        (await call(t, { url: '/api/deposit-addresses', cookie: user.cookie })).json().enabled,
      ).toBe(false);
    } finally {
      await setSetting(t, 'deposits_enabled', 'true');
    }
  });
});

describe('npm run cli -- credit-deposit', () => {
  /** The customer the refused commands name, shared: each refusal changes nothing anyway. */
  let operator: SignedInUser | undefined;

  it('credits a completed deposit with the chain hash through the ledger and prints the balance', async () => {
    const user = await verifiedCustomer(t);
    const said = await creditDeposit(args(user.email.toUpperCase(), 'btc', '0.5', HASH));
    expect(said).toBe(
      `Credited 0.5 BTC to ${user.email} (chain transaction ${HASH}). New balance: 0.5 BTC.`,
    );
    const again = await creditDeposit(args(user.email, 'BTC', '0.25', 'a'.repeat(64)));
    expect(again).toBe(
      `Credited 0.25 BTC to ${user.email} (chain transaction ${'a'.repeat(64)}). New balance: 0.75 BTC.`,
    );

    const history = (await call(t, { url: '/api/transactions', cookie: user.cookie })).json();
    expect(history.items[1]).toMatchObject({
      type: 'deposit',
      direction: 'credit',
      assetId: 'BTC',
      amount: '0.5',
      status: 'completed',
      transactionHash: HASH,
      usdAmount: '21034.50',
    });
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '0.75', held: '0' });
    await expectReconciled(t);
  });

  it('says a repeated credit was already made and changes nothing', async () => {
    const user = await verifiedCustomer(t);
    const hash = randomBytes(32).toString('hex');
    await creditDeposit(args(user.email, 'ETH', '1.5', hash));
    // Written again in upper case, with 0x or without: one chain transaction, kept as 0x + lower case.
    for (const written of [hash.toUpperCase(), `0x${hash}`, `0X${hash.toUpperCase()}`]) {
      const repeat = await withoutChange(t, () =>
        creditDeposit(args(user.email, 'ETH', '1.5', written)),
      );
      expect(repeat).toBe(
        `Chain transaction 0x${hash} was already credited: 1.5 ETH to ${user.email}. Nothing changed. Balance: 1.5 ETH.`,
      );
    }
    // The same hash on another network is another transaction.
    await creditDeposit(args(user.email, 'USDT-ERC20', '10', hash));
    expect(await transactionCount(t, user.userId)).toBe(2);
  });

  it('credits a chain transaction once even when run in parallel', async () => {
    const user = await verifiedCustomer(t);
    const hash = randomBytes(32).toString('hex');
    const said = await Promise.all(
      Array.from({ length: 6 }, () => creditDeposit(args(user.email, 'USDT-TRC20', '25', hash))),
    );
    expect(said.filter((s) => s.startsWith('Credited'))).toHaveLength(1);
    expect(await walletOf(t, user.userId, 'USDT-TRC20')).toEqual({ balance: '25', held: '0' });
    await expectReconciled(t);
  });

  it('books deposits during maintenance: money that arrived is money the customer has', async () => {
    const user = await verifiedCustomer(t);
    await setSetting(t, 'maintenance_mode', 'true');
    try {
      expect(
        await creditDeposit(args(user.email, 'BTC', '1', randomBytes(32).toString('hex'))),
      ).toMatch(/^Credited 1 BTC/);
    } finally {
      await setSetting(t, 'maintenance_mode', 'false');
    }
  });

  it.each([
    [
      'an unknown e-mail',
      ['nobody@example.com', 'BTC', '1', HASH],
      'No account with the e-mail nobody@example.com.',
    ],
    [
      'an e-mail that is not one',
      ['nobody', 'BTC', '1', HASH],
      'Please enter a valid email address.',
    ],
    [
      'an unknown asset',
      [null, 'DOGE', '1', HASH],
      'Unknown asset "DOGE". Use one of BTC, ETH, USDT-ERC20, USDT-TRC20.',
    ],
    [
      'an admin-only asset',
      [null, 'USDC', '1', HASH],
      'Unknown asset "USDC". Use one of BTC, ETH, USDT-ERC20, USDT-TRC20.',
    ],
    ['no amount', [null, 'BTC', '', HASH], 'Amount is required'],
    ['a word for an amount', [null, 'BTC', 'one', HASH], 'Enter the amount as a number, like 0.5'],
    ['a zero amount', [null, 'BTC', '0', HASH], 'Amount must be greater than 0'],
    ['a negative amount', [null, 'BTC', '-1', HASH], 'Amount cannot be negative'],
    [
      '9 decimals on BTC',
      [null, 'BTC', '0.000000001', HASH],
      'Amount can have at most 8 decimal places for BTC',
    ],
    [
      '7 decimals on USDT',
      [null, 'USDT-ERC20', '0.0000001', HASH],
      'Amount can have at most 6 decimal places for USDT',
    ],
    ['no hash', [null, 'BTC', '1', '  '], 'The chain transaction hash is required (--tx-hash).'],
    [
      'a hash with spaces',
      [null, 'BTC', '1', 'ab cd'],
      'Enter the transaction hash: 64 hexadecimal characters. Nothing changed.',
    ],
    [
      'a word for a hash',
      [null, 'ETH', '1', 'hello'],
      'Enter the transaction hash: 0x followed by 64 hexadecimal characters. Nothing changed.',
    ],
    [
      'a hash that reads as an option',
      [null, 'BTC', '1', '--fee'],
      'Enter the transaction hash: 64 hexadecimal characters. Nothing changed.',
    ],
  ] as const)(
    'refuses %s with a clear message and changes nothing',
    async (_what, [email, asset, amount, hash], message) => {
      operator ??= await verifiedCustomer(t);
      const user = operator;
      const failure = await withoutChange(t, () =>
        rejection(creditDeposit(args(email ?? user.email, asset, amount, hash))),
      );
      expect(failure).toBeInstanceOf(CliError);
      expect(failure).toHaveProperty('message', message);
    },
  );

  it('refuses a hash already credited as another deposit (another customer or amount)', async () => {
    const first = await verifiedCustomer(t);
    const second = await verifiedCustomer(t);
    const hash = randomBytes(32).toString('hex');
    await creditDeposit(args(first.email, 'BTC', '0.1', hash));
    for (const [email, amount] of [
      [second.email, '0.1'],
      [first.email, '0.2'],
    ] as const) {
      const failure = await withoutChange(t, () =>
        rejection(creditDeposit(args(email, 'BTC', amount, hash))),
      );
      expect(failure).toBeInstanceOf(CliError);
      expect(failure).toHaveProperty(
        'message',
        expect.stringMatching(
          `^Chain transaction ${hash} was already credited to BTC as another deposit \\([0-9a-f-]{36}\\)\\. Nothing changed\\.$`,
        ),
      );
    }
  });

  it('runs as a command against a database', async () => {
    const user = await verifiedCustomer(t);
    const run = promisify(execFile);
    const root = path.resolve(import.meta.dirname, '../../../../..');
    const env = {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.dataDir,
      COFFER_SECRET_KEY: t.secretKeyHex,
      LOG_LEVEL: 'silent',
    };
    const cli = (a: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...a], {
        cwd: root,
        env,
      });
    const hash = randomBytes(32).toString('hex');
    const done = await cli([
      'credit-deposit',
      ...args(user.email, 'ETH', '2.000000000000000001', hash),
    ]);
    expect(done.stdout.trim()).toBe(
      `Credited 2.000000000000000001 ETH to ${user.email} (chain transaction 0x${hash}). New balance: 2.000000000000000001 ETH.`,
    );
    const repeat = await cli([
      'credit-deposit',
      ...args(user.email, 'ETH', '2.000000000000000001', hash),
    ]);
    expect(repeat.stdout).toContain('was already credited');
    const refused = await rejection(cli(['credit-deposit', ...args(user.email, 'ETH', '0', hash)]));
    expect(refused).toMatchObject({ code: 1, stderr: 'Amount must be greater than 0\n' });
    await expectReconciled(t);
    // Three CLI processes, each compiling the server with tsx: slow on a busy machine.
  }, 90_000);
});
