import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server key: COFFER_SECRET_KEY (64 hex characters) when set, otherwise generated once
 * into DATA_DIR/secret.key with mode 0600 and read from there afterwards.
 */
export function loadSecretKey(dataDir: string, keyHex: string | null): Buffer {
  if (keyHex) {
    if (!/^[0-9a-fA-F]{64}$/.test(keyHex)) {
      throw new Error('COFFER_SECRET_KEY must be 64 hexadecimal characters (32 bytes)');
    }
    return Buffer.from(keyHex, 'hex');
  }
  const file = path.join(dataDir, 'secret.key');
  if (fs.existsSync(file)) {
    const hex = fs.readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} is not a valid key file`);
    return Buffer.from(hex, 'hex');
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another instance wrote the file first; then we read theirs.
  try {
    fs.writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    return loadSecretKey(dataDir, null);
  }
}
