import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export type Mail = { to: string; subject: string; text: string; link?: string };

export type Mailer = { send(mail: Mail): Promise<void> };

const FROM = 'Coffer <no-reply@coffer.local>';

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
      async send(mail) {
        await transport.sendMail({
          from: FROM,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
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
    async send(mail) {
      const info = await transport.sendMail({
        from: FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
      await fs.mkdir(outbox, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outbox, name);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The link is what the operator needs to pass on; it is logged only in outbox mode.
      opts.log.info({ file, link: mail.link, subject: mail.subject }, 'mail written to outbox');
    },
  };
}
