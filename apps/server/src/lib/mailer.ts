import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export type Mail = { to: string; subject: string; text: string };

/**
 * What makes one queued mail the same mail when it is sent again: the outbox row's id and
 * creation time. A crash after a send but before the row is marked sends it once more; with
 * this the second send overwrites the same .eml file, and over SMTP carries the same
 * Message-ID, so mail clients show one message.
 */
export type MailIdentity = { id: string; createdAt: Date };

export type Mailer = {
  send(mail: Mail, identity?: MailIdentity): Promise<void>;
  /** Whether sending waits on a mail server out of our hands (SMTP), not a local folder. */
  readonly remote: boolean;
};

/** The sender when MAIL_FROM is not set: no-reply at the installation's own host. */
export function defaultMailFrom(publicUrl: string): string {
  return `Coffer <no-reply@${new URL(publicUrl).hostname}>`;
}

/** The address part of a sender ('Coffer <no-reply@example.com>' → 'no-reply@example.com'), or null. */
export function senderAddress(from: string): string | null {
  const match = /^(?:[^<>@]*<)?([^\s<>@]+@[^\s<>@]+)>?$/.exec(from.trim());
  return match?.[1] ?? null;
}

/**
 * How long a mail server gets at each stage: a server that accepts the connection and never
 * answers fails the attempt within these (the outbox retries later), instead of holding a
 * delivery for nodemailer's default minutes.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The HTML part of a mail, made from its text so the two always say the same: paragraphs
 * kept, every http(s) address a link. Plain on purpose: no images, no remote content.
 */
export function htmlOf(text: string): string {
  const paragraphs = text
    .trim()
    .split(/\n{2,}/)
    .map((block) => {
      const lines = escapeHtml(block)
        .replace(
          /https?:\/\/[^\s<>"'()]+[^\s<>"'().,;:!?]/g,
          (url) => `<a href="${url}">${url}</a>`,
        )
        .split('\n')
        .join('<br>\n');
      return `<p>${lines}</p>`;
    });
  return `<!doctype html>\n<html><body style="font-family:sans-serif;line-height:1.5">\n${paragraphs.join('\n')}\n</body></html>\n`;
}

/**
 * A Message-ID that stays the same for every send of one outbox row. The creation time is
 * part of it because row ids start again from 1 in a new database: a reinstalled server
 * must not reuse the Message-ID of a mail an inbox already holds (it would hide the new one).
 */
export function messageIdOf(identity: MailIdentity, domain: string): string {
  return `<outbox-${identity.id}-${identity.createdAt.getTime()}@${domain}>`;
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
  /** The sender (MAIL_FROM): 'Name <address>' or an address. */
  from: string;
  dataDir: string;
  log: Logger;
  /** Milliseconds per SMTP stage; the defaults above, shorter only in tests. */
  timeouts?: typeof SMTP_TIMEOUTS;
}): Mailer {
  const domain = senderAddress(opts.from)?.split('@')[1] ?? 'coffer.invalid';
  /** One message, the same over SMTP and in the outbox folder: a text and an HTML part. */
  const message = (mail: Mail, identity?: MailIdentity) => ({
    from: opts.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: htmlOf(mail.text),
    ...(identity ? { messageId: messageIdOf(identity, domain) } : {}),
  });
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      ...(opts.timeouts ?? SMTP_TIMEOUTS),
    });
    return {
      remote: true,
      async send(mail, identity) {
        await transport.sendMail(message(mail, identity));
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
    remote: false,
    async send(mail, identity) {
      const info = await transport.sendMail(message(mail, identity));
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, emlFileName(identity));
      // Written in place (readers list this folder, so no temporary file beside it): a crash
      // mid-write leaves its row undelivered, and the re-send replaces the file whole.
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The file, never its link: a log line is read by more people than the mail's addressee,
      // and an operator without SMTP opens the file to pass the mail on.
      opts.log.info({ file, subject: mail.subject }, 'mail written to outbox');
    },
  };
}
