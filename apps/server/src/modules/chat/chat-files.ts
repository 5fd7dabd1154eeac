import { CHAT_MAX_TEXT, CHAT_MSG, withoutInvisibleCharacters } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import { IMAGE_TYPES, type SniffedType, sniff } from '@server/lib/file-sniff';
import { InvalidImageError, stripImageMetadata } from '@server/lib/strip-image-metadata';
import type { UploadedFile } from '@server/plugins/uploads';

/** Chat attachments: images, PDF, TXT and JSON; decided by content (product.md S5). */
const CHAT_FILE_TYPES: readonly SniffedType[] = [
  ...IMAGE_TYPES,
  'application/pdf',
  'text/plain',
  'application/json',
];

/** A file name reduced to safe key characters, keeping its extension readable. */
export function safeKeyName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').normalize('NFKD');
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-100);
  return cleaned === '' ? 'file' : cleaned;
}

type Checked = { name: string; type: SniffedType; bytes: Buffer };

/**
 * Every file is checked before any is stored: one bad file refuses the whole message.
 * Images lose their metadata (EXIF with GPS, XMP, comments) exactly as KYC documents do.
 * The checks run together: PDFs queue for the worker pool (lib/pdf-check.ts), not here.
 */
export async function checkFiles(files: UploadedFile[]): Promise<Checked[]> {
  const checks = files
    .filter((f) => !(f.filename === '' && f.bytes.length === 0))
    .map(async (f): Promise<Checked> => {
      const name = withoutInvisibleCharacters(f.filename).trim() || 'file';
      if (f.tooLarge) {
        throw new AppError('VALIDATION_FAILED', `${name}: Please upload files smaller than 10MB.`);
      }
      const result = await sniff(f.bytes, CHAT_FILE_TYPES);
      if (!result.ok) {
        const code = result.reason === 'busy' ? 'RATE_LIMITED' : 'VALIDATION_FAILED';
        throw new AppError(
          code,
          `${name}: ${result.message}`,
          code === 'RATE_LIMITED' ? 30 : undefined,
        );
      }
      try {
        const bytes = stripImageMetadata(f.bytes, result.mime);
        return { name: [...name].slice(0, 200).join(''), type: result.mime, bytes };
      } catch (err) {
        if (err instanceof InvalidImageError) {
          throw new AppError('VALIDATION_FAILED', `${name}: ${err.message}`);
        }
        throw err;
      }
    });
  // Every check settles before the first refusal is reported, so no check is left
  // running for a request that has already been answered.
  const settled = await Promise.allSettled(checks);
  const refused = settled.find((s) => s.status === 'rejected');
  if (refused) throw refused.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<Checked>).value);
}

export function checkText(raw: string | undefined): string {
  const text = (raw ?? '').trim();
  if (text.length > CHAT_MAX_TEXT) throw new AppError('VALIDATION_FAILED', CHAT_MSG.textTooLong);
  return text;
}
