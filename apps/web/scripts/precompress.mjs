import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every file of the web build worth
 * compressing, once, at build time: the server sends the copy the browser asks for
 * (Accept-Encoding) and never compresses a file per request. Both at their strongest
 * settings, which cost seconds here and nothing when serving. Plain JavaScript with node's
 * zlib: no build dependency.
 */

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats (and fonts that are not compressed already: woff and woff2 are). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map|ttf|otf|eot|ico)$/i;

/** A smaller file gains a few bytes at most: it is sent as it is. */
export const MIN_BYTES = 1024;

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    // `.vite/` (the manifest) is read by tests, never served.
    if (entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Writes `file`'s compressed copy unless it would not be smaller; returns its size or null. */
async function writeCopy(file, original, suffix, compress) {
  const packed = await compress(original);
  if (packed.length >= original.length) return null;
  fs.writeFileSync(`${file}${suffix}`, packed);
  return packed.length;
}

/**
 * Compresses every compressible file of `dir` of `MIN_BYTES` or more; returns the bytes
 * before and after (brotli), for the build's log line.
 */
export async function precompress(dir) {
  const files = filesUnder(dir).filter(
    (file) => COMPRESSIBLE.test(file) && fs.statSync(file).size >= MIN_BYTES,
  );
  const sizes = await Promise.all(
    files.map(async (file) => {
      const original = fs.readFileSync(file);
      const [br] = await Promise.all([
        writeCopy(file, original, '.br', (bytes) =>
          brotli(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        ),
        writeCopy(file, original, '.gz', (bytes) => gzip(bytes, { level: 9 })),
      ]);
      return { before: original.length, after: br ?? original.length };
    }),
  );
  return {
    files: files.length,
    before: sizes.reduce((sum, s) => sum + s.before, 0),
    after: sizes.reduce((sum, s) => sum + s.after, 0),
  };
}

if (process.argv[1] === import.meta.filename) {
  const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../dist'));
  const { files, before, after } = await precompress(dir);
  console.log(
    `Precompressed ${files} files: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB with brotli.`,
  );
}
