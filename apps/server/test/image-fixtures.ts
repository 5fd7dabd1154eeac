import { crc32 } from 'node:zlib';

/**
 * Small real images for upload tests: encoded by a browser's canvas (24×16 gradient),
 * the JPEG and the WebP with the colour profile browsers write.
 */
const JPEG_BASE64 =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIfIiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wAARCAAQABgDASIAAhEBAxEB/8QAFwAAAwEAAAAAAAAAAAAAAAAAAAMFBP/EABYQAQEBAAAAAAAAAAAAAAAAAAMAMf/EABcBAAMBAAAAAAAAAAAAAAAAAAEEBQb/xAAZEQADAQEBAAAAAAAAAAAAAAAAAwQiBTH/2gAMAwEAAhEDEQA/AIoHlRA8kgeVEDm+hX6CZI0Di1geRYp9ey6tOT//2Q==';
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAYAAAAMJL+VAAACY0lEQVR4AVxTPWtVQRDdd+/uH7GzsbOys7ERRQkEMYgfSETxAxKQoEgUgk2qVNqkERstBAsbOxsrK3/OzmNyzszs3X0pHsPsnDkfu/dNF27+14u3/+mlrb96efuPXrnzW6/u/NJr937ojQffdOvhF737+FTv737S3acn+vzZse69+KgHrw71cO+NHu3v6/Hrl3py8EQ/v32kp+929Ov7bf3+4Zb+PLquU54kzfgV/PKqpjyt04xaUPNKopdUbC7o8VvmFefrxL0S+F6Bm2oygX44gFMNMgEJTJiYgEzQuwmaySApc+sl5oFfrdNUzJmTbTjHEhP4XEAqy3J3zL01EgvmNCdmaoYZ30MCNubEDgnmEoDWhxMzIUbS8dV6F5NBXHAuJsRkS4LCOwSR1SAfE2TMPCGW8QYZeIo1fLa5ODn2vUcCJwnnHGC5BJigNt+odn1MwITV3PqcvaD36yowgUd2cjYEZRy6MwApaGI1nNWUQe5JOgn3CnC9AoeeuMnvEGD7Gkhag0xQcQ6REqIUz/i6vK8pg8T3wznEXaTv4Q3YEMwknZTLdNAqSUnmCUZc7M2ChyYPxepibnISiJgzDgGE4/NOSN5EyuC84eaEPXz3S4+3pLlIgCHi9buvFp/ixcTY02ldnGWcj/hCUV4zzrsZSfEGENi467GvEENCOCpYpmgm2QYec5z1OXrDU8CWBM7E7rAA2GJ2JxVzLslQZcC3ea85eJFAsCT2d88DuTsFKWPb9VUkEZDKgMd8ScI5+4p5q5LwBrIsuXP2I4h3L7EkJjLePU3RTIFjJs6oPqeIpDMAAAD//wV1qJYAAAAGSURBVAMA7iCj3yvJO+oAAAAASUVORK5CYII=';

const WEBP_BASE64 =
  'UklGRj4CAABXRUJQVlA4WAoAAAAgAAAAFwAADwAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDggUAAAABAEAJ0BKhgAEAA+bSyRRaQioZgEAEAGxLUATplCOBvIPxJ4QHcAAhI2AP7vhEU0H6p/a1cl99/+ewy62BEP56cCt5//zCd7JS0NdWrEYAAA';

export function realWebp(): Buffer {
  return Buffer.from(WEBP_BASE64, 'base64');
}

export function realJpeg(): Buffer {
  return Buffer.from(JPEG_BASE64, 'base64');
}

export function realPng(): Buffer {
  return Buffer.from(PNG_BASE64, 'base64');
}

/** The place a photo was taken, as a phone writes it: 33°51'54"S 151°12'36"E. */
export const GPS_MARKERS = { make: 'CofferTestCam', comment: 'taken at home' };

function rational(buf: Buffer, at: number, num: number, den: number): void {
  buf.writeUInt32BE(num, at);
  buf.writeUInt32BE(den, at + 4);
}

/** An APP1 EXIF segment (big-endian TIFF) with a camera make and a GPS position. */
export function exifGpsSegment(): Buffer {
  const make = Buffer.from(`${GPS_MARKERS.make}\0`, 'latin1');
  // Layout (offsets from the TIFF header): header 8, IFD0 at 8 with 2 entries (Make,
  // GPSInfo) = 2 + 24 + 4 = 30 → 38; GPS IFD at 38 with 4 entries = 2 + 48 + 4 = 54 → 92;
  // latitude (3 rationals) at 92, longitude at 116, make string at 140.
  const tiff = Buffer.alloc(140 + make.length);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  let p = 8;
  tiff.writeUInt16BE(2, p);
  p += 2;
  // Make (0x010F), ASCII
  tiff.writeUInt16BE(0x010f, p);
  tiff.writeUInt16BE(2, p + 2);
  tiff.writeUInt32BE(make.length, p + 4);
  tiff.writeUInt32BE(140, p + 8);
  p += 12;
  // GPSInfo (0x8825), LONG offset
  tiff.writeUInt16BE(0x8825, p);
  tiff.writeUInt16BE(4, p + 2);
  tiff.writeUInt32BE(1, p + 4);
  tiff.writeUInt32BE(38, p + 8);
  p += 12;
  tiff.writeUInt32BE(0, p);
  p = 38;
  tiff.writeUInt16BE(4, p);
  p += 2;
  const entry = (tag: number, type: number, count: number, value: (at: number) => void) => {
    tiff.writeUInt16BE(tag, p);
    tiff.writeUInt16BE(type, p + 2);
    tiff.writeUInt32BE(count, p + 4);
    value(p + 8);
    p += 12;
  };
  entry(1, 2, 2, (at) => tiff.write('S\0', at, 'latin1')); // GPSLatitudeRef
  entry(2, 5, 3, (at) => tiff.writeUInt32BE(92, at)); // GPSLatitude
  entry(3, 2, 2, (at) => tiff.write('E\0', at, 'latin1')); // GPSLongitudeRef
  entry(4, 5, 3, (at) => tiff.writeUInt32BE(116, at)); // GPSLongitude
  tiff.writeUInt32BE(0, p);
  rational(tiff, 92, 33, 1);
  rational(tiff, 100, 51, 1);
  rational(tiff, 108, 54, 1);
  rational(tiff, 116, 151, 1);
  rational(tiff, 124, 12, 1);
  rational(tiff, 132, 36, 1);
  make.copy(tiff, 140);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** A JPEG comment (COM) segment. */
export function jpegComment(text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xfffe, 0);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

/** The real JPEG with EXIF (make + GPS) and a comment inserted right after its start. */
export function jpegWithGps(): Buffer {
  const jpeg = realJpeg();
  return Buffer.concat([
    jpeg.subarray(0, 2),
    exifGpsSegment(),
    jpegComment(GPS_MARKERS.comment),
    jpeg.subarray(2),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The real PNG with tEXt, iTXt, eXIf and tIME chunks inserted after its header chunk. */
export function pngWithMetadata(): Buffer {
  const png = realPng();
  const ihdrEnd = 8 + 12 + png.readUInt32BE(8);
  const exif = exifGpsSegment().subarray(4 + 6); // the TIFF part
  return Buffer.concat([
    png.subarray(0, ihdrEnd),
    pngChunk('tEXt', Buffer.from(`Comment\0${GPS_MARKERS.comment}`, 'latin1')),
    pngChunk('iTXt', Buffer.from(`Author\0\0\0\0\0${GPS_MARKERS.make}`, 'latin1')),
    pngChunk('eXIf', exif),
    pngChunk('tIME', Buffer.from([0x07, 0xea, 1, 2, 3, 4, 5])),
    png.subarray(ihdrEnd),
  ]);
}

/** Lists a JPEG's segment markers up to the first scan, e.g. [0xd8, 0xe0, 0xdb, …, 0xda]. */
export function jpegMarkers(bytes: Buffer): number[] {
  const markers = [bytes[1] as number];
  let i = 2;
  while (i + 4 <= bytes.length && bytes[i] === 0xff) {
    const marker = bytes[i + 1] as number;
    markers.push(marker);
    if (marker === 0xda) break;
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  return markers;
}

/** A PNG's chunk types in order. */
export function pngChunks(bytes: Buffer): string[] {
  const types: string[] = [];
  let i = 8;
  while (i + 8 <= bytes.length) {
    types.push(bytes.subarray(i + 4, i + 8).toString('latin1'));
    i += 12 + bytes.readUInt32BE(i);
  }
  return types;
}

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
}

/** XMP as cameras write it, with the place the photo was taken. */
export const XMP_PACKET = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="33,51.9S" exif:GPSLongitude="151,12.6E" exif:Make="${GPS_MARKERS.make}"/></rdf:RDF></x:xmpmeta>`;

/** The real WebP with EXIF (make + GPS) and XMP chunks appended, flagged in VP8X. */
export function webpWithMetadata(): Buffer {
  const webp = realWebp();
  const exif = exifGpsSegment().subarray(4 + 6);
  const body = Buffer.concat([
    webp.subarray(12),
    riffChunk('EXIF', exif),
    riffChunk('XMP ', Buffer.from(XMP_PACKET, 'utf8')),
  ]);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  const out = Buffer.concat([header, body]);
  out[20] = (out[20] as number) | 0x0c; // VP8X flags: EXIF and XMP present
  return out;
}

/** A WebP's chunk types in order. */
export function webpChunks(bytes: Buffer): string[] {
  const types: string[] = [];
  let i = 12;
  while (i + 8 <= bytes.length) {
    types.push(bytes.subarray(i, i + 4).toString('latin1'));
    const size = bytes.readUInt32LE(i + 4);
    i += 8 + size + (size % 2);
  }
  return types;
}

/**
 * The real image with the size its header claims changed (the pixels are not: nothing may
 * decode them before the size is checked): a picture of `width` × `height`.
 */
export function claimingSize(kind: 'jpeg' | 'png' | 'webp', width: number, height: number): Buffer {
  if (kind === 'png') {
    const png = Buffer.from(realPng());
    png.writeUInt32BE(width, 16);
    png.writeUInt32BE(height, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    return png;
  }
  if (kind === 'webp') {
    const webp = Buffer.from(realWebp());
    webp.writeUIntLE(width - 1, 24, 3);
    webp.writeUIntLE(height - 1, 27, 3);
    return webp;
  }
  const jpeg = Buffer.from(realJpeg());
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}
