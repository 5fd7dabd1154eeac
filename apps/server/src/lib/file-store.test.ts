import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertValidKey, createDiskFileStore } from './file-store';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-files-'));
const dir = path.join(root, 'files');
const store = createDiskFileStore(dir);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('private file store', () => {
  it('stores and returns bytes, and says null for a missing key', async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    await store.put('kyc-documents/u1/front-1-id.png', bytes);
    expect(await store.get('kyc-documents/u1/front-1-id.png')).toEqual(bytes);
    expect(await store.get('kyc-documents/u1/missing.png')).toBeNull();
  });

  it('keeps files private to the server account: folders 0700, files 0600', async () => {
    await store.put('chat-files/room-1/a.txt', Buffer.from('hello'));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'chat-files', 'room-1')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'chat-files/room-1/a.txt')).mode & 0o777).toBe(0o600);
  });

  it('replaces a file whole and leaves no temporary files behind', async () => {
    await store.put('x/replace.bin', Buffer.alloc(1000, 1));
    await store.put('x/replace.bin', Buffer.from('short'));
    expect((await store.get('x/replace.bin'))?.toString()).toBe('short');
    expect(fs.readdirSync(path.join(dir, 'x'))).toEqual(['replace.bin']);
  });

  it('deletes one file, then a whole prefix; deleting nothing is fine', async () => {
    await store.put('kyc-documents/u2/front.png', Buffer.from('f'));
    await store.put('kyc-documents/u2/back.png', Buffer.from('b'));
    await store.put('kyc-documents/u3/front.png', Buffer.from('other'));
    await store.delete('kyc-documents/u2/front.png');
    expect(await store.get('kyc-documents/u2/front.png')).toBeNull();
    expect(await store.get('kyc-documents/u2/back.png')).not.toBeNull();
    await store.delete('kyc-documents/u2/front.png');
    await store.deletePrefix('kyc-documents/u2/');
    expect(await store.get('kyc-documents/u2/back.png')).toBeNull();
    expect((await store.get('kyc-documents/u3/front.png'))?.toString()).toBe('other');
    await store.deletePrefix('kyc-documents/nobody');
  });

  it('refuses keys that could leave its folder or are not plain', async () => {
    const bad = [
      '../secret.key',
      'a/../../secret.key',
      '/etc/passwd',
      'a//b',
      'a/./b',
      'a/',
      '',
      'a\\b',
      'name with space.png',
      'naïve.png',
      'a/\0b',
      'x'.repeat(600),
    ];
    for (const key of bad) {
      expect(() => assertValidKey(key), key).toThrow('Invalid file key');
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow('Invalid file key');
      await expect(store.get(key), key).rejects.toThrow('Invalid file key');
    }
    await expect(store.deletePrefix('..')).rejects.toThrow('Invalid file key');
    expect(fs.existsSync(path.join(root, 'secret.key'))).toBe(false);
  });
});
