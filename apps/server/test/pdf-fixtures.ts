import { deflateSync } from 'node:zlib';

/**
 * PDFs for the upload checks, built byte by byte so each test shows exactly where a
 * script hides: object streams, filter chains, predictors, cross-reference streams.
 */

export type Part = string | Buffer;

const latin1 = (p: Part) => (Buffer.isBuffer(p) ? p : Buffer.from(p, 'latin1'));

/** A file from objects (`obj(…)`), with a classic cross-reference table and trailer. */
export function pdfOf(objects: Part[], trailer = '/Root 1 0 R'): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  for (const o of objects) {
    offsets.push(length);
    const b = Buffer.concat([latin1(o), Buffer.from('\n')]);
    chunks.push(b);
    length += b.length;
  }
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    `trailer << /Size ${objects.length + 1} ${trailer} >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  chunks.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(chunks);
}

export const obj = (num: number, body: string) => `${num} 0 obj\n${body}\nendobj`;

/** A stream object; `/Length` is added from the data. */
export function streamObj(num: number, dict: string, data: Part): Buffer {
  const bytes = latin1(data);
  return Buffer.concat([
    Buffer.from(`${num} 0 obj\n<< ${dict} /Length ${bytes.length} >>\nstream\n`, 'latin1'),
    bytes,
    Buffer.from('\nendstream\nendobj', 'latin1'),
  ]);
}

/** The catalog and an empty page tree: objects 1 and 2 of a plain document. */
export const CATALOG = [
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>'),
  obj(2, '<< /Type /Pages /Kids [] /Count 0 >>'),
];

/** An object stream's content: its header of number/offset pairs and `/First`. */
export function objectStreamBody(objects: [number, string][]): {
  body: Buffer;
  n: number;
  first: number;
} {
  let offset = 0;
  const pairs: string[] = [];
  const bodies: string[] = [];
  for (const [num, text] of objects) {
    pairs.push(`${num} ${offset}`);
    bodies.push(text);
    offset += text.length + 1;
  }
  const header = `${pairs.join(' ')}\n`;
  return {
    body: Buffer.from(header + bodies.join('\n'), 'latin1'),
    n: objects.length,
    first: header.length,
  };
}

/** A JavaScript action run when the document opens, as an object-stream member. */
export const OPEN_ACTION_SCRIPT = '<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>';

// ── Encoders for the standard filters ─────────────────────────────────────────────────

export const flate = (b: Part) => deflateSync(latin1(b));

export const asciiHex = (b: Part) => Buffer.from(`${latin1(b).toString('hex')}>`, 'latin1');

export function ascii85(b: Part): Buffer {
  const bytes = latin1(b);
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const group = bytes.subarray(i, i + 4);
    const padded = Buffer.concat([group, Buffer.alloc(4 - group.length)]);
    let value = padded.readUInt32BE(0);
    if (value === 0 && group.length === 4) {
      out += 'z';
      continue;
    }
    const chars: string[] = [];
    for (let j = 0; j < 5; j++) {
      chars.unshift(String.fromCharCode((value % 85) + 33));
      value = Math.floor(value / 85);
    }
    out += chars.slice(0, group.length + 1).join('');
  }
  return Buffer.from(`${out}~>`, 'latin1');
}

/** LZW with EarlyChange 1, codes written most significant bit first. */
export function lzw(b: Part): Buffer {
  const bytes = latin1(b);
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let width = 9;
  const write = (code: number) => {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  };
  const table = new Map<string, number>();
  const reset = () => {
    table.clear();
    for (let c = 0; c < 256; c++) table.set(String.fromCharCode(c), c);
  };
  reset();
  let next = 258;
  write(256);
  let w = '';
  for (const byte of bytes) {
    const wc = w + String.fromCharCode(byte);
    if (table.has(wc)) {
      w = wc;
      continue;
    }
    write(table.get(w) as number);
    table.set(wc, next++);
    // The reader adds its entry one code later, and changes width one code early.
    if (next >= 1 << width && width < 12) width++;
    if (next >= 4094) {
      write(256);
      reset();
      next = 258;
      width = 9;
    }
    w = String.fromCharCode(byte);
  }
  if (w !== '') write(table.get(w) as number);
  write(257);
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return Buffer.from(out);
}

/** RunLength: literal runs of up to 128 bytes, then the end-of-data byte. */
export function runLength(b: Part): Buffer {
  const bytes = latin1(b);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 128) {
    const run = bytes.subarray(i, i + 128);
    out.push(Buffer.from([run.length - 1]), run);
  }
  out.push(Buffer.from([128]));
  return Buffer.concat(out);
}

/** PNG "Up" prediction over rows of `columns` bytes, before Flate. */
export function pngUp(b: Part, columns: number): Buffer {
  const bytes = latin1(b);
  const rows: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += columns) {
    const row = Buffer.alloc(columns);
    bytes.copy(row, 0, i, Math.min(i + columns, bytes.length));
    const previous = i >= columns ? bytes.subarray(i - columns, i) : Buffer.alloc(columns);
    const encoded = Buffer.from(row.map((v, j) => (v - (previous[j] ?? 0)) & 0xff));
    rows.push(Buffer.from([2]), encoded);
  }
  return Buffer.concat(rows);
}

/** A document whose object 3, inside object stream 4, is a script; `filter` encodes it. */
export function scriptInObjectStream(filter: string, encode: (b: Buffer) => Buffer): Buffer {
  const { body, n, first } = objectStreamBody([[3, OPEN_ACTION_SCRIPT]]);
  return pdfOf([
    ...CATALOG,
    streamObj(4, `/Type /ObjStm /N ${n} /First ${first} ${filter}`, encode(body)),
  ]);
}

/**
 * PDFs that got past the old check, each hiding a script or refusing to be read, with the
 * refusal expected: what an upload route must answer for each.
 */
export function hostilePdfs(): [
  string,
  Buffer,
  'active_content' | 'pdf_unreadable' | 'pdf_too_complex' | 'pdf_encrypted',
][] {
  const { body, n, first } = objectStreamBody([[3, OPEN_ACTION_SCRIPT]]);
  return [
    [
      'a script in an ASCIIHex object stream',
      scriptInObjectStream('/Filter /ASCIIHexDecode', asciiHex),
      'active_content',
    ],
    [
      'a script behind ASCII85 then Flate',
      scriptInObjectStream('/Filter [/ASCII85Decode /FlateDecode]', (b) => ascii85(flate(b))),
      'active_content',
    ],
    [
      'a script in an LZW object stream',
      scriptInObjectStream('/Filter /LZWDecode', lzw),
      'active_content',
    ],
    [
      'a script behind a key that contains "stream"',
      scriptInObjectStream('/Upstream true /Filter /FlateDecode', flate),
      'active_content',
    ],
    [
      'an object stream behind an image filter',
      pdfOf([
        ...CATALOG,
        streamObj(4, `/Type /ObjStm /N ${n} /First ${first} /Filter /DCTDecode`, body),
      ]),
      'pdf_unreadable',
    ],
    [
      'a filter no reader knows',
      pdfOf([...CATALOG, streamObj(4, '/Filter /SecretDecode', body)]),
      'pdf_unreadable',
    ],
    ['an encrypted file', pdfOf(CATALOG, '/Root 1 0 R /Encrypt 5 0 R'), 'pdf_encrypted'],
    [
      'a deflate bomb',
      pdfOf([
        ...CATALOG,
        streamObj(3, '/Filter /FlateDecode', deflateSync(Buffer.alloc(70 * 1024 * 1024))),
      ]),
      'pdf_too_complex',
    ],
  ];
}
