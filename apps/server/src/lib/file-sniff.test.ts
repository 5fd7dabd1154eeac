import {
  claimingSize,
  realJpeg,
  realPng,
  realWebp,
  webpWithMetadata,
} from '@server-test/image-fixtures';
import {
  CATALOG,
  flate,
  OPEN_ACTION_SCRIPT,
  objectStreamBody,
  pdfOf,
  streamObj,
} from '@server-test/pdf-fixtures';
import { describe, expect, it } from 'vitest';
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
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');

describe('file type detection by content', () => {
  it('recognises each accepted type from its bytes', async () => {
    expect(await sniff(realJpeg(), ALL)).toEqual({ ok: true, mime: 'image/jpeg' });
    expect(await sniff(realPng(), ALL)).toEqual({ ok: true, mime: 'image/png' });
    expect(await sniff(GIF, ALL)).toEqual({ ok: true, mime: 'image/gif' });
    expect(await sniff(realWebp(), ALL)).toEqual({ ok: true, mime: 'image/webp' });
    expect(await sniff(webpWithMetadata(), ALL)).toEqual({ ok: true, mime: 'image/webp' });
    expect(await sniff(PLAIN_PDF, ALL)).toEqual({ ok: true, mime: 'application/pdf' });
    expect(await sniff(Buffer.from('Order 42: a < b, fine.\nnaïve ✓'), ALL)).toEqual({
      ok: true,
      mime: 'text/plain',
    });
    expect(await sniff(Buffer.from('{"amount":"1.5","ok":true}'), ALL)).toEqual({
      ok: true,
      mime: 'application/json',
    });
    // A note that starts like a bitmap's signature is still a note.
    expect(await sniff(Buffer.from('BMW quote for the car, 12k'), ALL)).toEqual({
      ok: true,
      mime: 'text/plain',
    });
  });

  it('ignores what the name says: only the allowed types pass', async () => {
    expect(await sniff(Buffer.from('just text'), KYC)).toMatchObject({ ok: false, reason: 'type' });
    expect(await sniff(realPng(), ['application/pdf'])).toMatchObject({
      ok: false,
      reason: 'type',
    });
    expect(await sniff(GIF, KYC)).toMatchObject({ ok: false, reason: 'type' });
    expect(await sniff(realWebp(), KYC)).toMatchObject({ ok: false, reason: 'type' });
    // JSON is text, so a place that takes text takes JSON as text.
    expect(await sniff(Buffer.from('[1,2]'), ['text/plain'])).toEqual({
      ok: true,
      mime: 'text/plain',
    });
    // Binary formats the library knows but no upload takes.
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(60)]);
    expect(await sniff(zip, ALL)).toMatchObject({ ok: false, reason: 'type' });
    const exe = Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0]), Buffer.alloc(200)]);
    expect(await sniff(exe, ALL)).toMatchObject({ ok: false, reason: 'type' });
  });

  it('refuses HTML, SVG and XML whatever they are called', async () => {
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
      expect(await sniff(Buffer.from(page), ALL), page).toMatchObject({
        ok: false,
        reason: 'type',
      });
    }
  });

  it('refuses empty files, files over 10 MB, binary junk and invalid UTF-8', async () => {
    expect(await sniff(Buffer.alloc(0), ALL)).toEqual({
      ok: false,
      reason: 'empty',
      message: 'The file is empty.',
    });
    const big = Buffer.concat([realPng(), Buffer.alloc(MAX_UPLOAD_BYTES + 1 - realPng().length)]);
    expect(await sniff(big, ALL)).toMatchObject({
      ok: false,
      reason: 'too_large',
      message: 'Please upload files smaller than 10MB.',
    });
    const atLimit = Buffer.concat([realPng(), Buffer.alloc(MAX_UPLOAD_BYTES - realPng().length)]);
    expect(await sniff(atLimit, ALL)).toEqual({ ok: true, mime: 'image/png' });
    expect(await sniff(Buffer.from('text with a \0 NUL'), ALL)).toMatchObject({ ok: false });
    expect(await sniff(Buffer.from([0x61, 0xc3, 0x28]), ALL)).toMatchObject({ ok: false });
  });

  it('refuses images over 40 megapixels from their headers, before decoding anything', async () => {
    for (const kind of ['jpeg', 'png', 'webp'] as const) {
      expect(await sniff(claimingSize(kind, 8000, 5001), ALL), kind).toEqual({
        ok: false,
        reason: 'too_many_pixels',
        message: 'Images larger than 40 megapixels cannot be accepted.',
      });
      // 8000 × 5000 is exactly 40 megapixels: allowed.
      expect(await sniff(claimingSize(kind, 8000, 5000), ALL), kind).toMatchObject({ ok: true });
    }
    const hugeGif = Buffer.from(GIF);
    hugeGif.writeUInt16LE(65535, 6);
    hugeGif.writeUInt16LE(65535, 8);
    expect(await sniff(hugeGif, ALL)).toMatchObject({ ok: false, reason: 'too_many_pixels' });
    // A header cut before its size is a damaged image.
    expect(await sniff(realPng().subarray(0, 20), ALL)).toMatchObject({
      ok: false,
      reason: 'damaged_image',
    });
  });

  it('refuses PDFs with scripts, encryption or parts it cannot read, in a worker', async () => {
    expect(await sniff(pdf('1 0 obj << /Type /Catalog /OpenAction 2 0 R >> endobj'), KYC)).toEqual({
      ok: false,
      reason: 'active_content',
      message: 'This PDF contains scripts or automatic actions and cannot be accepted.',
    });
    const { body, n, first } = objectStreamBody([[3, OPEN_ACTION_SCRIPT]]);
    const packed = pdfOf([
      ...CATALOG,
      streamObj(4, `/Type /ObjStm /N ${n} /First ${first} /Filter /FlateDecode`, flate(body)),
    ]);
    expect(await sniff(packed, KYC)).toMatchObject({ ok: false, reason: 'active_content' });
    expect(await sniff(pdfOf(CATALOG, '/Root 1 0 R /Encrypt 5 0 R'), KYC)).toMatchObject({
      ok: false,
      reason: 'pdf_encrypted',
    });
    expect(await sniff(pdf('1 0 obj << /Title (unterminated >> endobj'), KYC)).toMatchObject({
      ok: false,
      reason: 'pdf_unreadable',
    });
    const bomb = pdfOf([
      ...CATALOG,
      streamObj(3, '/Filter /FlateDecode', flate(Buffer.alloc(70e6))),
    ]);
    expect(await sniff(bomb, KYC)).toMatchObject({
      ok: false,
      reason: 'pdf_too_complex',
      message: expect.stringContaining('too large or complex to check'),
    });
  });
});
