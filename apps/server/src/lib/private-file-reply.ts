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

/** A file name safe for a header: no folders, no control characters, not too long. */
export function safeDownloadName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // Control characters, DEL and quotes are dropped one by one (no regex of control codes).
  const cleaned = [...base]
    .filter((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return code >= 0x20 && code !== 0x7f && ch !== '"';
    })
    .join('')
    .trim()
    .slice(0, 150);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/**
 * Sends a private file (DEVIATIONS S5) so a browser can never run it: the stored type,
 * no type sniffing, a sandboxing CSP that allows nothing, and no caching by anyone.
 */
export function sendPrivateFile(reply: FastifyReply, file: PrivateFile): FastifyReply {
  const type = INLINE_TYPES.has(file.mime) ? 'inline' : 'attachment';
  return reply
    .header(
      'content-type',
      file.mime.startsWith('text/') ? `${file.mime}; charset=utf-8` : file.mime,
    )
    .header('content-length', String(file.bytes.length))
    .header('content-disposition', contentDisposition(safeDownloadName(file.name), { type }))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .send(file.bytes);
}
