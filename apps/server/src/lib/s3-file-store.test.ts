import { randomBytes } from 'node:crypto';
import { startFakeS3 } from '@server-test/fake-s3';
import { createTestApp } from '@server-test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecrets } from './crypto';
import { createS3FileStore, parseStorageUrl } from './s3-file-store';

let s3: Awaited<ReturnType<typeof startFakeS3>>;
let url = '';
beforeAll(async () => {
  // Two keys per listing page, so listing follows continuation tokens.
  s3 = await startFakeS3({ bucket: 'coffer-files', accessKeyId: 'AKTEST', pageSize: 2 });
  url = `s3+http://AKTEST:secret@127.0.0.1:${s3.port}/coffer-files?region=us-east-1`;
});
afterAll(async () => {
  await s3.close();
});

const secrets = createSecrets(randomBytes(32));

describe('private files in an S3-compatible bucket (STORAGE_URL)', () => {
  it('stores, replaces, lists, removes; what the bucket holds is encrypted', async () => {
    const files = createS3FileStore(parseStorageUrl(url), secrets);
    await files.put('kyc-documents/u1/front', Buffer.from('PASSPORT PA1234567'));
    await files.put('kyc-documents/u1/front', Buffer.from('PASSPORT PA7654321'));
    await files.put('kyc-documents/u10/front', Buffer.from('other'));
    expect((await files.get('kyc-documents/u1/front'))?.toString()).toBe('PASSPORT PA7654321');
    expect(await files.get('kyc-documents/u1/none')).toBeNull();
    expect((await files.list('kyc-documents/u1')).map((f) => f.key)).toEqual([
      'kyc-documents/u1/front',
    ]);
    // The bucket holds ciphertext only.
    const held = [...s3.objects.values()].map((o) => o.body.toString('utf8')).join('\n');
    expect(held).not.toContain('PA7654321');
    expect(held).not.toContain(Buffer.from('PASSPORT PA7654321').toString('base64'));
    // More keys than one listing page: all of them are found.
    for (const n of [1, 2, 3, 4, 5]) await files.put(`chat-images/r9/${n}.png`, Buffer.from('x'));
    expect((await files.list('chat-images/r9')).map((f) => f.key)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `chat-images/r9/${n}.png`),
    );
    await files.deletePrefix('chat-images/r9');
    expect(await files.list('chat-images/r9')).toEqual([]);
    await files.deletePrefix('kyc-documents/u1');
    expect(await files.get('kyc-documents/u1/front')).toBeNull();
    expect((await files.get('kyc-documents/u10/front'))?.toString()).toBe('other');
    await files.delete('kyc-documents/u10/front');
    await files.delete('kyc-documents/u10/front');
    expect(await files.list('kyc-documents')).toEqual([]);
  });

  it('a second instance with the same STORAGE_URL reads what the first stored', async () => {
    const one = createS3FileStore(parseStorageUrl(url), secrets);
    const two = createS3FileStore(parseStorageUrl(url), secrets);
    await one.put('chat-files/r1/a.txt', Buffer.from('hello'));
    expect((await two.get('chat-files/r1/a.txt'))?.toString()).toBe('hello');
    await two.delete('chat-files/r1/a.txt');
  });

  it('refuses a STORAGE_URL it cannot use, naming the variable, and keys that are not plain paths', async () => {
    for (const bad of [
      'not a url',
      'https://k:s@host/bucket',
      's3+https://host/bucket',
      's3+https://k:s@host/',
      's3+https://k:s@host/a/b',
    ]) {
      expect(() => parseStorageUrl(bad)).toThrow(/^STORAGE_URL /);
    }
    expect(parseStorageUrl('s3+https://AK:S%2Fx@s3.example.com/b?region=eu-west-1')).toEqual({
      endpoint: 'https://s3.example.com',
      bucket: 'b',
      region: 'eu-west-1',
      accessKeyId: 'AK',
      secretAccessKey: 'S/x',
    });
    const files = createS3FileStore(parseStorageUrl(url), secrets);
    await expect(files.put('../escape', Buffer.from('x'))).rejects.toThrow('Invalid file key');
  });

  it('a bucket that does not exist, or refused credentials, is an error, never an empty answer', async () => {
    const refused = createS3FileStore(parseStorageUrl(url.replace('AKTEST', 'OTHER')), secrets);
    await expect(refused.get('kyc-documents/u/x')).rejects.toThrow(
      'file store: read failed with 403 AccessDenied',
    );
    const missing = createS3FileStore(
      parseStorageUrl(url.replace('coffer-files', 'nope')),
      secrets,
    );
    await expect(missing.put('kyc-documents/u/x', Buffer.from('x'))).rejects.toThrow(
      /file store: write failed with 404/,
    );
    await expect(missing.list('kyc-documents')).rejects.toThrow(/file store: list failed/);
  });

  it('the app keeps its files in the bucket when STORAGE_URL is set, not in the database', async () => {
    const t = await createTestApp({ STORAGE_URL: url });
    try {
      await t.services.files.put('kyc-documents/u5/front', Buffer.from('front'));
      expect(s3.objects.has('kyc-documents/u5/front')).toBe(true);
      const { rows } = await t.services.pool.query('SELECT key FROM stored_files');
      expect(rows).toEqual([]);
      await t.services.files.delete('kyc-documents/u5/front');
    } finally {
      await t.close();
    }
  });
});
