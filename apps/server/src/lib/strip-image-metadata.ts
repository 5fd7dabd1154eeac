/**
 * Removes metadata (EXIF with its GPS position, XMP, comments, timestamps) from uploaded
 * images without re-encoding them: the picture's pixels stay byte-for-byte the same, only
 * the side blocks that describe where, when and with what it was taken are dropped.
 *
 * A file that cannot be walked to its end is refused (`InvalidImageError`) rather than
 * stored with its metadata intact.
 */

export class InvalidImageError extends Error {
  constructor() {
    super('The image file is damaged or not a valid image.');
    this.name = 'InvalidImageError';
  }
}

/** Strips JPEG, PNG and WebP metadata; other types come back unchanged. */
export function stripImageMetadata(bytes: Buffer, mime: string): Buffer {
  if (mime === 'image/jpeg') return stripJpeg(bytes);
  if (mime === 'image/png') return stripPng(bytes);
  if (mime === 'image/webp') return stripWebp(bytes);
  return bytes;
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const COM = 0xfe;

/** APP14 "Adobe" says how colours are encoded (RGB vs YCbCr/CMYK); it carries no personal data. */
function isAdobeColourMarker(bytes: Buffer, dataStart: number, length: number): boolean {
  return length >= 7 && bytes.subarray(dataStart, dataStart + 5).toString('latin1') === 'Adobe';
}

/**
 * JPEG: drops APP1–APP15 (EXIF, XMP, ICC, maker notes, Photoshop IRB) and COM segments,
 * keeps APP0 (JFIF) and the Adobe colour-transform marker, the tables and every scan.
 * Anything after the end-of-image marker (some phones append data there) is dropped too.
 */
export function stripJpeg(bytes: Buffer): Buffer {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) throw new InvalidImageError();
  const out: Buffer[] = [bytes.subarray(0, 2)];
  let i = 2;
  for (;;) {
    // Markers may be preceded by any number of 0xFF fill bytes.
    if (i >= bytes.length || bytes[i] !== 0xff) throw new InvalidImageError();
    while (i < bytes.length && bytes[i] === 0xff) i++;
    if (i >= bytes.length) throw new InvalidImageError();
    const marker = bytes[i] as number;
    i++;
    if (marker === EOI) {
      out.push(Buffer.from([0xff, EOI]));
      return Buffer.concat(out);
    }
    // Standalone markers carry no length.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      out.push(Buffer.from([0xff, marker]));
      continue;
    }
    if (i + 2 > bytes.length) throw new InvalidImageError();
    const length = bytes.readUInt16BE(i);
    const end = i + length;
    if (length < 2 || end > bytes.length) throw new InvalidImageError();
    const isApp = marker >= 0xe1 && marker <= 0xef;
    const drop =
      marker === COM || (isApp && !(marker === 0xee && isAdobeColourMarker(bytes, i + 2, length)));
    if (!drop) out.push(Buffer.from([0xff, marker]), bytes.subarray(i, end));
    i = end;
    if (marker === SOS) {
      // Entropy-coded data runs until a marker that is neither byte stuffing (FF 00),
      // a restart marker (FF D0–D7) nor fill (FF FF).
      const dataStart = i;
      while (i < bytes.length) {
        if (bytes[i] === 0xff) {
          const next = bytes[i + 1];
          if (next === undefined) throw new InvalidImageError();
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
            i += 2;
            continue;
          }
          break; // a real marker (or fill before one): the segment loop takes over
        }
        i++;
      }
      if (i >= bytes.length) throw new InvalidImageError();
      out.push(bytes.subarray(dataStart, i));
    }
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_METADATA_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);

/** PNG: drops text, EXIF and time chunks; every other chunk is copied with its CRC. */
export function stripPng(bytes: Buffer): Buffer {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new InvalidImageError();
  }
  const out: Buffer[] = [PNG_SIGNATURE];
  let i = 8;
  for (;;) {
    if (i + 12 > bytes.length) throw new InvalidImageError();
    const length = bytes.readUInt32BE(i);
    const type = bytes.subarray(i + 4, i + 8).toString('latin1');
    const end = i + 12 + length;
    if (end > bytes.length) throw new InvalidImageError();
    if (!PNG_METADATA_CHUNKS.has(type)) out.push(bytes.subarray(i, end));
    i = end;
    if (type === 'IEND') return Buffer.concat(out);
  }
}

/** WebP: drops the EXIF and XMP chunks and clears their flags in the VP8X header. */
export function stripWebp(bytes: Buffer): Buffer {
  if (
    bytes.length < 12 ||
    bytes.subarray(0, 4).toString('latin1') !== 'RIFF' ||
    bytes.subarray(8, 12).toString('latin1') !== 'WEBP'
  ) {
    throw new InvalidImageError();
  }
  const riffEnd = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  const chunks: Buffer[] = [];
  let i = 12;
  while (i < riffEnd) {
    if (i + 8 > riffEnd) throw new InvalidImageError();
    const fourcc = bytes.subarray(i, i + 4).toString('latin1');
    const size = bytes.readUInt32LE(i + 4);
    const end = i + 8 + size + (size % 2);
    if (i + 8 + size > riffEnd) throw new InvalidImageError();
    const chunk = Buffer.from(bytes.subarray(i, Math.min(end, riffEnd)));
    if (fourcc === 'VP8X' && size >= 1) {
      chunk[8] = (chunk[8] as number) & ~0x0c; // 0x08 EXIF, 0x04 XMP
    }
    if (fourcc !== 'EXIF' && fourcc !== 'XMP ') chunks.push(chunk);
    i = end;
  }
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}
