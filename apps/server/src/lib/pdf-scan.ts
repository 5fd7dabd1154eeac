import { Budget, decode, intOf, type Resolver } from './pdf-filters';
import { checkName, Lexer, readName, readValues, WHITESPACE } from './pdf-lexer';
import {
  type Dict,
  MAX_DECODED_BYTES,
  PdfRefusal,
  type PdfValue,
  type PdfVerdict,
  unreadable,
} from './pdf-values';

export {
  MAX_DECODED_BYTES,
  PdfRefusal,
  type PdfRefusalReason,
  type PdfVerdict,
} from './pdf-values';

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
 * Its parts: the shared values and limits (`pdf-values.ts`), the tokenizer and parser
 * (`pdf-lexer.ts`), the stream filters (`pdf-filters.ts`); here, the file's own syntax, the
 * streams that hold objects, and the verdict.
 *
 * It is synchronous and CPU-heavy by design: it runs in a worker thread (pdf-check.ts),
 * never on the server's event loop.
 */

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
