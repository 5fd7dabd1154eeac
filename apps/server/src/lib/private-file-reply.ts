import { isStoredFileType, safeDownloadName } from '@coffer/shared';
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
 * Sends a private file (product.md S5) so a browser can never run it: the stored type
 * (`text/plain` for text), no type sniffing, a sandboxing CSP that allows nothing, no
 * caching by anyone, and a download name whose extension is the stored type's (the same name the web's
 * Download buttons give the file).
 */
export function sendPrivateFile(reply: FastifyReply, file: PrivateFile): FastifyReply {
  const type = INLINE_TYPES.has(file.mime) ? 'inline' : 'attachment';
  const contentType = isStoredFileType(file.mime) ? file.mime : 'application/octet-stream';
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
