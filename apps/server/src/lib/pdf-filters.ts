import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { hexValue, WHITESPACE } from './pdf-lexer';
import { type Dict, MAX_FILTERS, PdfRefusal, type PdfValue, unreadable } from './pdf-values';

/**
 * The PDF check's stream filters: every decoder a reader applies to a stream that can hold
 * PDF syntax, under one budget of decoded bytes per file (`pdf-scan.ts`).
 */

// ── Filters ───────────────────────────────────────────────────────────────────────────

export class Budget {
  constructor(private remaining: number) {}
  get left(): number {
    return this.remaining;
  }
  take(n: number): void {
    if (n > this.remaining) {
      throw new PdfRefusal('too_large', 'the streams decode to more than the limit');
    }
    this.remaining -= n;
  }
}

const FILTER_NAMES: Record<string, string> = {
  FlateDecode: 'FlateDecode',
  Fl: 'FlateDecode',
  ASCIIHexDecode: 'ASCIIHexDecode',
  AHx: 'ASCIIHexDecode',
  ASCII85Decode: 'ASCII85Decode',
  A85: 'ASCII85Decode',
  LZWDecode: 'LZWDecode',
  LZW: 'LZWDecode',
  RunLengthDecode: 'RunLengthDecode',
  RL: 'RunLengthDecode',
  DCTDecode: 'DCTDecode',
  DCT: 'DCTDecode',
  JPXDecode: 'JPXDecode',
  CCITTFaxDecode: 'CCITTFaxDecode',
  CCF: 'CCITTFaxDecode',
  JBIG2Decode: 'JBIG2Decode',
};
/** Filters whose output is pixels: not decoded, and never allowed to hide PDF syntax. */
const IMAGE_FILTERS = new Set(['DCTDecode', 'JPXDecode', 'CCITTFaxDecode', 'JBIG2Decode']);

function flate(data: Uint8Array, budget: Budget): Buffer {
  let out: Buffer;
  try {
    out = inflateSync(data, {
      maxOutputLength: Math.max(1, budget.left),
      // A stream cut short still yields what it holds, as readers show it.
      finishFlush: zlibConstants.Z_SYNC_FLUSH,
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new PdfRefusal('too_large', 'the streams decode to more than the limit');
    }
    throw new PdfRefusal('undecodable', 'a FlateDecode stream that does not inflate');
  }
  budget.take(out.length);
  return out;
}

function asciiHex(data: Uint8Array): Buffer {
  const out: number[] = [];
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break;
    if (WHITESPACE.has(c)) continue;
    const v = hexValue(c);
    if (v < 0) throw new PdfRefusal('undecodable', 'an ASCIIHexDecode stream with a non-hex byte');
    if (high < 0) {
      high = v;
    } else {
      out.push(high * 16 + v);
      high = -1;
    }
  }
  if (high >= 0) out.push(high * 16);
  return Buffer.from(out);
}

function ascii85(data: Uint8Array): Buffer {
  const out: number[] = [];
  const group: number[] = [];
  const bad = () => new PdfRefusal('undecodable', 'an ASCII85Decode stream that does not decode');
  const flush = (count: number) => {
    let value = 0;
    for (let j = 0; j < 5; j++) value = value * 85 + (group[j] ?? 84);
    if (value > 0xffffffff) throw bad();
    const bytes = [
      (value >>> 24) & 0xff,
      (value >>> 16) & 0xff,
      (value >>> 8) & 0xff,
      value & 0xff,
    ];
    out.push(...bytes.slice(0, count));
    group.length = 0;
  };
  for (let i = 0; i < data.length; i++) {
    const c = data[i] as number;
    if (WHITESPACE.has(c)) continue;
    if (c === 0x7e) {
      if (data[i + 1] !== 0x3e) throw bad();
      break;
    }
    if (c === 0x7a && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (c < 0x21 || c > 0x75) throw bad();
    group.push(c - 0x21);
    if (group.length === 5) flush(4);
  }
  if (group.length === 1) throw bad();
  if (group.length > 1) flush(group.length - 1);
  return Buffer.from(out);
}

function runLength(data: Uint8Array, budget: Budget): Buffer {
  const chunks: Buffer[] = [];
  let i = 0;
  while (i < data.length) {
    const n = data[i] as number;
    if (n === 128) break;
    if (n < 128) {
      const run = Buffer.from(data.subarray(i + 1, i + 2 + n));
      budget.take(run.length);
      chunks.push(run);
      i += n + 2;
    } else {
      const count = 257 - n;
      budget.take(count);
      chunks.push(Buffer.alloc(count, data[i + 1] ?? 0));
      i += 2;
    }
  }
  return Buffer.concat(chunks);
}

function lzw(data: Uint8Array, earlyChange: number, budget: Budget): Buffer {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let c = 0; c < 256; c++) {
    prefix[c] = -1;
    suffix[c] = c;
    length[c] = 1;
  }
  const chunks: Buffer[] = [];
  let bitBuffer = 0;
  let bitCount = 0;
  let pos = 0;
  let codeLength = 9;
  let nextCode = 258;
  let previous = -1;
  const firstByte = (code: number) => {
    let c = code;
    while ((prefix[c] as number) >= 0) c = prefix[c] as number;
    return suffix[c] as number;
  };
  const emit = (code: number) => {
    const n = length[code] as number;
    budget.take(n);
    const bytes = Buffer.alloc(n);
    let c = code;
    for (let j = n - 1; j >= 0; j--) {
      bytes[j] = suffix[c] as number;
      c = prefix[c] as number;
    }
    chunks.push(bytes);
  };
  const add = (base: number, last: number) => {
    if (nextCode >= 4096) return;
    prefix[nextCode] = base;
    suffix[nextCode] = last;
    length[nextCode] = (length[base] as number) + 1;
    nextCode++;
    if (nextCode + earlyChange >= 1 << codeLength && codeLength < 12) codeLength++;
  };
  for (;;) {
    while (bitCount < codeLength && pos < data.length) {
      bitBuffer = ((bitBuffer << 8) | (data[pos] as number)) & 0xffffff;
      pos++;
      bitCount += 8;
    }
    if (bitCount < codeLength) break;
    const code = (bitBuffer >>> (bitCount - codeLength)) & ((1 << codeLength) - 1);
    bitCount -= codeLength;
    if (code === 256) {
      codeLength = 9;
      nextCode = 258;
      previous = -1;
      continue;
    }
    if (code === 257) break;
    if (code < 256 || (code > 257 && code < nextCode)) {
      emit(code);
      if (previous >= 0) add(previous, firstByte(code));
    } else if (code === nextCode && previous >= 0) {
      add(previous, firstByte(previous));
      emit(code);
    } else {
      throw new PdfRefusal('undecodable', 'an LZWDecode stream with an unknown code');
    }
    previous = code;
  }
  return Buffer.concat(chunks);
}

export function intOf(value: PdfValue | undefined, fallback: number): number {
  if (value === undefined || (value.k === 'kw' && value.v === 'null')) return fallback;
  if (value.k !== 'num' || !value.int) throw unreadable('a parameter that is not a whole number');
  return value.v;
}

/** PNG (10–15) and TIFF (2) predictors after Flate or LZW, as DecodeParms asks. */
function unpredict(data: Buffer, params: Dict | null): Buffer {
  const predictor = intOf(params?.get('Predictor'), 1);
  if (predictor === 1) return data;
  const colors = intOf(params?.get('Colors'), 1);
  const bits = intOf(params?.get('BitsPerComponent'), 8);
  const columns = intOf(params?.get('Columns'), 1);
  if (
    colors < 1 ||
    colors > 32 ||
    ![1, 2, 4, 8, 16].includes(bits) ||
    columns < 1 ||
    columns > 1 << 20
  ) {
    throw new PdfRefusal('undecodable', 'predictor parameters out of range');
  }
  const rowBytes = Math.ceil((colors * bits * columns) / 8);
  const pixelBytes = Math.max(1, Math.ceil((colors * bits) / 8));
  if (predictor === 2) {
    if (bits !== 8) throw new PdfRefusal('undecodable', 'a TIFF predictor on non-byte samples');
    const out = Buffer.from(data);
    for (let row = 0; row < out.length; row += rowBytes) {
      const end = Math.min(row + rowBytes, out.length);
      for (let i = row + colors; i < end; i++) {
        out[i] = ((out[i] as number) + (out[i - colors] as number)) & 0xff;
      }
    }
    return out;
  }
  if (predictor < 10 || predictor > 15) {
    throw new PdfRefusal('undecodable', `predictor ${predictor}`);
  }
  const rows = Math.ceil(data.length / (rowBytes + 1));
  const out = Buffer.alloc(rows * rowBytes);
  let outLength = 0;
  for (let r = 0; r < rows; r++) {
    const inStart = r * (rowBytes + 1);
    const type = data[inStart] as number;
    const rowStart = r * rowBytes;
    const available = Math.min(rowBytes, data.length - inStart - 1);
    for (let i = 0; i < available; i++) {
      const raw = data[inStart + 1 + i] as number;
      const left = i >= pixelBytes ? (out[rowStart + i - pixelBytes] as number) : 0;
      const up = r > 0 ? (out[rowStart - rowBytes + i] as number) : 0;
      const upLeft =
        r > 0 && i >= pixelBytes ? (out[rowStart - rowBytes + i - pixelBytes] as number) : 0;
      let value: number;
      if (type === 0) value = raw;
      else if (type === 1) value = raw + left;
      else if (type === 2) value = raw + up;
      else if (type === 3) value = raw + ((left + up) >> 1);
      else if (type === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else throw new PdfRefusal('undecodable', `PNG row filter ${type}`);
      out[rowStart + i] = value & 0xff;
    }
    outLength = rowStart + Math.max(0, available);
  }
  return out.subarray(0, outLength);
}

export type Resolver = (value: PdfValue | undefined) => PdfValue | undefined;

/** A stream's filters with their parameters, in the order they are applied. */
function filtersOf(dict: Dict, resolve: Resolver): { name: string; params: Dict | null }[] {
  // In a stream's dictionary `/F` names an external file holding the data, yet some
  // readers also take it (and `/DP`) for the abbreviated filter keys of inline images:
  // either way the bytes here are not what a reader decodes.
  if (dict.has('F') || dict.has('DP') || dict.has('FFilter')) {
    throw new PdfRefusal('undecodable', 'a stream with /F or /DP');
  }
  const filter = resolve(dict.get('Filter'));
  const params = resolve(dict.get('DecodeParms'));
  if (filter === undefined || (filter.k === 'kw' && filter.v === 'null')) return [];
  const names = filter.k === 'arr' ? filter.v.map((v) => resolve(v)) : [filter];
  if (names.length > MAX_FILTERS) throw new PdfRefusal('undecodable', 'too many chained filters');
  const paramList =
    params?.k === 'arr'
      ? params.v.map((v) => resolve(v))
      : names.map((_, i) => (i === 0 ? params : undefined));
  return names.map((n, i) => {
    if (n?.k !== 'name') throw unreadable('a filter that is not a name');
    const name = FILTER_NAMES[n.v];
    if (!name) throw new PdfRefusal('undecodable', `/${n.v.slice(0, 40)}`);
    const p = paramList[i];
    return { name, params: p?.k === 'dict' ? p.v : null };
  });
}

/** The decoded bytes, or `null` for an image whose pixels are left encoded. */
export function decode(data: Buffer, dict: Dict, resolve: Resolver, budget: Budget): Buffer | null {
  const filters = filtersOf(dict, resolve);
  let bytes = data;
  for (const [i, { name, params }] of filters.entries()) {
    if (IMAGE_FILTERS.has(name)) {
      if (i !== filters.length - 1) {
        throw new PdfRefusal('undecodable', `/${name} before another filter`);
      }
      return null;
    }
    if (name === 'FlateDecode') bytes = unpredict(flate(bytes, budget), params);
    else if (name === 'LZWDecode') {
      bytes = unpredict(lzw(bytes, intOf(params?.get('EarlyChange'), 1), budget), params);
    } else if (name === 'ASCIIHexDecode') bytes = asciiHex(bytes);
    else if (name === 'ASCII85Decode') bytes = ascii85(bytes);
    else if (name === 'RunLengthDecode') bytes = runLength(bytes, budget);
  }
  return bytes;
}
