import { safeDownloadName } from '@coffer/shared';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendPrivateFile } from './private-file-reply';

async function serve(file: { bytes: Buffer; mime: string; name: string }) {
  const app = Fastify();
  app.get('/f', (_req, reply) => sendPrivateFile(reply, file));
  const res = await app.inject({ method: 'GET', url: '/f' });
  await app.close();
  return res;
}

describe('private file replies', () => {
  it('sends an image inline with headers that stop a browser from running anything', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const res = await serve({ bytes, mime: 'image/png', name: 'licence front.png' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(bytes);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('inline; filename="licence front.png"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('sends other files as downloads, text with its charset', async () => {
    const pdf = await serve({
      bytes: Buffer.from('%PDF-1.4'),
      mime: 'application/pdf',
      name: 'a.pdf',
    });
    expect(pdf.headers['content-disposition']).toBe('attachment; filename=a.pdf');
    const txt = await serve({ bytes: Buffer.from('hi'), mime: 'text/plain', name: 'n.txt' });
    expect(txt.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(txt.headers['content-disposition']).toBe('attachment; filename=n.txt');
  });

  it('never lets a stored name break the header or name a folder', async () => {
    const res = await serve({
      bytes: Buffer.from('x'),
      mime: 'application/pdf',
      name: '../../etc/pass"wd\r\nSet-Cookie: a=b.pdf',
    });
    const header = String(res.headers['content-disposition']);
    expect(header.startsWith('attachment; filename=')).toBe(true);
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).not.toContain('..');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(safeDownloadName('C:\\Users\\me\\passport.pdf', 'application/pdf')).toBe('passport.pdf');
    expect(safeDownloadName('..', 'application/pdf')).toBe('file.pdf');
    expect(safeDownloadName('', 'image/png')).toBe('file.png');
    const unicode = await serve({
      bytes: Buffer.from('x'),
      mime: 'image/jpeg',
      name: 'pässport.jpg',
    });
    expect(unicode.headers['content-disposition']).toContain("filename*=UTF-8''p%C3%A4ssport.jpg");
  });

  it('names every download by its stored type, so text is never saved as a script', async () => {
    const text = async (name: string) => {
      const res = await serve({ bytes: Buffer.from('@echo off'), mime: 'text/plain', name });
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      return res.headers['content-disposition'];
    };
    expect(await text('run.bat')).toBe('attachment; filename=run.txt');
    expect(await text('update.hta')).toBe('attachment; filename=update.txt');
    expect(await text('wallet.js')).toBe('attachment; filename=wallet.txt');
    expect(await text('README')).toBe('attachment; filename=README.txt');
    expect(await text('.bashrc')).toBe('attachment; filename=bashrc.txt');
    expect(await text('notes.TXT')).toBe('attachment; filename=notes.txt');
    // The rule: the last extension is kept only when it is the type's own, otherwise the
    // type's usual extension replaces it.
    expect(safeDownloadName('x.pdf.exe', 'image/png')).toBe('x.pdf.png');
    expect(safeDownloadName('photo.jpeg', 'image/jpeg')).toBe('photo.jpeg');
    expect(safeDownloadName('photo.png', 'image/jpeg')).toBe('photo.jpg');
    expect(safeDownloadName('statement.pdf.', 'application/pdf')).toBe('statement.pdf');
    expect(safeDownloadName('data.json', 'application/json')).toBe('data.json');
    expect(safeDownloadName('thing.exe', 'application/x-msdownload')).toBe('thing.bin');
    expect(safeDownloadName(`${'a'.repeat(300)}.exe`, 'text/plain')).toBe(`${'a'.repeat(146)}.txt`);
  });

  it('drops bidi overrides and every other invisible control or format character', async () => {
    // U+202E makes "invoice\u202Efdp.exe" read as "invoiceexe.pdf".
    const res = await serve({
      bytes: Buffer.from('x'),
      mime: 'text/plain',
      name: 'invoice\u202Efdp.exe',
    });
    expect(res.headers['content-disposition']).toBe('attachment; filename=invoicefdp.txt');
    const hidden = [
      '\u202E', // right-to-left override
      '\u202D', // left-to-right override
      '\u2066', // left-to-right isolate
      '\u200F', // right-to-left mark
      '\u200B', // zero-width space
      '\uFEFF', // byte-order mark
      '\u0085', // next line (C1)
      '\u2028', // line separator
      '\u0007', // bell (C0)
    ];
    for (const ch of hidden) {
      expect(safeDownloadName(`pass${ch}port.png`, 'image/png'), escape(ch)).toBe('passport.png');
    }
    const photo = await serve({
      bytes: Buffer.from('x'),
      mime: 'image/png',
      name: 'gnp\u202E.exe',
    });
    expect(photo.headers['content-disposition']).toBe('inline; filename=gnp.png');
  });
});
