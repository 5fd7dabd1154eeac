import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply } from 'fastify';

export type PrivateFile = {
  bytes: Buffer;
  /** The type detected from the content when the file was stored (see file-sniff.ts). */
  mime: string;
  /** The customer's original file name, shown as the download name. */
  name: string;
};

/** Images open in the page (previews); everything else downloads. */
const INLINE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * The extensions a stored type may be saved under, its usual one first. A download is
 * always named by what the file is, so a text file called `run.bat` cannot be saved as a
 * script and double-clicked.
 */
const EXTENSIONS: Record<string, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
  'text/plain': ['txt'],
  'application/json': ['json'],
};

/**
 * Characters that are not shown but change what is: C0 and C1 controls, format characters
 * (the right-to-left override U+202E that makes `gpj.exe` read as `exe.jpg`, zero-width
 * joiners, other bidi marks) and the line and paragraph separators.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A name as people should see it: without invisible characters that reorder or hide text. */
export function withoutInvisibleCharacters(name: string): string {
  return name.replace(INVISIBLE, '');
}

const MAX_NAME = 150;

/**
 * A file name safe for a header and for the disk it is saved to: no folders, no
 * invisible characters or quotes, and an extension that matches the stored type. The rule
 * for the extension: the last one is kept, in lower case, when it is the type's own
 * (`.jpg`/`.jpeg` for a JPEG), otherwise the type's usual extension replaces it (`x.pdf.exe` stored as PNG is
 * served as `x.pdf.png`, `run.bat` stored as text as `run.txt`), or is added to a name
 * without one. A type this server never stores is served as `.bin`.
 */
export function safeDownloadName(name: string, mime: string): string {
  const base = withoutInvisibleCharacters(name.split(/[\\/]/).pop() ?? '')
    .replaceAll('"', '')
    .trim()
    .replace(/[. ]+$/, '');
  const allowed = EXTENSIONS[mime] ?? ['bin'];
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const stem = (dot > 0 ? base.slice(0, dot) : base).replace(/^[. ]+/, '');
  const keep = allowed.includes(extension);
  const suffix = `.${keep ? extension : allowed[0]}`;
  const shortStem = [...(stem || 'file')].slice(0, MAX_NAME - suffix.length).join('');
  return `${shortStem}${suffix}`;
}

/**
 * Sends a private file (product.md S5) so a browser can never run it: the stored type
 * (`text/plain` for text), no type sniffing, a sandboxing CSP that allows nothing, no
 * caching by anyone, and a download name whose extension is the stored type's.
 */
export function sendPrivateFile(reply: FastifyReply, file: PrivateFile): FastifyReply {
  const type = INLINE_TYPES.has(file.mime) ? 'inline' : 'attachment';
  const contentType = file.mime in EXTENSIONS ? file.mime : 'application/octet-stream';
  return reply
    .header(
      'content-type',
      contentType.startsWith('text/') ? `${contentType}; charset=utf-8` : contentType,
    )
    .header('content-length', String(file.bytes.length))
    .header(
      'content-disposition',
      contentDisposition(safeDownloadName(file.name, file.mime), { type }),
    )
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .send(file.bytes);
}
