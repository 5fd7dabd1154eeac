import { inflateSync, constants as zlibConstants } from 'node:zlib';

/**
 * Decides what an uploaded file really is from its bytes, never from its name or the
 * type the browser claimed (DEVIATIONS S5). Anything a browser could run as a page
 * (HTML, SVG, XML) is refused whatever it is called.
 */

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export type SniffedType =
  | 'image/jpeg'
  | 'image/png'
  | 'image/gif'
  | 'image/webp'
  | 'application/pdf'
  | 'text/plain'
  | 'application/json';

export type SniffReason = 'empty' | 'too_large' | 'type' | 'active_content';

export type SniffResult =
  | { ok: true; mime: SniffedType }
  | { ok: false; reason: SniffReason; message: string };

export const IMAGE_TYPES: readonly SniffedType[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
];

const MESSAGES: Record<SniffReason, string> = {
  empty: 'The file is empty.',
  too_large: 'Please upload files smaller than 10MB.',
  type: 'This type of file is not accepted.',
  active_content: 'This PDF contains scripts or automatic actions and cannot be accepted.',
};

function refuse(reason: SniffReason): SniffResult {
  return { ok: false, reason, message: MESSAGES[reason] };
}

function startsWith(bytes: Buffer, signature: number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function isJpeg(b: Buffer): boolean {
  return startsWith(b, [0xff, 0xd8, 0xff]);
}
function isPng(b: Buffer): boolean {
  return startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
}
function isGif(b: Buffer): boolean {
  const head = b.subarray(0, 6).toString('latin1');
  return head === 'GIF87a' || head === 'GIF89a';
}
function isWebp(b: Buffer): boolean {
  return (
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP'
  );
}
function isPdf(b: Buffer): boolean {
  // The header may legally follow a little junk; readers look within the first 1024 bytes.
  return b.subarray(0, 1024).includes('%PDF-');
}

/**
 * PDF names that run code or act without the reader asking: scripts, actions on open or
 * on events, launching programs, embedded files. Names may be written with `#xx` escapes
 * (`/J#61vaScript`), so they are decoded before matching.
 *
 * Rejecting such a PDF is safer than trying to sanitise it here: cleaning a PDF means
 * parsing and rewriting its object graph (compressed object streams, incremental
 * updates, broken cross-reference tables), and a sanitiser that misses one hiding place
 * would hand a live script to a reviewer's PDF reader. Identity documents and support
 * attachments have no need for any of these features, so refusing costs a customer
 * nothing but a re-export.
 */
const ACTIVE_PDF_NAMES =
  /\/(JavaScript|JS|OpenAction|AA|Launch|EmbeddedFile|EmbeddedFiles|RichMedia|XFA|SubmitForm|ImportData|GoToR|GoToE)(?![A-Za-z0-9])/;

function decodePdfNames(text: string): string {
  return text.replace(/#([0-9A-Fa-f]{2})/g, (_m, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Upper bound on what inflating a PDF's compressed streams may produce (zip bombs). */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * The PDF's text plus its Flate-compressed streams inflated: object streams (`/ObjStm`)
 * keep dictionaries compressed, so a script could hide there from a plain byte scan.
 */
function pdfTexts(b: Buffer): string[] {
  const texts = [b.toString('latin1')];
  let budget = MAX_INFLATED_BYTES;
  let from = 0;
  while (budget > 0) {
    const start = b.indexOf('stream', from, 'latin1');
    if (start < 0) break;
    let dataStart = start + 'stream'.length;
    if (b[dataStart] === 0x0d) dataStart++;
    if (b[dataStart] === 0x0a) dataStart++;
    const end = b.indexOf('endstream', dataStart, 'latin1');
    if (end < 0) break;
    from = end + 'endstream'.length;
    if (b.subarray(start - 3, start).toString('latin1') === 'end') continue;
    try {
      const inflated = inflateSync(b.subarray(dataStart, end), {
        maxOutputLength: budget,
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
      });
      budget -= inflated.length;
      texts.push(inflated.toString('latin1'));
    } catch {
      // Not Flate data (images, other filters) or truncated: nothing to read there.
    }
  }
  return texts;
}

function pdfHasActiveContent(b: Buffer): boolean {
  return pdfTexts(b).some((text) => ACTIVE_PDF_NAMES.test(decodePdfNames(text)));
}

/** Text a browser might render as a page or an image with scripts: HTML, SVG, XML. */
function looksLikeMarkup(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (/^<[!?A-Za-z]/.test(head)) return true;
  return /<(html|svg|script|iframe|\?xml)[\s>/]/i.test(text.slice(0, 64 * 1024));
}

function decodeUtf8Strict(b: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return null;
  }
}

function detect(b: Buffer): SniffedType | 'markup' | null {
  if (isJpeg(b)) return 'image/jpeg';
  if (isPng(b)) return 'image/png';
  if (isGif(b)) return 'image/gif';
  if (isWebp(b)) return 'image/webp';
  if (isPdf(b)) return 'application/pdf';
  if (b.includes(0)) return null;
  const text = decodeUtf8Strict(b);
  if (text === null) return null;
  if (looksLikeMarkup(text)) return 'markup';
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return 'application/json';
  } catch {
    return 'text/plain';
  }
}

/**
 * What `bytes` really are, if that is one of `allowed`. Text that parses as JSON is
 * `application/json`; JSON is also accepted where only `text/plain` is allowed (it is
 * text), and is then reported as `text/plain`.
 */
export function sniff(bytes: Buffer, allowed: readonly SniffedType[]): SniffResult {
  if (bytes.length === 0) return refuse('empty');
  if (bytes.length > MAX_UPLOAD_BYTES) return refuse('too_large');
  const found = detect(bytes);
  if (found === null || found === 'markup') return refuse('type');
  if (found === 'application/pdf' && pdfHasActiveContent(bytes)) return refuse('active_content');
  if (allowed.includes(found)) return { ok: true, mime: found };
  if (found === 'application/json' && allowed.includes('text/plain')) {
    return { ok: true, mime: 'text/plain' };
  }
  return refuse('type');
}
