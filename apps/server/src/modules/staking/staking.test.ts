import { fromMinor, type TStakingResponse, toMinor } from '@coffer/shared';
import { buildApp } from '@server/app';
import { createServices, type Services } from '@server/app-services';
import { withTransaction } from '@server/db/tx';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accrualWei, DAY_MS, parseRate } from './staking.accrual';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** The program starts after every test account was registered, so each cycle grid starts here. */
const PROGRAM_START = '2030-01-01T00:00:00.000Z';
const P = Date.parse(PROGRAM_START);
const at = (ms: number) => new Date(P + ms);
const eth = (wei: bigint) => fromMinor('ETH', wei);
const wei = (amount: string) => toMinor('ETH', amount);

/**
 * What a balance earns, computed here from the rule (balance × rate × time / 1 day,
 * rounded down to the wei) rather than by the module's own arithmetic.
 */
function earned(balanceWei: bigint, rate: { num: bigint; den: bigint }, ms: number): bigint {
  return (balanceWei * rate.num * BigInt(ms)) / (rate.den * BigInt(DAY_MS));
}
const RATE_1BP = { num: 1n, den: 10_000n }; // 0.0001 a day, the default
const RATE_2BP = { num: 2n, den: 10_000n };

/**
 * One server instance on the test's database with its own clock: its ledger hook, its
 * credit job and its HTTP app all read the time from it. Several instances on one
 * database behave as several servers would.
 */
type Instance = {
  services: Services;
  app: TestApp;
  set(ms: number): void;
  close(): Promise<void>;
};

let instances: Instance[] = [];

async function instance(t: TestApp, startMs: number): Promise<Instance> {
  let now = P + startMs;
  const { config, pool, db, secrets, mailer, log } = t.services;
  const services = createServices({
    config,
    pool,
    db,
    secrets,
    mailer,
    log,
    clock: () => new Date(now),
  });
  const app = await buildApp(services, { logger: false, serveWeb: false });
  await app.ready();
  const made: Instance = {
    services,
    app: { ...t, app, services },
    set(ms) {
      now = P + ms;
    },
    close: () => app.close(),
  };
  instances.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(instances.map((i) => i.close()));
  instances = [];
});

async function startProgramAt(t: TestApp, iso: string) {
  await t.services.pool.query(
    `UPDATE app_settings SET setting_value = $1 WHERE setting_key = 'staking_program_start'`,
    [iso],
  );
}

function move(i: Instance, userId: string, type: 'deposit' | 'withdrawal', amount: string) {
  return withTransaction(i.services.pool, (c) =>
    i.services.ledger.post(c, {
      userId,
      assetId: 'ETH',
      type,
      direction: type === 'deposit' ? 'credit' : 'debit',
      amount: wei(amount),
      status: 'completed',
      createdBy: null,
    }),
  );
}

async function board(i: Instance, user: SignedInUser): Promise<TStakingResponse> {
  const res = await call(i.app, { url: '/api/staking', cookie: user.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The customer's staking rewards as their history lists them, oldest cycle first. */
async function rewardsOf(t: TestApp, userId: string) {
  const { rows } = await t.services.pool.query<{
    crypto_amount: string;
    direction: string;
    status: string;
    staking_cycle_start: Date;
    transaction_date: Date;
  }>(
    `SELECT crypto_amount, direction, status, staking_cycle_start, transaction_date
       FROM transactions WHERE user_id = $1 AND transaction_type = 'staking_reward'
      ORDER BY staking_cycle_start`,
    [userId],
  );
  return rows.map((r) => ({
    amount: eth(wei(r.crypto_amount)),
    direction: r.direction,
    status: r.status,
    cycleStart: r.staking_cycle_start.toISOString(),
    date: r.transaction_date.toISOString(),
  }));
}

async function ethWallet(t: TestApp, userId: string) {
  const { rows } = await t.services.pool.query<{ balance_crypto: string; held: string }>(
    `SELECT balance_crypto, held FROM user_wallets WHERE user_id = $1 AND asset_id = 'ETH'`,
    [userId],
  );
  const row = rows[0];
  if (!row) throw new Error('no ETH wallet');
  return { balance: wei(row.balance_crypto), held: wei(row.held) };
}

async function expectLedgerReconciles(t: TestApp) {
  expect(await t.services.ledger.reconcile(t.services.pool)).toEqual([]);
}

describe('staking arithmetic', () => {
  it('reads the rate setting exactly and refuses what is not a rate', () => {
    expect(parseRate('0.0001')).toEqual({ digits: 1n, scale: 4 });
    expect(parseRate('0.000100000000000000')).toEqual({ digits: 1n, scale: 4 });
    for (const bad of ['', '1e-4', '-0.0001', '0.0000000000000000001', '0,0001', 'abc']) {
      expect(() => parseRate(bad), bad).toThrow(RangeError);
    }
  });

  it('rounds each accrual down to the wei: at most 1 wei is left out per checkpoint', () => {
    // 1 ETH for 1 hour at 0.0001 a day is 4 166 666 666 666.67 wei.
    expect(accrualWei(wei('1'), parseRate('0.0001'), HOUR)).toBe(4_166_666_666_666n);
    expect(accrualWei(1n, parseRate('0.0001'), DAY_MS)).toBe(0n);
    expect(accrualWei(wei('1'), parseRate('0.0001'), -HOUR)).toBe(0n);
  });
});

describe('ETH staking', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await startProgramAt(t, PROGRAM_START);
  });
  afterAll(async () => {
    await t.close();
  });

  it('pays a deposit made an hour before the cycle ends one hour of reward, not a day', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, 23 * HOUR);
    await move(server, user.userId, 'deposit', '1');

    const during = await board(server, user);
    expect(during).toMatchObject({
      ethBalance: '1',
      isStaking: true,
      status: 'active',
      pendingAccrued: '0',
      dailyEarnings: '0.0001',
      accruingPerSecond: eth(earned(wei('1'), RATE_1BP, 1000)),
      cycleStartAt: PROGRAM_START,
      nextCreditAt: at(24 * HOUR).toISOString(),
      stakingSince: at(23 * HOUR).toISOString(),
      creditedTotal: '0',
    });

    server.set(24 * HOUR);
    expect(await server.services.staking.runCreditJob()).toEqual({
      credited: 1,
      advanced: 0,
      failed: 0,
    });

    const oneHour = earned(wei('1'), RATE_1BP, HOUR);
    expect(eth(oneHour)).toBe('0.000004166666666666');
    expect(await rewardsOf(t, user.userId)).toEqual([
      {
        amount: eth(oneHour),
        direction: 'credit',
        status: 'completed',
        cycleStart: PROGRAM_START,
        date: at(24 * HOUR).toISOString(),
      },
    ]);
    expect(await board(server, user)).toMatchObject({
      ethBalance: eth(wei('1') + oneHour),
      creditedTotal: eth(oneHour),
      pendingAccrued: '0',
      cycleStartAt: at(24 * HOUR).toISOString(),
      nextCreditAt: at(48 * HOUR).toISOString(),
    });
    await expectLedgerReconciles(t);
  });

  it('splits a cycle at every balance change: each part earns on the balance held then', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, 0);
    await move(server, user.userId, 'deposit', '1');
    server.set(12 * HOUR);
    await move(server, user.userId, 'deposit', '2');
    server.set(15 * HOUR);
    const firstHalf = earned(wei('1'), RATE_1BP, 12 * HOUR);
    expect((await board(server, user)).pendingAccrued).toBe(
      eth(firstHalf + earned(wei('3'), RATE_1BP, 3 * HOUR)),
    );
    server.set(18 * HOUR);
    await move(server, user.userId, 'withdrawal', '1.5');

    server.set(24 * HOUR);
    await server.services.staking.runCreditJob();
    // 1 ETH for 12 h + 3 ETH for 6 h + 1.5 ETH for 6 h = 39 ETH-hours.
    const expected =
      firstHalf + earned(wei('3'), RATE_1BP, 6 * HOUR) + earned(wei('1.5'), RATE_1BP, 6 * HOUR);
    expect(eth(expected)).toBe('0.0001625');
    expect((await rewardsOf(t, user.userId)).map((r) => r.amount)).toEqual([eth(expected)]);
    expect((await board(server, user)).ethBalance).toBe(eth(wei('1.5') + expected));
    await expectLedgerReconciles(t);
  });

  it('starts accrual at the program start for ETH held before it', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, -2 * HOUR);
    await move(server, user.userId, 'deposit', '1');
    expect(await board(server, user)).toMatchObject({
      status: 'not_started',
      isStaking: false,
      pendingAccrued: '0',
      accruingPerSecond: '0',
      dailyEarnings: '0',
      activeStakers: 0,
      stakingSince: null,
    });

    server.set(HOUR);
    expect(await board(server, user)).toMatchObject({
      status: 'active',
      pendingAccrued: eth(earned(wei('1'), RATE_1BP, HOUR)),
      stakingSince: PROGRAM_START,
      cycleStartAt: PROGRAM_START,
    });
    await expectLedgerReconciles(t);
  });

  it('starts the cycles of a later registration at the registration', async () => {
    const user = await verifiedCustomer(t);
    await t.services.pool.query('UPDATE user_profiles SET registration_date = $2 WHERE id = $1', [
      user.userId,
      at(5 * HOUR),
    ]);
    const server = await instance(t, 6 * HOUR);
    await move(server, user.userId, 'deposit', '2');
    server.set(7 * HOUR);
    expect(await board(server, user)).toMatchObject({
      cycleStartAt: at(5 * HOUR).toISOString(),
      nextCreditAt: at(29 * HOUR).toISOString(),
      pendingAccrued: eth(earned(wei('2'), RATE_1BP, HOUR)),
    });
    server.set(29 * HOUR);
    await server.services.staking.runCreditJob();
    expect(await rewardsOf(t, user.userId)).toEqual([
      expect.objectContaining({
        amount: eth(earned(wei('2'), RATE_1BP, 23 * HOUR)),
        cycleStart: at(5 * HOUR).toISOString(),
        date: at(29 * HOUR).toISOString(),
      }),
    ]);
    await expectLedgerReconciles(t);
  });

  it('credits each cycle once, whatever restarts and however many instances run the job', async () => {
    const user = await verifiedCustomer(t);
    const first = await instance(t, HOUR);
    await move(first, user.userId, 'deposit', '1');

    // The job runs twice for the same moment, then a restarted server runs it again.
    first.set(24 * HOUR + 30_000);
    await first.services.staking.runCreditJob();
    await first.services.staking.runCreditJob();
    const restarted = await instance(t, 24 * HOUR + 30_000);
    await restarted.services.staking.runCreditJob();
    expect(await rewardsOf(t, user.userId)).toHaveLength(1);

    // Two instances at once (the job's lock keeps this from happening: jobs.test.ts): the
    // row locks let one credit this user's cycle, and the other finds it paid.
    first.set(48 * HOUR + 30_000);
    const second = await instance(t, 48 * HOUR + 30_000);
    const runs = await Promise.all([
      first.services.staking.runCreditJob(),
      second.services.staking.runCreditJob(),
    ]);
    expect(runs.every((r) => r.failed === 0)).toBe(true);
    expect(await rewardsOf(t, user.userId)).toHaveLength(2);

    // Even without the lock, the row locks and the unique index allow one credit per cycle.
    first.set(72 * HOUR + 30_000);
    const now = at(72 * HOUR + 30_000);
    const racing = await Promise.all([
      first.services.staking.creditDueCycles(now),
      second.services.staking.creditDueCycles(now),
    ]);
    expect(racing.every((r) => r.failed === 0)).toBe(true);

    const rewards = await rewardsOf(t, user.userId);
    expect(rewards.map((r) => r.cycleStart)).toEqual([
      PROGRAM_START,
      at(24 * HOUR).toISOString(),
      at(48 * HOUR).toISOString(),
    ]);
    const day1 = earned(wei('1'), RATE_1BP, 23 * HOUR);
    const day2 = earned(wei('1') + day1, RATE_1BP, DAY_MS);
    const day3 = earned(wei('1') + day1 + day2, RATE_1BP, DAY_MS);
    expect(rewards.map((r) => r.amount)).toEqual([eth(day1), eth(day2), eth(day3)]);
    await expectLedgerReconciles(t);
  });

  it('catches up after downtime: each missed cycle credited once, at its own end', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, 0);
    await move(server, user.userId, 'deposit', '1');

    // Down for three days and five hours.
    server.set(3 * DAY_MS + 5 * HOUR);
    await server.services.staking.runCreditJob();
    await server.services.staking.runCreditJob();

    // Each reward earns from the end of the cycle it paid: the balance compounds daily.
    const day1 = earned(wei('1'), RATE_1BP, DAY_MS);
    const day2 = earned(wei('1') + day1, RATE_1BP, DAY_MS);
    const day3 = earned(wei('1') + day1 + day2, RATE_1BP, DAY_MS);
    expect(eth(day1)).toBe('0.0001');
    expect(eth(day2)).toBe('0.00010001');
    expect(await rewardsOf(t, user.userId)).toEqual(
      [day1, day2, day3].map((amount, n) => ({
        amount: eth(amount),
        direction: 'credit',
        status: 'completed',
        cycleStart: at(n * DAY_MS).toISOString(),
        date: at((n + 1) * DAY_MS).toISOString(),
      })),
    );
    const balance = wei('1') + day1 + day2 + day3;
    expect(await board(server, user)).toMatchObject({
      ethBalance: eth(balance),
      creditedTotal: eth(day1 + day2 + day3),
      pendingAccrued: eth(earned(balance, RATE_1BP, 5 * HOUR)),
      cycleStartAt: at(3 * DAY_MS).toISOString(),
      nextCreditAt: at(4 * DAY_MS).toISOString(),
    });
    await expectLedgerReconciles(t);
  });

  it('gives a customer without ETH nothing, and no transaction', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, 3 * DAY_MS);
    await server.services.staking.runCreditJob();
    expect(await rewardsOf(t, user.userId)).toEqual([]);
    expect(await board(server, user)).toMatchObject({
      ethBalance: '0',
      isStaking: false,
      status: 'no_eth',
      pendingAccrued: '0',
      accruingPerSecond: '0',
      dailyEarnings: '0',
      creditedTotal: '0',
      cycleStartAt: null,
      nextCreditAt: null,
      stakingSince: null,
    });
    await expectLedgerReconciles(t);
  });

  it('puts a customer who comes back to ETH on the current cycle, not a past one', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, 0);
    await move(server, user.userId, 'deposit', '1');
    server.set(12 * HOUR);
    await move(server, user.userId, 'withdrawal', '1');
    server.set(DAY_MS);
    await server.services.staking.runCreditJob();
    const halfDay = earned(wei('1'), RATE_1BP, 12 * HOUR);
    await move(server, user.userId, 'withdrawal', eth(halfDay));

    // Days without ETH: nothing owed, nothing credited.
    server.set(5 * DAY_MS + 23 * HOUR);
    await server.services.staking.runCreditJob();
    await move(server, user.userId, 'deposit', '1');
    expect(await board(server, user)).toMatchObject({
      cycleStartAt: at(5 * DAY_MS).toISOString(),
      nextCreditAt: at(6 * DAY_MS).toISOString(),
      stakingSince: at(5 * DAY_MS + 23 * HOUR).toISOString(),
    });

    server.set(6 * DAY_MS);
    await server.services.staking.runCreditJob();
    expect(await rewardsOf(t, user.userId)).toEqual([
      expect.objectContaining({ amount: eth(halfDay), cycleStart: PROGRAM_START }),
      expect.objectContaining({
        amount: eth(earned(wei('1'), RATE_1BP, HOUR)),
        cycleStart: at(5 * DAY_MS).toISOString(),
      }),
    ]);
    await expectLedgerReconciles(t);
  });

  it('moves a cycle on without a transaction when its accrual rounds to nothing', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, 0);
    await move(server, user.userId, 'deposit', '0.000000000000000001');
    server.set(DAY_MS);
    await server.services.staking.runCreditJob();
    expect(await rewardsOf(t, user.userId)).toEqual([]);
    expect(await board(server, user)).toMatchObject({
      ethBalance: '0.000000000000000001',
      status: 'active',
      pendingAccrued: '0',
      cycleStartAt: at(DAY_MS).toISOString(),
    });
    await expectLedgerReconciles(t);
  });

  it('makes a credited reward withdrawable', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, 0);
    await move(server, user.userId, 'deposit', '1');
    server.set(DAY_MS);
    await server.services.staking.runCreditJob();
    const all = wei('1.0001');
    expect(await ethWallet(t, user.userId)).toEqual({ balance: all, held: 0n });

    const withdraw = (amount: bigint) =>
      withTransaction(server.services.pool, (c) =>
        server.services.ledger.post(c, {
          userId: user.userId,
          assetId: 'ETH',
          type: 'withdrawal',
          direction: 'debit',
          amount,
          status: 'pending',
          withdrawalAddress: `0x${'1'.repeat(40)}`,
          createdBy: null,
        }),
      );
    const refused = await withoutChange(t, () => withdraw(all + 1n).catch((err: unknown) => err));
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    await withdraw(all);
    expect(await ethWallet(t, user.userId)).toEqual({ balance: all, held: all });
    await expectLedgerReconciles(t);
  });

  it('shows the figures of the board to their owner only, counting customers who hold ETH', async () => {
    const server = await instance(t, 2 * HOUR);
    const watcher = await verifiedCustomer(t);
    const before = (await board(server, watcher)).activeStakers;

    const user = await verifiedCustomer(t);
    const admin = await verifiedAdmin(t);
    await move(server, user.userId, 'deposit', '2.5');
    await move(server, admin.userId, 'deposit', '1');
    // The count is cached for a few seconds.
    server.set(2 * HOUR + 11_000);
    const mine = await board(server, user);
    expect(mine).toEqual({
      ethBalance: '2.5',
      isStaking: true,
      status: 'active',
      dailyRate: '0.0001',
      programStart: PROGRAM_START,
      activeStakers: before + 1,
      creditedTotal: '0',
      pendingAccrued: eth(earned(wei('2.5'), RATE_1BP, 11_000)),
      accruingPerSecond: eth(earned(wei('2.5'), RATE_1BP, 1000)),
      dailyEarnings: '0.00025',
      cycleStartAt: PROGRAM_START,
      nextCreditAt: at(DAY_MS).toISOString(),
      stakingSince: at(2 * HOUR).toISOString(),
      asOf: at(2 * HOUR + 11_000).toISOString(),
    });
    // Someone else's ETH is not on the watcher's board.
    expect(await board(server, watcher)).toMatchObject({ ethBalance: '0', pendingAccrued: '0' });
    await expectLedgerReconciles(t);
  });

  it('answers 401 to a visitor and 403 TWO_FACTOR_REQUIRED before the second factor', async () => {
    const anonymous = await withoutChange(t, () => call(t, { url: '/api/staking' }));
    expect(anonymous.statusCode).toBe(401);
    expect(errorOf(anonymous).error).toBe('UNAUTHENTICATED');

    const unverified = await signUpAndSignIn(t);
    const early = await withoutChange(t, () =>
      call(t, { url: '/api/staking', cookie: unverified.cookie }),
    );
    expect(early.statusCode).toBe(403);
    expect(errorOf(early).error).toBe('TWO_FACTOR_REQUIRED');
  });
});

describe('a change of the daily rate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await startProgramAt(t, PROGRAM_START);
  });
  afterAll(async () => {
    await t.close();
  });

  async function setRate(rate: string, changedAtMs: number) {
    await t.services.pool.query(
      `UPDATE app_settings SET setting_value = $1, updated_at = $2
        WHERE setting_key = 'staking_daily_rate'`,
      [rate, at(changedAtMs)],
    );
  }

  it('applies from the next checkpoint on, never to accrual already shown', async () => {
    const user = await verifiedCustomer(t);
    const server = await instance(t, 0);
    await move(server, user.userId, 'deposit', '1');

    server.set(6 * HOUR);
    await setRate('0.0002', 6 * HOUR);
    // Until the next checkpoint the rate in force goes on: the pending amount does not jump.
    server.set(6 * HOUR + 30_000);
    expect(await board(server, user)).toMatchObject({
      dailyRate: '0.0002',
      pendingAccrued: eth(earned(wei('1'), RATE_1BP, 6 * HOUR + 30_000)),
      dailyEarnings: '0.0001',
    });

    // The job's next run checkpoints every staker still on the old rate.
    server.set(6 * HOUR + MINUTE);
    await server.services.staking.runCreditJob();
    expect((await board(server, user)).dailyEarnings).toBe('0.0002');

    server.set(DAY_MS);
    await server.services.staking.runCreditJob();
    const expected =
      earned(wei('1'), RATE_1BP, 6 * HOUR + MINUTE) +
      earned(wei('1'), RATE_2BP, DAY_MS - 6 * HOUR - MINUTE);
    expect((await rewardsOf(t, user.userId)).map((r) => r.amount)).toEqual([eth(expected)]);
    await expectLedgerReconciles(t);
  });

  it('pays cycles that ended before the change at the old rate, even when credited after it', async () => {
    await setRate('0.0001', 0);
    const user = await verifiedCustomer(t);
    const server = await instance(t, 0);
    await move(server, user.userId, 'deposit', '1');

    // The job was down over two cycle ends; the rate changed before it came back.
    await setRate('0.0002', 2 * DAY_MS + 2 * HOUR);
    server.set(2 * DAY_MS + 3 * HOUR);
    await server.services.staking.runCreditJob();
    const day1 = earned(wei('1'), RATE_1BP, DAY_MS);
    const day2 = earned(wei('1') + day1, RATE_1BP, DAY_MS);
    expect((await rewardsOf(t, user.userId)).map((r) => r.amount)).toEqual([eth(day1), eth(day2)]);

    // The current cycle: the old rate up to the job's checkpoint (the first after the
    // change), the new one from there.
    server.set(3 * DAY_MS);
    await server.services.staking.runCreditJob();
    const held = wei('1') + day1 + day2;
    const day3 = earned(held, RATE_1BP, 3 * HOUR) + earned(held, RATE_2BP, DAY_MS - 3 * HOUR);
    expect((await rewardsOf(t, user.userId)).map((r) => r.amount)).toEqual([
      eth(day1),
      eth(day2),
      eth(day3),
    ]);
    await expectLedgerReconciles(t);
  });
});
