import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { STAFF_MSG } from '@coffer/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port';
import {
  createTestApp,
  mailsTo,
  sessionWorks,
  signIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '../test/helpers';
import { CliError, COMMANDS } from './cli-commands';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const ADMIN_PASSWORD = 'Operator-Pass-7';

function createAdmin(email: string, password: string): Promise<string> {
  const command = COMMANDS['create-admin'];
  if (!command) throw new Error('no create-admin command');
  return command.run(t.services, ['--email', email, '--password', password]);
}

/** What a promise was rejected with, or null when it resolved. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

describe('npm run cli -- create-admin', () => {
  it('creates a verified admin who can sign in at once and is then asked to set up 2FA', async () => {
    const said = await createAdmin(' Ops@Example.com ', ADMIN_PASSWORD);
    expect(said).toBe(
      'Admin ops@example.com created with the roles owner, approver, treasurer, compliance, support, auditor. Sign in at http://localhost:3000/auth and set up two-factor authentication.',
    );
    const { rows } = await t.services.pool.query(
      `SELECT u.email, u.email_verified_at IS NOT NULL AS verified, a.roles
         FROM users u LEFT JOIN admin_users a ON a.user_id = u.id`,
    );
    // Without --role, every role: the first admin of an install needs them all.
    expect(rows).toEqual([
      {
        email: 'ops@example.com',
        verified: true,
        roles: ['owner', 'approver', 'treasurer', 'compliance', 'support', 'auditor'],
      },
    ]);

    const res = await signIn(t, 'ops@example.com', ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json().session).toMatchObject({
      user: { email: 'ops@example.com', isAdmin: true },
      twoFactor: { required: true, enabled: false, verified: false },
    });
  });

  it.each([
    [
      'a weak password',
      'weak@example.com',
      'abcdefg1',
      'Password must contain at least one lowercase letter, one uppercase letter, and one number.',
    ],
    [
      'a short password',
      'short@example.com',
      'Ab1',
      'Password must be at least 8 characters long.',
    ],
    [
      'a common password',
      'common@example.com',
      'Password1',
      'This is a commonly used password. Add more words that are less common.',
    ],
    [
      'an e-mail that is not one',
      'not-an-address',
      ADMIN_PASSWORD,
      'Please enter a valid email address.',
    ],
    [
      'a taken e-mail',
      'OPS@example.com',
      ADMIN_PASSWORD,
      'An account with the e-mail ops@example.com already exists.',
    ],
  ])(
    'refuses %s with a clear message and creates nothing',
    async (_what, email, password, message) => {
      const failure = await withoutChange(t, () => rejection(createAdmin(email, password)));
      expect(failure).toBeInstanceOf(CliError);
      expect(failure).toHaveProperty('message', message);
    },
  );

  it('gives only the roles named with --role, once each, and the session carries them', async () => {
    const command = COMMANDS['create-admin'];
    if (!command) throw new Error('no create-admin command');
    const said = await command.run(t.services, [
      '--email',
      'desk@example.com',
      '--password',
      ADMIN_PASSWORD,
      '--role',
      'support, approver,support',
    ]);
    expect(said).toBe(
      'Admin desk@example.com created with the roles support, approver. Sign in at http://localhost:3000/auth and set up two-factor authentication.',
    );
    const { rows } = await t.services.pool.query(
      `SELECT a.roles FROM admin_users a JOIN users u ON u.id = a.user_id WHERE u.email = $1`,
      ['desk@example.com'],
    );
    expect(rows).toEqual([{ roles: ['support', 'approver'] }]);
    const res = await signIn(t, 'desk@example.com', ADMIN_PASSWORD);
    expect(res.json().session.user).toMatchObject({
      isAdmin: true,
      staffRoles: ['support', 'approver'],
    });
  });

  it.each([
    [
      'an unknown role',
      'support,wizard',
      'Unknown role wizard: the roles are owner, approver, treasurer, compliance, support, auditor.',
    ],
    ['no role at all', ' , ', STAFF_MSG.noRoles],
  ])('refuses %s with a clear message and creates nothing', async (_what, roles, message) => {
    const command = COMMANDS['create-admin'];
    if (!command) throw new Error('no create-admin command');
    const failure = await withoutChange(t, () =>
      rejection(
        command.run(t.services, [
          '--email',
          'roles@example.com',
          '--password',
          ADMIN_PASSWORD,
          '--role',
          roles,
        ]),
      ),
    );
    expect(failure).toBeInstanceOf(CliError);
    expect(failure).toHaveProperty('message', message);
  });

  it('reads an e-mail that starts with a dash as the value of --email, spaced or with =', async () => {
    const command = COMMANDS['create-admin'];
    if (!command) throw new Error('no create-admin command');
    const spaced = await command.run(t.services, [
      '--email',
      '-2+3abc@example.com',
      '--password',
      ADMIN_PASSWORD,
    ]);
    expect(spaced).toContain('Admin -2+3abc@example.com created with the roles');
    const joined = await command.run(t.services, [
      '--email=-dash@example.com',
      '--password',
      '-Operator-Pass-7',
    ]);
    expect(joined).toContain('Admin -dash@example.com created with the roles');
    expect((await signIn(t, '-2+3abc@example.com', ADMIN_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(t, '-dash@example.com', '-Operator-Pass-7')).statusCode).toBe(200);

    // The next word naming one of the command's own options is no e-mail: the e-mail is missing.
    const missing = await withoutChange(t, () =>
      rejection(command.run(t.services, ['--email', '--password', ADMIN_PASSWORD])),
    );
    expect(missing).toBeInstanceOf(CliError);
    expect(missing).toHaveProperty('message', expect.stringContaining("'--email'"));
    // A stray word beside the options is refused, as before.
    const stray = await withoutChange(t, () =>
      rejection(
        command.run(t.services, [
          '--email',
          'x@example.com',
          'extra',
          '--password',
          ADMIN_PASSWORD,
        ]),
      ),
    );
    expect(stray).toBeInstanceOf(CliError);
  });

  it('runs as a command against a database, and prints its usage when called without one', async () => {
    const run = promisify(execFile);
    const root = path.resolve(import.meta.dirname, '../../..');
    const env = {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.dataDir,
      COFFER_SECRET_KEY: t.secretKeyHex,
      LOG_LEVEL: 'silent',
    };
    const cli = (args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], {
        cwd: root,
        env,
      });

    const created = await cli([
      'create-admin',
      '--email',
      'night-ops@example.com',
      '--password',
      ADMIN_PASSWORD,
    ]);
    expect(created.stdout).toContain('Admin night-ops@example.com created with the roles');
    expect(
      (await signIn(t, 'night-ops@example.com', ADMIN_PASSWORD)).json().session.user.isAdmin,
    ).toBe(true);

    const usage = await rejection(cli([]));
    expect(usage).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('create-admin --email E --password P'),
    });
  });
});

describe('npm run cli -- reset-admin-2fa', () => {
  const reset = (args: string[]) => {
    const command = COMMANDS['reset-admin-2fa'];
    if (!command) throw new Error('no reset-admin-2fa command');
    return command.run(t.services, args);
  };

  it("removes a locked-out admin's factor, ends their sessions, mails them and writes the audit log", async () => {
    const admin = await verifiedAdmin(t);
    const said = await reset(['--email', admin.email, '--reason', 'Lost phone, identity checked']);
    expect(said).toBe(
      `Two-factor authentication of ${admin.email} was reset and 1 session(s) ended; written to the audit log. They set up a new authenticator at their next sign-in.`,
    );
    expect(await sessionWorks(t, admin.cookie)).toBe(false);
    const again = await signIn(t, admin.email, admin.password);
    expect(again.json().session.twoFactor).toMatchObject({ enabled: false, verified: false });
    const mail = mailsTo(t, admin.email).at(-1) ?? '';
    expect(mail).toContain('reset two-factor authentication');
    // The same security hold as any reset: the mail says until when, with its freeze link.
    expect(mail.replace(/=\r?\n/g, '')).toContain('on hold until');
    expect(await t.services.securityHold.status(admin.userId)).toMatchObject({ onHold: true });
    const { rows } = await t.services.pool.query(
      "SELECT actor_id, reason, after FROM audit_log WHERE action = 'admin.2fa.reset' AND target_id = $1",
      [admin.userId],
    );
    expect(rows).toEqual([
      {
        actor_id: null,
        reason: 'Lost phone, identity checked',
        after: { twoFactorEnabled: false, sessionsEnded: 1 },
      },
    ]);
    expect(await t.services.audit.verify(t.services.pool)).toMatchObject({ ok: true });
  });

  it('refuses a customer, an unknown address and a missing reason, changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    for (const [args, message] of [
      [
        ['--email', customer.email, '--reason', 'x'],
        `No admin with the e-mail ${customer.email}. Nothing changed.`,
      ],
      [
        ['--email', 'nobody@example.com', '--reason', 'x'],
        'No admin with the e-mail nobody@example.com. Nothing changed.',
      ],
      [['--email', customer.email], 'Say why (--reason): it goes to the audit log.'],
    ] as const) {
      const err = await withoutChange(t, () => rejection(reset([...args])));
      expect(err).toBeInstanceOf(CliError);
      expect((err as Error).message).toBe(message);
    }
  });
});

/**
 * A database that is still starting: its first `refusals` connections are answered as
 * PostgreSQL answers while it starts up (FATAL 57P03), every later one is relayed to
 * `target`, the test database.
 */
async function startingDatabase(target: URL, refusals: number) {
  const field = (type: string, value: string) => Buffer.from(`${type}${value}\0`);
  const body = Buffer.concat([
    field('S', 'FATAL'),
    field('V', 'FATAL'),
    field('C', '57P03'),
    field('M', 'the database system is starting up'),
    Buffer.from([0]),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  const startingUp = Buffer.concat([Buffer.from('E'), length, body]);
  const sockets = new Set<net.Socket>();
  let refused = 0;
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => {});
    if (refused < refusals) {
      refused += 1;
      // Answered after the client's startup message, as PostgreSQL does.
      client.once('data', () => client.end(startingUp));
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    refused: () => refused,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('npm run cli -- with a database that is down or starting up', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  /** Runs the CLI against `databaseUrl`; its exit code and what it printed. */
  const cli = (args: string[], databaseUrl: string) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: t.dataDir,
        COFFER_SECRET_KEY: t.secretKeyHex,
        LOG_LEVEL: 'silent',
      },
      timeout: 60_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code?: unknown; stdout?: string; stderr?: string }) => ({
        code: err.code,
        stdout: err.stdout ?? '',
        stderr: err.stderr ?? '',
      }),
    );

  it('says in one line that nothing answers, after trying for a while, and exits 1', async () => {
    const closed = new URL(t.databaseUrl);
    closed.hostname = '127.0.0.1';
    closed.port = String(await freePort());
    for (const command of ['audit-verify', 'restore']) {
      const run = await cli(
        [command, ...(command === 'restore' ? ['x.backup'] : [])],
        closed.toString(),
      );
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `Coffer cannot start: its database at 127.0.0.1:${closed.port} cannot be reached (connection refused, tried for 10 s); is PostgreSQL running?\n`,
      });
    }
  }, 90_000);

  it('waits for a database that is starting up, then does its work', async () => {
    const db = await startingDatabase(new URL(t.databaseUrl), 2);
    try {
      const run = await cli(['audit-verify'], db.url);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Audit log intact: \d+ rows\.\n$/);
      expect(db.refused()).toBe(2);
    } finally {
      await db.close();
    }
  }, 60_000);
});
