import {
  GPS_MARKERS,
  jpegMarkers,
  jpegWithGps,
  pngChunks,
  pngWithMetadata,
  realJpeg,
  realPng,
  realWebp,
  webpChunks,
  webpWithMetadata,
  XMP_PACKET,
} from '@server-test/image-fixtures';
import { describe, expect, it } from 'vitest';
import { InvalidImageError, stripImageMetadata } from './strip-image-metadata';

const entropyData = (jpeg: Buffer) => {
  // Everything from the start-of-scan marker to the end: the compressed picture itself.
  const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
  return jpeg.subarray(sos);
};

describe('image metadata stripping', () => {
  it('removes EXIF (camera, GPS position) and comments from a JPEG, keeping the picture', () => {
    const withGps = jpegWithGps();
    expect(withGps.includes('Exif\0\0')).toBe(true);
    expect(withGps.includes(GPS_MARKERS.make)).toBe(true);
    expect(jpegMarkers(withGps)).toContain(0xe1);

    const stripped = stripImageMetadata(withGps, 'image/jpeg');

    expect(stripped.includes('Exif')).toBe(false);
    expect(stripped.includes(GPS_MARKERS.make)).toBe(false);
    expect(stripped.includes(GPS_MARKERS.comment)).toBe(false);
    const markers = jpegMarkers(stripped);
    // No APP1–APP15 and no COM left; JFIF, tables, frame and scan kept in order.
    expect(markers.filter((m) => (m >= 0xe1 && m <= 0xef) || m === 0xfe)).toEqual([]);
    expect(markers[0]).toBe(0xd8);
    expect(markers[1]).toBe(0xe0);
    expect(markers).toContain(0xdb);
    expect(markers).toContain(0xc0);
    expect(markers.at(-1)).toBe(0xda);
    // The compressed pixels are byte-for-byte the same: nothing was re-encoded.
    expect(entropyData(stripped)).toEqual(entropyData(realJpeg()));
    expect(stripped.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  });

  it('drops data appended after the end of a JPEG', () => {
    const tail = Buffer.from('GPS 33.865S 151.21E');
    const stripped = stripImageMetadata(Buffer.concat([jpegWithGps(), tail]), 'image/jpeg');
    expect(stripped.includes(tail)).toBe(false);
    expect(stripped.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  });

  it('removes text, EXIF and time chunks from a PNG and keeps the image chunks', () => {
    const withMeta = pngWithMetadata();
    expect(pngChunks(withMeta)).toEqual(expect.arrayContaining(['tEXt', 'iTXt', 'eXIf', 'tIME']));
    const stripped = stripImageMetadata(withMeta, 'image/png');
    expect(pngChunks(stripped)).toEqual(pngChunks(realPng()));
    expect(stripped).toEqual(realPng());
    expect(stripped.includes(GPS_MARKERS.make)).toBe(false);
    expect(stripped.includes(GPS_MARKERS.comment)).toBe(false);
  });

  it('removes EXIF and XMP chunks from a WebP and clears their flags, keeping the picture', () => {
    const withMeta = webpWithMetadata();
    expect(webpChunks(withMeta)).toEqual(['VP8X', 'ICCP', 'VP8 ', 'EXIF', 'XMP ']);
    expect(withMeta.includes(XMP_PACKET)).toBe(true);
    expect((withMeta[20] as number) & 0x0c).toBe(0x0c);
    const stripped = stripImageMetadata(withMeta, 'image/webp');
    expect(webpChunks(stripped)).toEqual(['VP8X', 'ICCP', 'VP8 ']);
    expect(stripped.includes(GPS_MARKERS.make)).toBe(false);
    expect(stripped.includes('GPSLatitude')).toBe(false);
    // Byte for byte the browser's original: same frame, same RIFF size, flags as before.
    expect(stripped).toEqual(realWebp());
  });

  it('refuses a damaged image instead of storing it with its metadata', () => {
    const cut = jpegWithGps().subarray(0, 60);
    expect(() => stripImageMetadata(cut, 'image/jpeg')).toThrow(InvalidImageError);
    expect(() => stripImageMetadata(pngWithMetadata().subarray(0, 50), 'image/png')).toThrow(
      InvalidImageError,
    );
    expect(() => stripImageMetadata(Buffer.from('not a jpeg'), 'image/jpeg')).toThrow(
      InvalidImageError,
    );
  });

  it('leaves files that are not images alone', () => {
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    expect(stripImageMetadata(pdf, 'application/pdf')).toBe(pdf);
  });
});
