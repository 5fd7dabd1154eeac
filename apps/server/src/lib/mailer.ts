import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export type Mail = { to: string; subject: string; text: string; link?: string };

/**
 * What makes one queued mail the same mail when it is sent again: the outbox row's id and
 * creation time. A crash after a send but before the row is marked sends it once more; with
 * this the second send overwrites the same .eml file, and over SMTP carries the same
 * Message-ID, so mail clients show one message.
 */
export type MailIdentity = { id: string; createdAt: Date };

export type Mailer = { send(mail: Mail, identity?: MailIdentity): Promise<void> };

const FROM = 'Coffer <no-reply@coffer.local>';
const MESSAGE_ID_DOMAIN = 'coffer.local';

/**
 * A Message-ID that stays the same for every send of one outbox row. The creation time is
 * part of it because row ids start again from 1 in a new database: a reinstalled server
 * must not reuse the Message-ID of a mail an inbox already holds (it would hide the new one).
 */
export function messageIdOf(identity: MailIdentity): string {
  return `<outbox-${identity.id}-${identity.createdAt.getTime()}@${MESSAGE_ID_DOMAIN}>`;
}

/**
 * The .eml file name of a mail: its creation time, then a zero-padded id, so that names sort
 * in the order mails were queued (test helpers and operators read them that way). An outbox
 * row's name is fixed by the row, so a re-send overwrites its file instead of adding one.
 */
export function emlFileName(identity?: MailIdentity): string {
  if (!identity) {
    return `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
  }
  const at = identity.createdAt.toISOString().replace(/[:.]/g, '-');
  return `${at}-${identity.id.padStart(12, '0')}.eml`;
}

/**
 * With SMTP_URL, mail goes out through nodemailer. Without it, each message is written to
 * DATA_DIR/outbox/ as one .eml file and its link is logged, so a self-hoster can still
 * complete sign-up on a machine with no mail server.
 */
export function createMailer(opts: {
  smtpUrl: string | null;
  dataDir: string;
  log: Logger;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail, identity) {
        await transport.sendMail({
          from: FROM,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(identity ? { messageId: messageIdOf(identity) } : {}),
        });
        opts.log.info({ subject: mail.subject }, 'mail sent');
      },
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(mail, identity) {
      const info = await transport.sendMail({
        from: FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(identity ? { messageId: messageIdOf(identity) } : {}),
      });
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, emlFileName(identity));
      // Written in place (readers list this folder, so no temporary file beside it): a crash
      // mid-write leaves its row undelivered, and the re-send replaces the file whole.
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The link is what the operator needs to pass on; it is logged only in outbox mode.
      opts.log.info({ file, link: mail.link, subject: mail.subject }, 'mail written to outbox');
    },
  };
}
