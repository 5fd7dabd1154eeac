import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, databaseText, type TestApp } from '@server-test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../db/client';
import { createDatabaseFileStore, createDiskFileStore, importDiskFiles } from './file-store';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('private files in the database (several instances)', () => {
  it('stores, replaces, lists, removes; a folder is a whole path segment', async () => {
    const files = t.services.files;
    await files.put('kyc-documents/u1/front', Buffer.from('first'));
    await files.put('kyc-documents/u1/front', Buffer.from('second'));
    await files.put('kyc-documents/u10/front', Buffer.from('other user'));
    expect((await files.get('kyc-documents/u1/front'))?.toString()).toBe('second');
    expect(await files.get('kyc-documents/u1/none')).toBeNull();
    expect((await files.list('kyc-documents/u1')).map((f) => f.key)).toEqual([
      'kyc-documents/u1/front',
    ]);
    await files.deletePrefix('kyc-documents/u1');
    expect(await files.get('kyc-documents/u1/front')).toBeNull();
    expect((await files.get('kyc-documents/u10/front'))?.toString()).toBe('other user');
    await files.delete('kyc-documents/u10/front');
    await files.delete('kyc-documents/u10/front');
    expect(await files.list('kyc-documents')).toEqual([]);
  });

  it('keeps the content encrypted at rest, and refuses keys that are not plain paths', async () => {
    const secret = 'PASSPORT-NUMBER-PA1234567';
    await t.services.files.put('kyc-documents/u2/front', Buffer.from(secret));
    expect(await databaseText(t)).not.toContain(secret);
    expect(JSON.stringify(await databaseText(t))).not.toContain(
      Buffer.from(secret).toString('base64'),
    );
    for (const bad of ['../etc/passwd', '/abs', 'a//b', 'a/./b', 'sp ace', '']) {
      await expect(t.services.files.put(bad, Buffer.from('x'))).rejects.toThrow('Invalid file key');
    }
    await t.services.files.delete('kyc-documents/u2/front');
  });

  it('a file stored by one instance is read by another', async () => {
    const pool = createPool(t.databaseUrl);
    try {
      const other = createDatabaseFileStore(pool, t.services.secrets);
      await t.services.files.put('chat-files/r1/a.pdf', Buffer.from('%PDF-1.7 one'));
      expect((await other.get('chat-files/r1/a.pdf'))?.toString()).toBe('%PDF-1.7 one');
      await other.delete('chat-files/r1/a.pdf');
      expect(await t.services.files.get('chat-files/r1/a.pdf')).toBeNull();
    } finally {
      await pool.end();
    }
  });

  it('imports the files an older install kept on disk, once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-disk-files-'));
    try {
      const disk = createDiskFileStore(dir);
      await disk.put('kyc-documents/u3/front', Buffer.from('old front'));
      await disk.put('chat-images/r2/p.png', Buffer.from('old image'));
      // Already in the database (imported before): left as it is.
      await t.services.files.put('chat-images/r2/p.png', Buffer.from('newer'));
      const prefixes = ['kyc-documents', 'chat-images', 'chat-files'];
      expect(await importDiskFiles(disk, t.services.files, prefixes)).toBe(1);
      expect((await t.services.files.get('kyc-documents/u3/front'))?.toString()).toBe('old front');
      expect((await t.services.files.get('chat-images/r2/p.png'))?.toString()).toBe('newer');
      expect(await importDiskFiles(disk, t.services.files, prefixes)).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
