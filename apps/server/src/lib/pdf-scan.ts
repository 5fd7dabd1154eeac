import { inflateSync, constants as zlibConstants } from 'node:zlib';

/**
 * Decides whether an uploaded PDF may be kept: one that can run code or act on its own in a
 * reader (scripts, actions on open or on events, launching programs, embedded files,
 * forms that submit or import data, links that open other documents) is refused, and so is
 * one this check cannot read to the end. Rejecting is safer than sanitising: cleaning means
 * rewriting the object graph, and a sanitiser that misses one hiding place hands a live
 * script to a reviewer's reader. Identity documents and support attachments need none of
 * these features (docs/decisions/0012).
 *
 * This is a tokenizer over the whole file and over every decoded stream that can hold PDF
 * syntax, not a renderer: it reads every byte a reader could take for an object, the way a
 * reader would, and refuses wherever two readings of the same bytes are possible (a
 * stream's declared length against its `endstream`, an object header inside another
 * object's data, an object-stream offset that starts inside a token).
 *
 * It is synchronous and CPU-heavy by design: it runs in a worker thread (pdf-check.ts),
 * never on the server's event loop.
 */

/** Names that make a PDF act by itself; compared after `#xx` escapes are decoded. */
const ACTIVE_NAMES = new Set([
  'JavaScript',
  'JS',
  'OpenAction',
  'AA',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'RichMedia',
  'RichMediaExecute',
  'XFA',
  'SubmitForm',
  'ImportData',
  'GoToR',
  'GoToE',
]);

/** Total decoded output of one file, over all its streams: past it the file is refused. */
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;
/** Nesting of arrays and dictionaries; real files stay far below. */
const MAX_DEPTH = 64;
/** Filters chained on one stream; real files use one or two. */
const MAX_FILTERS = 8;

export type PdfRefusalReason = 'active' | 'encrypted' | 'undecodable' | 'too_large' | 'unreadable';

export type PdfVerdict = { ok: true } | { ok: false; reason: PdfRefusalReason; detail: string };

export class PdfRefusal extends Error {
  constructor(
    readonly reason: PdfRefusalReason,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'PdfRefusal';
  }
}

const unreadable = (detail: string) => new PdfRefusal('unreadable', detail);

// ── Values ────────────────────────────────────────────────────────────────────────────

type PdfValue =
  | { k: 'num'; v: number; int: boolean }
  | { k: 'name'; v: string }
  | { k: 'str' }
  | { k: 'kw'; v: string }
  | { k: 'ref'; num: number; gen: number }
  | { k: 'arr'; v: PdfValue[] }
  | { k: 'dict'; v: Map<string, PdfValue> };

type Dict = Map<string, PdfValue>;

// ── Tokens ────────────────────────────────────────────────────────────────────────────

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isRegular = (c: number) => !WHITESPACE.has(c) && !DELIMITERS.has(c);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const INTEGER = /^[+-]?\d+$/;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** A name's characters after the slash, `#xx` escapes decoded, and where it ends. */
function readName(b: Uint8Array, from: number): { name: string; end: number } {
  let i = from;
  let name = '';
  while (i < b.length && isRegular(b[i] as number)) {
    const c = b[i] as number;
    if (c === 0x23 && i + 2 < b.length) {
      const hi = hexValue(b[i + 1] ?? -1);
      const lo = hexValue(b[i + 2] ?? -1);
      if (hi >= 0 && lo >= 0) {
        name += String.fromCharCode(hi * 16 + lo);
        i += 3;
        continue;
      }
    }
    name += String.fromCharCode(c);
    i++;
  }
  return { name, end: i };
}

function checkName(name: string): void {
  if (ACTIVE_NAMES.has(name)) throw new PdfRefusal('active', `/${name}`);
  // Strings and streams of an encrypted file cannot be read without its key.
  if (name === 'Encrypt') throw new PdfRefusal('encrypted', '/Encrypt');
}

type Token =
  | { t: 'open-dict' | 'close-dict' | 'open-arr' | 'close-arr'; at: number }
  | { t: 'value'; value: PdfValue; at: number };

class Lexer {
  i: number;
  constructor(
    readonly b: Uint8Array,
    from = 0,
  ) {
    this.i = from;
  }

  private skipSpaceAndComments(): void {
    const b = this.b;
    while (this.i < b.length) {
      const c = b[this.i] as number;
      if (WHITESPACE.has(c)) {
        this.i++;
      } else if (c === 0x25) {
        while (this.i < b.length && b[this.i] !== 0x0a && b[this.i] !== 0x0d) this.i++;
      } else {
        return;
      }
    }
  }

  next(): Token | null {
    this.skipSpaceAndComments();
    const b = this.b;
    if (this.i >= b.length) return null;
    const at = this.i;
    const c = b[at] as number;
    if (c === 0x3c) {
      if (b[at + 1] === 0x3c) {
        this.i += 2;
        return { t: 'open-dict', at };
      }
      return this.hexString(at);
    }
    if (c === 0x3e) {
      if (b[at + 1] === 0x3e) {
        this.i += 2;
        return { t: 'close-dict', at };
      }
      throw unreadable(`a stray ">" at byte ${at}`);
    }
    if (c === 0x5b) {
      this.i++;
      return { t: 'open-arr', at };
    }
    if (c === 0x5d) {
      this.i++;
      return { t: 'close-arr', at };
    }
    if (c === 0x28) return this.literalString(at);
    if (c === 0x29) throw unreadable(`a stray ")" at byte ${at}`);
    if (c === 0x7b || c === 0x7d) throw unreadable(`a brace outside a function at byte ${at}`);
    if (c === 0x2f) {
      const { name, end } = readName(b, at + 1);
      checkName(name);
      this.i = end;
      return { t: 'value', value: { k: 'name', v: name }, at };
    }
    let end = at;
    while (end < b.length && isRegular(b[end] as number)) end++;
    const word = Buffer.from(b.subarray(at, end)).toString('latin1');
    this.i = end;
    if (NUMBER.test(word)) {
      return { t: 'value', value: { k: 'num', v: Number(word), int: INTEGER.test(word) }, at };
    }
    return { t: 'value', value: { k: 'kw', v: word }, at };
  }

  private literalString(at: number): Token {
    const b = this.b;
    let depth = 0;
    let i = at;
    for (; i < b.length; i++) {
      const c = b[i];
      if (c === 0x5c) {
        i++; // the escaped character, whatever it is
      } else if (c === 0x28) {
        depth++;
      } else if (c === 0x29) {
        depth--;
        if (depth === 0) {
          this.i = i + 1;
          return { t: 'value', value: { k: 'str' }, at };
        }
      }
    }
    throw unreadable(`an unterminated string at byte ${at}`);
  }

  private hexString(at: number): Token {
    const b = this.b;
    for (let i = at + 1; i < b.length; i++) {
      const c = b[i] as number;
      if (c === 0x3e) {
        this.i = i + 1;
        return { t: 'value', value: { k: 'str' }, at };
      }
      if (hexValue(c) < 0 && !WHITESPACE.has(c)) {
        throw unreadable(`a hex string with a non-hex character at byte ${i}`);
      }
    }
    throw unreadable(`an unterminated hex string at byte ${at}`);
  }
}

// ── Parser ────────────────────────────────────────────────────────────────────────────

type Frame = { kind: 'dict' | 'arr'; items: PdfValue[]; at: number };

/** Appends a value, folding `num gen R` into a reference as readers do. */
function pushValue(items: PdfValue[], value: PdfValue): void {
  if (value.k === 'kw' && value.v === 'R') {
    const gen = items.at(-1);
    const num = items.at(-2);
    if (num?.k === 'num' && num.int && gen?.k === 'num' && gen.int) {
      items.splice(-2, 2, { k: 'ref', num: num.v, gen: gen.v });
      return;
    }
  }
  items.push(value);
}

function closeDict(frame: Frame): PdfValue {
  if (frame.items.length % 2 !== 0) {
    throw unreadable(`a dictionary with a key and no value at byte ${frame.at}`);
  }
  const map: Dict = new Map();
  for (let j = 0; j < frame.items.length; j += 2) {
    const key = frame.items[j] as PdfValue;
    if (key.k !== 'name')
      throw unreadable(`a dictionary key that is not a name at byte ${frame.at}`);
    map.set(key.v, frame.items[j + 1] as PdfValue);
  }
  return { k: 'dict', v: map };
}

/**
 * Reads values at the outermost level one after the other, handing each complete value
 * (with where it started) to `onValue`. Nesting is kept on an explicit stack, so a file of
 * a million `[` fails on the depth limit, not on the call stack.
 */
function readValues(lexer: Lexer, onValue: (value: PdfValue, at: number) => void): void {
  const stack: Frame[] = [];
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    if (token.t === 'open-dict' || token.t === 'open-arr') {
      if (stack.length >= MAX_DEPTH) throw unreadable(`nesting deeper than ${MAX_DEPTH} levels`);
      stack.push({ kind: token.t === 'open-dict' ? 'dict' : 'arr', items: [], at: token.at });
      continue;
    }
    let done: PdfValue;
    let at = token.at;
    if (token.t === 'value') {
      done = token.value;
    } else {
      const frame = stack.pop();
      const kind = token.t === 'close-dict' ? 'dict' : 'arr';
      if (!frame || frame.kind !== kind) throw unreadable(`an unmatched close at byte ${token.at}`);
      done = kind === 'dict' ? closeDict(frame) : { k: 'arr', v: frame.items };
      at = frame.at;
    }
    const parent = stack.at(-1);
    if (parent) {
      if (done.k === 'kw' && !['R', 'true', 'false', 'null'].includes(done.v)) {
        throw unreadable(`the keyword "${done.v.slice(0, 20)}" inside a value at byte ${at}`);
      }
      pushValue(parent.items, done);
    } else {
      onValue(done, at);
    }
  }
  if (stack.length > 0) throw unreadable('the file ends inside a dictionary or array');
}

// ── The file's own syntax ─────────────────────────────────────────────────────────────

type StreamRecord = {
  num: number | null;
  dict: Dict;
  dataStart: number;
  dataEnd: number;
  /** Where the data would end by the declared `/Length`, checked once every object is known. */
  length: PdfValue | undefined;
};

type TopLevel = {
  objects: Map<number, PdfValue>;
  streams: StreamRecord[];
  /** Byte positions where an `N G obj` header starts, as this parse read them. */
  headers: Set<number>;
};

const ENDSTREAM = Buffer.from('endstream', 'latin1');

function readTopLevel(b: Buffer, from: number): TopLevel {
  const objects = new Map<number, PdfValue>();
  const streams: StreamRecord[] = [];
  const headers = new Set<number>();
  const lexer = new Lexer(b, from);
  const recent: { value: PdfValue; at: number }[] = [];
  let current: { num: number; valueSeen: boolean } | null = null;

  readValues(lexer, (value, at) => {
    if (value.k === 'kw' && value.v === 'obj') {
      const gen = recent.at(-1);
      const num = recent.at(-2);
      if (num?.value.k !== 'num' || !num.value.int || gen?.value.k !== 'num' || !gen.value.int) {
        throw unreadable(`"obj" without an object number at byte ${at}`);
      }
      headers.add(num.at);
      current = { num: num.value.v, valueSeen: false };
      recent.length = 0;
      return;
    }
    if (value.k === 'kw' && value.v === 'stream') {
      const dict = recent.at(-1)?.value;
      if (dict?.k !== 'dict') throw unreadable(`"stream" without a dictionary at byte ${at}`);
      let dataStart = at + 'stream'.length;
      if (b[dataStart] === 0x0d) dataStart++;
      if (b[dataStart] === 0x0a) dataStart++;
      const dataEnd = b.indexOf(ENDSTREAM, dataStart);
      if (dataEnd < 0) throw unreadable(`a stream without "endstream" at byte ${at}`);
      streams.push({
        num: current?.num ?? null,
        dict: dict.v,
        dataStart,
        dataEnd,
        length: dict.v.get('Length'),
      });
      lexer.i = dataEnd + ENDSTREAM.length;
      recent.length = 0;
      return;
    }
    if (value.k === 'kw' && value.v === 'endstream') {
      throw unreadable(`"endstream" outside a stream at byte ${at}`);
    }
    if (value.k === 'kw' && value.v === 'endobj') {
      current = null;
      recent.length = 0;
      return;
    }
    if (current && !current.valueSeen) {
      current.valueSeen = true;
      objects.set(current.num, value);
    }
    recent.push({ value, at });
    if (recent.length > 3) recent.shift();
  });
  return { objects, streams, headers };
}

/**
 * Readers that cannot trust the cross-reference table rebuild it by searching the raw
 * bytes for `N G obj`. Every such pattern must be a header this parse read as one: a
 * pattern inside a string, a comment or another stream's data is an object that a reader
 * might see and this check would not.
 */
function checkObjectHeaders(b: Buffer, headers: Set<number>): void {
  const text = b.toString('latin1');
  const pattern = /(\d+)[\t\n\f\r ]+\d+[\t\n\f\r ]+obj/g;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    // A longer number may start earlier: the header starts at its first digit.
    let start = m.index;
    while (start > 0 && /\d/.test(text[start - 1] as string)) start--;
    if (!headers.has(start)) throw unreadable(`an object header hidden at byte ${start}`);
  }
}

// ── Filters ───────────────────────────────────────────────────────────────────────────

class Budget {
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

function intOf(value: PdfValue | undefined, fallback: number): number {
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

type Resolver = (value: PdfValue | undefined) => PdfValue | undefined;

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
function decode(data: Buffer, dict: Dict, resolve: Resolver, budget: Budget): Buffer | null {
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

// ── Streams that hold objects ─────────────────────────────────────────────────────────

const nameIs = (value: PdfValue | undefined, name: string) =>
  value?.k === 'name' && value.v === name;

/** A reader parses any stream with `/N` and `/First` as an object stream when the xref says so. */
function isObjectStream(dict: Dict, resolve: Resolver): boolean {
  return nameIs(resolve(dict.get('Type')), 'ObjStm') || (dict.has('N') && dict.has('First'));
}

function isXrefStream(dict: Dict, resolve: Resolver): boolean {
  return nameIs(resolve(dict.get('Type')), 'XRef') || dict.has('W');
}

/**
 * Streams that carry binary data rather than PDF syntax (pixels, font programs, colour
 * profiles, sampled functions): their bytes are decoded but not read for names, since
 * random bytes spell `/AA ` now and then.
 */
function isBinaryData(dict: Dict, resolve: Resolver): boolean {
  const subtype = resolve(dict.get('Subtype'));
  return (
    nameIs(subtype, 'Image') ||
    nameIs(subtype, 'Type1C') ||
    nameIs(subtype, 'CIDFontType0C') ||
    nameIs(subtype, 'OpenType') ||
    [
      'Width',
      'BitsPerComponent',
      'Length1',
      'Length2',
      'Length3',
      'FunctionType',
      'ShadingType',
    ].some((key) => dict.has(key)) ||
    (dict.has('N') && !dict.has('First'))
  );
}

/** The objects of a cross-reference stream that are object streams (type 2 entries). */
function readXrefStream(data: Buffer, dict: Dict, resolve: Resolver): Set<number> {
  const w = resolve(dict.get('W'));
  if (w?.k !== 'arr' || w.v.length !== 3) throw unreadable('a cross-reference stream without /W');
  const widths = w.v.map((v) => intOf(resolve(v), -1));
  if (widths.some((x) => x < 0 || x > 8) || widths.every((x) => x === 0)) {
    throw unreadable('a cross-reference stream with bad /W');
  }
  const [w0, w1, w2] = widths as [number, number, number];
  const entry = w0 + w1 + w2;
  const field = (at: number, width: number) => {
    let v = 0;
    for (let j = 0; j < width; j++) v = v * 256 + (data[at + j] as number);
    return v;
  };
  const size = intOf(resolve(dict.get('Size')), 0);
  const index = resolve(dict.get('Index'));
  const ranges = index?.k === 'arr' ? index.v.map((v) => intOf(resolve(v), -1)) : [0, size];
  if (ranges.length % 2 !== 0 || ranges.some((x) => x < 0)) {
    throw unreadable('a cross-reference stream with bad /Index');
  }
  const objectStreams = new Set<number>();
  let at = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    const count = ranges[r + 1] as number;
    for (let j = 0; j < count && at + entry <= data.length; j++, at += entry) {
      const type = w0 === 0 ? 1 : field(at, w0);
      if (type === 2) objectStreams.add(field(at + w0, w1));
    }
  }
  return objectStreams;
}

/**
 * The objects of an object stream, by number. Every offset in its header must start a
 * value as this parse read the stream: an offset into the middle of a string would let a
 * reader find a dictionary this check took for text.
 */
function readObjectStream(data: Buffer, dict: Dict, resolve: Resolver): Map<number, PdfValue> {
  const n = intOf(resolve(dict.get('N')), -1);
  const first = intOf(resolve(dict.get('First')), -1);
  if (n < 0 || first < 0 || first > data.length)
    throw unreadable('an object stream without /N or /First');
  const values: { value: PdfValue; at: number }[] = [];
  readValues(new Lexer(data), (value, at) => {
    if (value.k === 'kw' && ['obj', 'endobj', 'stream', 'endstream'].includes(value.v)) {
      throw unreadable(`"${value.v}" inside an object stream`);
    }
    values.push({ value, at });
  });
  const byStart = new Map(values.map((v) => [v.at, v.value]));
  const objects = new Map<number, PdfValue>();
  for (let j = 0; j < n; j++) {
    const num = values[2 * j]?.value;
    const offset = values[2 * j + 1]?.value;
    if (num?.k !== 'num' || !num.int || offset?.k !== 'num' || !offset.int) {
      throw unreadable('an object stream whose header is not pairs of numbers');
    }
    const value = byStart.get(first + offset.v);
    if (value === undefined) throw unreadable('an object stream offset inside another token');
    objects.set(num.v, value);
  }
  return objects;
}

// ── The whole check ───────────────────────────────────────────────────────────────────

/**
 * Where a stream's data ends by its `/Length`, when that lands on `endstream`: it must be
 * the `endstream` this parse used, or a reader and this check would read different bytes.
 */
function checkLength(b: Buffer, stream: StreamRecord, resolve: Resolver): void {
  const length = resolve(stream.length);
  if (length?.k !== 'num' || !length.int || length.v < 0) return;
  let end = stream.dataStart + length.v;
  if (end > b.length) return;
  while (end < b.length && WHITESPACE.has(b[end] as number)) end++;
  if (end !== stream.dataEnd && b.subarray(end, end + ENDSTREAM.length).equals(ENDSTREAM)) {
    throw unreadable(`a stream whose /Length disagrees with its end at byte ${stream.dataStart}`);
  }
}

export function scanPdf(input: Uint8Array): PdfVerdict {
  try {
    const b = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const header = b.subarray(0, 1024).indexOf('%PDF-');
    if (header < 0) throw unreadable('no PDF header');
    const top = readTopLevel(b, header);
    checkObjectHeaders(b, top.headers);

    const packed = new Map<number, PdfValue>();
    const resolve: Resolver = (value) => {
      let v = value;
      for (let hops = 0; v?.k === 'ref' && hops < 8; hops++) {
        v = top.objects.get(v.num) ?? packed.get(v.num);
      }
      return v?.k === 'ref' ? undefined : v;
    };
    const budget = new Budget(MAX_DECODED_BYTES);
    const dataOf = (s: StreamRecord) => b.subarray(s.dataStart, s.dataEnd);
    const asObjectStream = (s: StreamRecord, decoded: Buffer | null) => {
      if (decoded === null) throw unreadable('an object stream with an image filter');
      for (const [num, value] of readObjectStream(decoded, s.dict, resolve)) packed.set(num, value);
    };

    // Cross-reference streams first: they say which other streams readers take for
    // object streams, whatever those streams' own dictionaries say.
    const named = new Set<number>();
    const xrefs = top.streams.filter((s) => isXrefStream(s.dict, resolve));
    const xrefData = new Map<StreamRecord, Buffer>();
    for (const s of xrefs) {
      const decoded = decode(dataOf(s), s.dict, resolve, budget);
      if (decoded === null) throw unreadable('a cross-reference stream with an image filter');
      xrefData.set(s, decoded);
      for (const num of readXrefStream(decoded, s.dict, resolve)) named.add(num);
    }
    for (const s of top.streams) {
      const isXref = xrefData.get(s);
      const holdsObjects = isObjectStream(s.dict, resolve) || (s.num !== null && named.has(s.num));
      const decoded = isXref ?? decode(dataOf(s), s.dict, resolve, budget);
      if (holdsObjects) asObjectStream(s, decoded);
      else if (decoded !== null && !isXref && !isBinaryData(s.dict, resolve)) {
        scanNames(decoded);
      }
    }
    for (const s of top.streams) checkLength(b, s, resolve);
    return { ok: true };
  } catch (err) {
    if (err instanceof PdfRefusal) return { ok: false, reason: err.reason, detail: err.detail };
    // Anything else is a structure this check did not foresee: refuse rather than pass.
    return { ok: false, reason: 'unreadable', detail: String(err).slice(0, 200) };
  }
}

/**
 * Every name in decoded stream content (page content, forms, XML), without parsing the
 * content as objects: content streams hold operators and inline images a dictionary
 * parser cannot read, and no reader acts on names there, but none may be active either.
 */
function scanNames(bytes: Buffer): void {
  for (let i = bytes.indexOf(0x2f); i >= 0; i = bytes.indexOf(0x2f, i + 1)) {
    checkName(readName(bytes, i + 1).name);
  }
}
