import { AwsClient } from 'aws4fetch';
import type { Secrets } from './crypto';
import { assertValidKey, type FileStore, type StoredFile } from './file-store';

/** Where an S3-compatible bucket is and who may write it (from STORAGE_URL). */
export type S3Location = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

/**
 * STORAGE_URL: `s3+https://KEY:SECRET@host[:port]/bucket?region=…` (or `s3+http://` for a
 * store on the same private network). Path-style addressing, which every S3-compatible
 * store accepts. Throws a message naming the variable when it does not parse.
 */
export function parseStorageUrl(value: string): S3Location {
  const fail = (why: string): never => {
    throw new Error(`STORAGE_URL ${why}: expected s3+https://KEY:SECRET@host/bucket?region=…`);
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('is not a URL');
  }
  if (url.protocol !== 's3+https:' && url.protocol !== 's3+http:')
    fail('must start with s3+https://');
  const bucket = url.pathname.replace(/^\/+|\/+$/g, '');
  if (bucket === '' || bucket.includes('/')) fail('must name one bucket');
  if (url.username === '' || url.password === '') fail('must carry the access key and secret');
  return {
    endpoint: `${url.protocol === 's3+https:' ? 'https' : 'http'}://${url.host}`,
    bucket,
    region: url.searchParams.get('region') ?? 'us-east-1',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  };
}

const xmlText = (s: string) =>
  s
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');

/**
 * Private files in an S3-compatible bucket (STORAGE_URL), encrypted with the app's key
 * before they leave, like the database store: the bucket's operator never sees a document.
 */
export function createS3FileStore(loc: S3Location, secrets: Secrets): FileStore {
  const client = new AwsClient({
    accessKeyId: loc.accessKeyId,
    secretAccessKey: loc.secretAccessKey,
    service: 's3',
    region: loc.region,
  });
  const base = `${loc.endpoint}/${encodeURIComponent(loc.bucket)}`;
  const objectUrl = (key: string) => {
    assertValidKey(key);
    return `${base}/${key.split('/').map(encodeURIComponent).join('/')}`;
  };
  const failed = async (what: string, res: Response): Promise<never> => {
    // The body may echo the key; the status and S3's error code are enough.
    const code = /<Code>([^<]*)<\/Code>/.exec(await res.text().catch(() => ''))?.[1] ?? '';
    throw new Error(`file store: ${what} failed with ${res.status}${code ? ` ${code}` : ''}`);
  };

  async function list(prefix: string): Promise<StoredFile[]> {
    const trimmed = prefix.replace(/\/+$/, '');
    assertValidKey(trimmed);
    const out: StoredFile[] = [];
    let token: string | null = null;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix: `${trimmed}/` });
      if (token) query.set('continuation-token', token);
      const res = await client.fetch(`${base}?${query}`);
      if (!res.ok) await failed('list', res);
      const xml = await res.text();
      for (const [, body] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const key = /<Key>([^<]*)<\/Key>/.exec(body ?? '')?.[1];
        const at = /<LastModified>([^<]*)<\/LastModified>/.exec(body ?? '')?.[1];
        if (key && at) out.push({ key: xmlText(key), modifiedAt: new Date(at) });
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
        ? (/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? null)
        : null;
    } while (token);
    return out;
  }

  return {
    async put(key, bytes) {
      const res = await client.fetch(objectUrl(key), {
        method: 'PUT',
        body: secrets.encrypt(bytes.toString('base64')),
      });
      if (!res.ok) await failed('write', res);
    },

    async get(key) {
      const res = await client.fetch(objectUrl(key));
      if (res.status === 404) return null;
      if (!res.ok) await failed('read', res);
      return Buffer.from(secrets.decrypt(await res.text()), 'base64');
    },

    async delete(key) {
      const res = await client.fetch(objectUrl(key), { method: 'DELETE' });
      if (!res.ok && res.status !== 404) await failed('delete', res);
    },

    async deletePrefix(prefix) {
      for (const file of await list(prefix)) {
        const res = await client.fetch(objectUrl(file.key), { method: 'DELETE' });
        if (!res.ok && res.status !== 404) await failed('delete', res);
      }
    },

    list,
  };
}
