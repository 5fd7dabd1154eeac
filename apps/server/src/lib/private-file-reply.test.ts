import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { safeDownloadName, sendPrivateFile } from './private-file-reply';

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
    expect(safeDownloadName('C:\\Users\\me\\passport.pdf')).toBe('passport.pdf');
    expect(safeDownloadName('..')).toBe('file');
    expect(safeDownloadName('')).toBe('file');
    const unicode = await serve({
      bytes: Buffer.from('x'),
      mime: 'image/jpeg',
      name: 'pässport.jpg',
    });
    expect(unicode.headers['content-disposition']).toContain("filename*=UTF-8''p%C3%A4ssport.jpg");
  });
});
