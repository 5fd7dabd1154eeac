import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { realJpeg, realPng } from '../../test/image-fixtures';
import { MAX_UPLOAD_BYTES, type SniffedType, sniff } from './file-sniff';

const ALL: SniffedType[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'application/json',
];
const KYC: SniffedType[] = ['image/jpeg', 'image/png', 'application/pdf'];

const pdf = (body: string) => Buffer.from(`%PDF-1.7\n${body}\n%%EOF\n`, 'latin1');
const PLAIN_PDF = pdf('1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj');

describe('file type detection by content', () => {
  it('recognises each accepted type from its bytes', () => {
    expect(sniff(realJpeg(), ALL)).toEqual({ ok: true, mime: 'image/jpeg' });
    expect(sniff(realPng(), ALL)).toEqual({ ok: true, mime: 'image/png' });
    expect(sniff(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), ALL)).toEqual({
      ok: true,
      mime: 'image/gif',
    });
    const webp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.from([20, 0, 0, 0]),
      Buffer.from('WEBPVP8 '),
      Buffer.alloc(12),
    ]);
    expect(sniff(webp, ALL)).toEqual({ ok: true, mime: 'image/webp' });
    expect(sniff(PLAIN_PDF, ALL)).toEqual({ ok: true, mime: 'application/pdf' });
    expect(sniff(Buffer.from('Order 42: a < b, fine.\nnaïve ✓'), ALL)).toEqual({
      ok: true,
      mime: 'text/plain',
    });
    expect(sniff(Buffer.from('{"amount":"1.5","ok":true}'), ALL)).toEqual({
      ok: true,
      mime: 'application/json',
    });
  });

  it('ignores what the name says: only the allowed types pass', () => {
    expect(sniff(Buffer.from('just text'), KYC)).toMatchObject({ ok: false, reason: 'type' });
    expect(sniff(realPng(), ['application/pdf'])).toMatchObject({ ok: false, reason: 'type' });
    // JSON is text, so a place that takes text takes JSON as text.
    expect(sniff(Buffer.from('[1,2]'), ['text/plain'])).toEqual({ ok: true, mime: 'text/plain' });
  });

  it('refuses HTML, SVG and XML whatever they are called', () => {
    const pages = [
      '<!DOCTYPE html><html><body><script>alert(1)</script></body></html>',
      '<html><img src=x onerror=alert(1)>',
      '\uFEFF  <svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>',
      '<script>fetch("/api/kyc")</script>',
      'hello\n\n<script src="https://evil.example/x.js"></script>',
      '<!-- comment --><div>hi</div>',
    ];
    for (const page of pages) {
      expect(sniff(Buffer.from(page), ALL), page).toMatchObject({ ok: false, reason: 'type' });
    }
  });

  it('refuses empty files, files over 10 MB, binary junk and invalid UTF-8', () => {
    expect(sniff(Buffer.alloc(0), ALL)).toEqual({
      ok: false,
      reason: 'empty',
      message: 'The file is empty.',
    });
    const big = Buffer.concat([realPng(), Buffer.alloc(MAX_UPLOAD_BYTES + 1 - realPng().length)]);
    expect(sniff(big, ALL)).toMatchObject({
      ok: false,
      reason: 'too_large',
      message: 'Please upload files smaller than 10MB.',
    });
    const atLimit = Buffer.concat([realPng(), Buffer.alloc(MAX_UPLOAD_BYTES - realPng().length)]);
    expect(sniff(atLimit, ALL)).toEqual({ ok: true, mime: 'image/png' });
    expect(sniff(Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0]), ALL)).toMatchObject({ ok: false });
    expect(sniff(Buffer.from('text with a \0 NUL'), ALL)).toMatchObject({ ok: false });
    expect(sniff(Buffer.from([0x61, 0xc3, 0x28]), ALL)).toMatchObject({ ok: false });
  });

  it('refuses PDFs with scripts or automatic actions, also hidden by escapes or compression', () => {
    const active = [
      '1 0 obj << /Type /Catalog /OpenAction 2 0 R >> endobj',
      '2 0 obj << /S /JavaScript /JS (app.alert(1)) >> endobj',
      '3 0 obj << /AA << /O 4 0 R >> >> endobj',
      '4 0 obj << /S /Launch /F (cmd.exe) >> endobj',
      '5 0 obj << /Type /EmbeddedFile >> endobj',
      '6 0 obj << /S /J#61vaScript /JS (x) >> endobj',
    ];
    for (const body of active) {
      expect(sniff(pdf(body), KYC), body).toMatchObject({
        ok: false,
        reason: 'active_content',
      });
    }
    const hidden = deflateSync(
      Buffer.from('<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>'),
    );
    const compressed = Buffer.concat([
      Buffer.from('%PDF-1.7\n7 0 obj << /Type /ObjStm /Filter /FlateDecode >>\nstream\n'),
      hidden,
      Buffer.from('\nendstream\nendobj\n%%EOF\n'),
    ]);
    expect(sniff(compressed, KYC)).toMatchObject({ ok: false, reason: 'active_content' });
    // Names that merely start like an action name are not actions.
    expect(sniff(pdf('<< /JSON 1 /AAB 2 /Launcher 3 >>'), KYC)).toEqual({
      ok: true,
      mime: 'application/pdf',
    });
  });
});
