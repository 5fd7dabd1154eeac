import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIN_BYTES, precompress } from '../scripts/precompress.mjs';

let dist: string;
beforeEach(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-precompress-'));
});
afterEach(() => {
  fs.rmSync(dist, { recursive: true, force: true });
});

function write(relative: string, content: string | Buffer) {
  const file = path.join(dist, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const exists = (relative: string) => fs.existsSync(path.join(dist, relative));

describe('the build step that precompresses the web app', () => {
  it('writes a brotli and a gzip copy of each text file that decode to the file itself', async () => {
    const js = 'export const greeting = "Welcome to Coffer";\n'.repeat(100);
    const css = '.card { padding: 1rem; border-radius: 0.5rem; }\n'.repeat(100);
    const html = `<!doctype html><html><body>${'<p>Coffer</p>'.repeat(200)}</body></html>`;
    write('assets/app-1234.js', js);
    write('assets/app-1234.css', css);
    write('index.html', html);
    const result = await precompress(dist);
    expect(result.files).toBe(3);
    expect(result.after).toBeLessThan(result.before / 5);
    for (const [relative, text] of [
      ['assets/app-1234.js', js],
      ['assets/app-1234.css', css],
      ['index.html', html],
    ] as const) {
      const br = fs.readFileSync(path.join(dist, `${relative}.br`));
      const gz = fs.readFileSync(path.join(dist, `${relative}.gz`));
      expect(brotliDecompressSync(br).toString('utf8'), relative).toBe(text);
      expect(gunzipSync(gz).toString('utf8'), relative).toBe(text);
      expect(br.length, relative).toBeLessThan(text.length);
    }
  });

  it('leaves small files, images, already compressed fonts and the manifest folder alone', async () => {
    write('theme.js', 'document.documentElement.dataset.theme = "dark";');
    write('assets/font.woff2', Buffer.alloc(MIN_BYTES * 4, 7));
    write('assets/photo.png', Buffer.alloc(MIN_BYTES * 4, 7));
    write('.vite/manifest.json', JSON.stringify({ entry: 'x'.repeat(MIN_BYTES * 2) }));
    const result = await precompress(dist);
    expect(result.files).toBe(0);
    for (const relative of [
      'theme.js',
      'assets/font.woff2',
      'assets/photo.png',
      '.vite/manifest.json',
    ]) {
      expect(exists(`${relative}.br`), relative).toBe(false);
      expect(exists(`${relative}.gz`), relative).toBe(false);
    }
  });

  it('writes no copy that would not be smaller than the file', async () => {
    // Random bytes do not compress: a copy would only add the encoding's own few bytes.
    write('assets/noise.json', randomBytes(4096));
    const result = await precompress(dist);
    expect(result.files).toBe(1);
    expect(result.after).toBe(result.before);
    expect(exists('assets/noise.json.br')).toBe(false);
    expect(exists('assets/noise.json.gz')).toBe(false);
  });
});
