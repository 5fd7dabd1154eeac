import { fileTypeFromBuffer } from 'file-type';
import { checkPdf, type PdfCheckVerdict } from './pdf-check';

/**
 * Decides what an uploaded file really is from its bytes, never from its name or the
 * type the browser claimed (product.md S5). Binary formats are recognised by the
 * `file-type` library; what it does not recognise may still be UTF-8 text. Anything a
 * browser could run as a page (HTML, SVG, XML) is refused whatever it is called; PDFs are
 * checked for scripts and actions in a worker thread (pdf-check.ts, decision 0012); images
 * larger than MAX_IMAGE_PIXELS are refused before anything decodes them.
 */

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** 40 megapixels: above any phone camera or A4 scan at 600 dpi, below decompression bombs. */
export const MAX_IMAGE_PIXELS = 40_000_000;

export type SniffedType =
  | 'image/jpeg'
  | 'image/png'
  | 'image/gif'
  | 'image/webp'
  | 'application/pdf'
  | 'text/plain'
  | 'application/json';

export type SniffReason =
  | 'empty'
  | 'too_large'
  | 'type'
  | 'active_content'
  | 'pdf_encrypted'
  | 'pdf_unreadable'
  | 'pdf_too_complex'
  | 'busy'
  | 'too_many_pixels'
  | 'damaged_image';

export type SniffResult =
  | { ok: true; mime: SniffedType }
  | { ok: false; reason: SniffReason; message: string };

export const IMAGE_TYPES: readonly SniffedType[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
];

/** The refusal messages, exported for the routes' tests. */
export const SNIFF_MESSAGES: Record<SniffReason, string> = {
  empty: 'The file is empty.',
  too_large: 'Please upload files smaller than 10MB.',
  type: 'This type of file is not accepted.',
  active_content: 'This PDF contains scripts or automatic actions and cannot be accepted.',
  pdf_encrypted: 'This PDF is password-protected or encrypted. Please upload an unprotected copy.',
  pdf_unreadable:
    'This PDF could not be read to the end, so it cannot be accepted. Please save it again as a plain PDF.',
  pdf_too_complex:
    'This PDF is too large or complex to check. Please save it again as a plain PDF or upload a photo.',
  busy: 'Too many files are being checked right now. Please try again in a minute.',
  too_many_pixels: 'Images larger than 40 megapixels cannot be accepted.',
  damaged_image: 'The image file is damaged or not a valid image.',
};

function refuse(reason: SniffReason): SniffResult {
  return { ok: false, reason, message: SNIFF_MESSAGES[reason] };
}

/** What `file-type` reports, as one of ours; APNG is a PNG to everything that shows it. */
const BINARY_TYPES: Record<string, SniffedType> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/apng': 'image/png',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
  'application/pdf': 'application/pdf',
};

/** Width and height from the image's header, or null when the header cannot be read. */
export function imageDimensions(
  b: Buffer,
  mime: SniffedType,
): { width: number; height: number } | null {
  if (mime === 'image/png') {
    if (b.length < 24 || b.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (mime === 'image/gif') {
    if (b.length < 10) return null;
    return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (mime === 'image/webp') return webpDimensions(b);
  if (mime === 'image/jpeg') return jpegDimensions(b);
  return null;
}

/** The first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC) holds the size. */
function jpegDimensions(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] as number;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    const isFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (i + 9 > b.length) return null;
      return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    }
    if (marker === 0xda || length < 2) return null;
    i += 2 + length;
  }
  return null;
}

function webpDimensions(b: Buffer): { width: number; height: number } | null {
  if (b.length < 30) return null;
  const chunk = b.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X') {
    return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}

const PDF_REFUSALS: Record<Exclude<PdfCheckVerdict, { ok: true }>['reason'], SniffReason> = {
  active: 'active_content',
  encrypted: 'pdf_encrypted',
  undecodable: 'pdf_unreadable',
  unreadable: 'pdf_unreadable',
  crashed: 'pdf_unreadable',
  too_large: 'pdf_too_complex',
  timeout: 'pdf_too_complex',
  busy: 'busy',
};

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

/** UTF-8 text without NUL and without markup: JSON when it parses as JSON. */
function textType(b: Buffer): SniffedType | null {
  if (b.includes(0)) return null;
  const text = decodeUtf8Strict(b);
  if (text === null || looksLikeMarkup(text)) return null;
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
 * text), and is then reported as `text/plain`. A file `file-type` names as something else
 * (a text note that happens to start with "BM" is a bitmap to it) is still text when it is
 * valid UTF-8 without markup: it is only ever served as text. `typeOnly` stops after the
 * type (for a file cut at the size limit, which is refused for its size anyway).
 */
export async function sniff(
  bytes: Buffer,
  allowed: readonly SniffedType[],
  options: { typeOnly?: boolean } = {},
): Promise<SniffResult> {
  if (bytes.length === 0) return refuse('empty');
  if (bytes.length > MAX_UPLOAD_BYTES) return refuse('too_large');
  const detected = await fileTypeFromBuffer(bytes);
  let found: SniffedType | null = detected ? (BINARY_TYPES[detected.mime] ?? null) : null;
  if (found === null || !allowed.includes(found)) {
    const text = textType(bytes);
    if (text === null) return refuse('type');
    found = text;
  }
  if (found === 'application/json' && !allowed.includes(found)) found = 'text/plain';
  if (!allowed.includes(found)) return refuse('type');
  if (options.typeOnly) return { ok: true, mime: found };
  if (found === 'application/pdf') {
    const verdict = await checkPdf(bytes);
    if (!verdict.ok) return refuse(PDF_REFUSALS[verdict.reason]);
  }
  if (IMAGE_TYPES.includes(found)) {
    const size = imageDimensions(bytes, found);
    if (!size || size.width === 0 || size.height === 0) return refuse('damaged_image');
    if (size.width * size.height > MAX_IMAGE_PIXELS) return refuse('too_many_pixels');
  }
  return { ok: true, mime: found };
}
