import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server for tests: path-style PUT, GET, DELETE of objects and
 * ListObjectsV2 (with continuation when `pageSize` is small) in one bucket, in memory. It
 * refuses a request without a SigV4 Authorization header for its access key, as S3 would
 * (403 AccessDenied); an unknown bucket is 404 NoSuchBucket.
 */
export async function startFakeS3(opts: {
  bucket: string;
  accessKeyId: string;
  pageSize?: number;
}) {
  const objects = new Map<string, { body: Buffer; modified: Date }>();
  const pageSize = opts.pageSize ?? 1000;
  const xml = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  };
  const error = (res: http.ServerResponse, status: number, code: string) =>
    xml(res, status, `<Error><Code>${code}</Code></Error>`);
  const xmlEscape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${opts.accessKeyId}/`)) {
        error(res, 403, 'AccessDenied');
        return;
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      const [, bucket, ...rest] = url.pathname.split('/');
      if (bucket !== opts.bucket) {
        error(res, 404, 'NoSuchBucket');
        return;
      }
      const key = rest.map(decodeURIComponent).join('/');
      if (key === '' && req.method === 'GET' && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
        const start = Number(url.searchParams.get('continuation-token') ?? 0);
        const page = keys.slice(start, start + pageSize);
        const more = start + pageSize < keys.length;
        const contents = page
          .map(
            (k) =>
              `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${objects.get(k)?.modified.toISOString()}</LastModified></Contents>`,
          )
          .join('');
        xml(
          res,
          200,
          `<ListBucketResult><Name>${opts.bucket}</Name><IsTruncated>${more}</IsTruncated>${more ? `<NextContinuationToken>${start + pageSize}</NextContinuationToken>` : ''}${contents}</ListBucketResult>`,
        );
        return;
      }
      if (req.method === 'PUT') {
        objects.set(key, { body: Buffer.concat(chunks), modified: new Date() });
        res.writeHead(200).end();
      } else if (req.method === 'GET') {
        const found = objects.get(key);
        if (!found) error(res, 404, 'NoSuchKey');
        else res.writeHead(200).end(found.body);
      } else if (req.method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204).end();
      } else error(res, 405, 'MethodNotAllowed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    objects,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
