import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createPool } from '@server/db/client';
import { withTransaction } from '@server/db/tx';
import { createLogger } from '@server/infra';
import { createMailer, type Mail, type Mailer, type MailIdentity } from '@server/lib/mailer';
import { createTestApp, mailsTo, type TestApp, tableText } from '@server-test/helpers';
import type pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOutbox, MAX_ATTEMPTS, type Outbox, retryDelaySeconds } from '.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  // Each test starts with no queued work, so one test's rows never reach another's mailer.
  await t.services.pool.query('DELETE FROM outbox');
});

const silent = createLogger('silent');

/** The app's own file mailer (DATA_DIR/outbox), with a count of sends per outbox row. */
function countingMailer(opts: { failFirst?: number; delayMs?: number } = {}) {
  const real = createMailer({
    smtpUrl: null,
    from: 'Coffer <no-reply@coffer.test>',
    dataDir: t.dataDir,
    log: silent,
  });
  const sends: string[] = [];
  let calls = 0;
  const mailer: Mailer = {
    remote: false,
    async send(mail: Mail, identity?: MailIdentity) {
      calls++;
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      if (calls <= (opts.failFirst ?? 0)) {
        // What an SMTP refusal says: it names the recipient, and here the mail's link too.
        const link = /https?:\/\/\S+/.exec(mail.text)?.[0] ?? 'no link';
        throw Object.assign(new Error(`550 mailbox unavailable <${mail.to}> for ${link}`), {
          code: 'EENVELOPE',
        });
      }
      await real.send(mail, identity);
      sends.push(identity?.id ?? 'none');
    },
  };
  return { mailer, sends, calls: () => calls };
}

function outboxWith(mailer: Mailer, pool: pg.Pool = t.services.pool, log = silent): Outbox {
  return createOutbox({ pool, secrets: t.services.secrets, mailer, files: t.services.files, log });
}

const mailTo = (to: string, n = 1): Mail => ({
  to,
  subject: `Outbox test ${n}`,
  text: `Open https://coffer.example/verify-email?token=one-time-${n}\n`,
});

async function queue(outbox: Outbox, ...mails: Mail[]) {
  await withTransaction(t.services.pool, async (client) => {
    for (const m of mails) await outbox.mail(client, m);
  });
}

type Row = {
  id: string;
  attempts: number;
  last_error: string | null;
  done: boolean;
  due_in: number | null;
};

async function rows(): Promise<Row[]> {
  const { rows } = await t.services.pool.query<Row>(
    `SELECT id, attempts, last_error, done_at IS NOT NULL AS done,
            CASE WHEN next_attempt_at = 'infinity' THEN NULL
                 ELSE EXTRACT(EPOCH FROM next_attempt_at - now())::float END AS due_in
       FROM outbox ORDER BY id`,
  );
  return rows;
}

/** Time passes: every row waiting for its next attempt is due now. */
async function timePasses() {
  await t.services.pool.query(
    `UPDATE outbox SET next_attempt_at = now() - interval '1 second'
      WHERE done_at IS NULL AND next_attempt_at <> 'infinity'`,
  );
}

describe('outbox: queued in a transaction', () => {
  it('never sends a mail whose transaction rolled back', async () => {
    const { mailer, calls } = countingMailer();
    const outbox = outboxWith(mailer);
    await expect(
      withTransaction(t.services.pool, async (client) => {
        await outbox.mail(client, mailTo('rolled-back@example.com'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await outbox.deliver();
    expect(calls()).toBe(0);
    expect(mailsTo(t, 'rolled-back@example.com')).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('keeps the payload encrypted: no address, subject or link in the table', async () => {
    const { mailer } = countingMailer();
    const outbox = outboxWith(mailer);
    await queue(outbox, mailTo('private-person@example.com', 7));
    await withTransaction(t.services.pool, (client) =>
      outbox.deleteFiles(client, { keys: ['kyc-documents/someone/front-1-passport.png'] }),
    );
    const stored = await tableText(t, 'outbox');
    for (const secret of [
      'private-person',
      'Outbox test 7',
      'one-time-7',
      'coffer.example',
      'passport',
    ]) {
      expect(stored).not.toContain(secret);
    }
    // And yet it is the mail: delivered, it reads as queued.
    await outbox.deliver();
    const [sent] = mailsTo(t, 'private-person@example.com');
    expect(sent).toContain('Subject: Outbox test 7');
    expect(sent).toContain('one-time-7');
  });

  it('refuses an invalid file key in the caller transaction, queueing nothing', async () => {
    const outbox = outboxWith(countingMailer().mailer);
    await expect(
      withTransaction(t.services.pool, (client) =>
        outbox.deleteFiles(client, { keys: ['../secret.key'] }),
      ),
    ).rejects.toThrow('Invalid file key');
    expect(await rows()).toEqual([]);
  });
});

describe('outbox: delivery', () => {
  it('retries a failing mailer with growing pauses and sends the mail once when it works', async () => {
    const { mailer, sends, calls } = countingMailer({ failFirst: 2 });
    const outbox = outboxWith(mailer);
    await queue(outbox, mailTo('retry@example.com', 1));

    await outbox.deliver();
    const [first] = await rows();
    expect(first).toMatchObject({ attempts: 1, done: false });
    expect(first?.due_in).toBeGreaterThan(retryDelaySeconds(1) - 5);
    expect(first?.due_in).toBeLessThanOrEqual(retryDelaySeconds(1));
    // The reason is kept, without the address or the one-time link it quoted.
    expect(first?.last_error).toMatch(/^EENVELOPE: 550 mailbox unavailable/);
    expect(first?.last_error).not.toContain('retry@example.com');
    expect(first?.last_error).not.toContain('one-time-1');

    // Not due yet: a second run does not try again.
    await outbox.deliver();
    expect(calls()).toBe(1);

    await timePasses();
    await outbox.deliver();
    const [second] = await rows();
    expect(second).toMatchObject({ attempts: 2, done: false });
    expect(second?.due_in).toBeGreaterThan(retryDelaySeconds(2) - 5);
    expect(retryDelaySeconds(2)).toBe(2 * retryDelaySeconds(1));

    await timePasses();
    await outbox.deliver();
    expect(await rows()).toMatchObject([{ attempts: 2, done: true, last_error: null }]);
    await timePasses();
    await outbox.deliver();
    expect(calls()).toBe(3);
    expect(sends).toHaveLength(1);
    expect(mailsTo(t, 'retry@example.com')).toHaveLength(1);
  });

  it('pauses at most an hour, and gives up after the last attempt with an error in the log', async () => {
    expect(retryDelaySeconds(MAX_ATTEMPTS)).toBe(3600);
    const lines: string[] = [];
    const log = pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const { mailer, calls } = countingMailer({ failFirst: Number.POSITIVE_INFINITY });
    const outbox = outboxWith(mailer, t.services.pool, log);
    await queue(outbox, mailTo('never@example.com'));
    for (let i = 0; i < MAX_ATTEMPTS + 3; i++) {
      await outbox.deliver();
      await timePasses();
    }
    expect(calls()).toBe(MAX_ATTEMPTS);
    expect(await rows()).toMatchObject([{ attempts: MAX_ATTEMPTS, done: false, due_in: null }]);
    const gaveUp = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 50);
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]).toMatchObject({ kind: 'mail', attempts: MAX_ATTEMPTS });
    expect(lines.join('\n')).not.toContain('never@example.com');
  });

  it('sends each row once when two instances deliver at the same time', async () => {
    // Two instances: each its own pool and outbox, one database, one mail folder.
    const poolA = createPool(t.databaseUrl, 4);
    const poolB = createPool(t.databaseUrl, 4);
    try {
      const a = countingMailer({ delayMs: 40 });
      const b = countingMailer({ delayMs: 40 });
      const mails = Array.from({ length: 8 }, (_, i) => mailTo(`both-${i}@example.com`, i));
      await queue(outboxWith(a.mailer), ...mails);
      await Promise.all([
        outboxWith(a.mailer, poolA).deliver(),
        outboxWith(b.mailer, poolB).deliver(),
      ]);
      const sent = [...a.sends, ...b.sends].sort();
      expect(sent).toEqual((await rows()).map((r) => r.id).sort());
      expect(new Set(sent).size).toBe(8);
      // Both really worked at once: each took some of the rows.
      expect(a.sends.length).toBeGreaterThan(0);
      expect(b.sends.length).toBeGreaterThan(0);
      for (const m of mails) expect(mailsTo(t, m.to)).toHaveLength(1);
      expect((await rows()).every((r) => r.done)).toBe(true);
    } finally {
      await poolA.end();
      await poolB.end();
    }
  });

  it('returns only once a row another deliverer holds has gone out', async () => {
    const slow = countingMailer({ delayMs: 300 });
    const outbox = outboxWith(slow.mailer);
    await queue(outbox, mailTo('waited-for@example.com'));
    const first = outbox.deliver();
    // The first deliverer has claimed the row and is sending it.
    await expect.poll(() => slow.calls()).toBe(1);
    const second = countingMailer();
    await outboxWith(second.mailer).deliver();
    expect(mailsTo(t, 'waited-for@example.com')).toHaveLength(1);
    await first;
    expect(slow.sends).toHaveLength(1);
    expect(second.calls()).toBe(0);
  });

  it('writes a re-sent row over its own file, with the same Message-ID', async () => {
    const { mailer, sends } = countingMailer();
    const outbox = outboxWith(mailer);
    await queue(outbox, mailTo('resent@example.com'));
    await outbox.deliver();
    const folder = path.join(t.dataDir, 'outbox');
    const filesBefore = fs.readdirSync(folder);
    const [id] = (await rows()).map((r) => r.id);
    // A crash after the send, before the row was marked: the row is due again.
    await t.services.pool.query('UPDATE outbox SET done_at = NULL');
    await outbox.deliver();
    expect(sends).toEqual([id, id]);
    expect(fs.readdirSync(folder)).toEqual(filesBefore);
    const [mail] = mailsTo(t, 'resent@example.com');
    expect(mail).toMatch(new RegExp(`Message-ID: <outbox-${id}-\\d+@coffer\\.test>`));
    expect(
      filesBefore.find((f) => f.endsWith(`-${String(id).padStart(12, '0')}.eml`)),
    ).toBeDefined();
  });

  it('names mail files so they sort in the order the mails were queued', async () => {
    const outbox = outboxWith(countingMailer().mailer);
    for (let i = 0; i < 12; i++) await queue(outbox, mailTo('order@example.com', i));
    await outbox.deliver();
    const subjects = mailsTo(t, 'order@example.com').map((m) => m.match(/Subject: (.*)/)?.[1]);
    expect(subjects).toEqual(Array.from({ length: 12 }, (_, i) => `Outbox test ${i}`));
  });

  it('removes queued files after the commit, and none when the transaction rolls back', async () => {
    const outbox = outboxWith(countingMailer().mailer);
    const { files } = t.services;
    await files.put('chat-files/room-x/a.txt', Buffer.from('a'));
    await files.put('chat-files/room-x/b.txt', Buffer.from('b'));
    await files.put('kyc-documents/u1/front.png', Buffer.from('f'));
    await expect(
      withTransaction(t.services.pool, async (client) => {
        await outbox.deleteFiles(client, {
          keys: ['kyc-documents/u1/front.png'],
          prefixes: ['chat-files/room-x'],
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await outbox.deliver();
    expect(await files.get('kyc-documents/u1/front.png')).not.toBeNull();
    expect(await files.get('chat-files/room-x/a.txt')).not.toBeNull();

    await withTransaction(t.services.pool, (client) =>
      outbox.deleteFiles(client, {
        keys: ['kyc-documents/u1/front.png'],
        prefixes: ['chat-files/room-x'],
      }),
    );
    // Committed but not yet carried out: still there until delivery.
    expect(await files.get('kyc-documents/u1/front.png')).not.toBeNull();
    await outbox.deliver();
    expect(await files.get('kyc-documents/u1/front.png')).toBeNull();
    expect(await files.get('chat-files/room-x/a.txt')).toBeNull();
    expect(await files.get('chat-files/room-x/b.txt')).toBeNull();
    expect((await rows()).map((r) => r.done)).toEqual([true]);
  });

  it('removes delivered rows after a week, never undelivered ones', async () => {
    const outbox = outboxWith(countingMailer({ failFirst: 1 }).mailer);
    await queue(outbox, mailTo('old-1@example.com', 1), mailTo('old-2@example.com', 2));
    await outbox.deliver();
    await t.services.pool.query("UPDATE outbox SET created_at = now() - interval '30 days'");
    await t.services.pool.query(
      "UPDATE outbox SET done_at = now() - interval '8 days' WHERE done_at IS NOT NULL",
    );
    expect(await outbox.prune()).toBe(1);
    expect(await rows()).toMatchObject([{ done: false, attempts: 1 }]);
  });
});
