import { deflateSync } from 'node:zlib';
import {
  ascii85,
  asciiHex,
  CATALOG,
  flate,
  lzw,
  OPEN_ACTION_SCRIPT,
  obj,
  objectStreamBody,
  pdfOf,
  pngUp,
  runLength,
  streamObj,
} from '@server-test/pdf-fixtures';
import { describe, expect, it } from 'vitest';
import { MAX_DECODED_BYTES, scanPdf } from './pdf-scan';

/** A document whose object 3, inside object stream 4, is the script its catalog opens. */
function scriptInObjectStream(filter: string, encoded: Buffer, extra = ''): Buffer {
  const { n, first } = objectStreamBody([[3, OPEN_ACTION_SCRIPT]]);
  return pdfOf([
    ...CATALOG,
    streamObj(4, `/Type /ObjStm /N ${n} /First ${first} ${filter} ${extra}`, encoded),
  ]);
}
const body = () => objectStreamBody([[3, OPEN_ACTION_SCRIPT]]).body;

describe('the PDF check', () => {
  it('passes a plain document, with its objects in a compressed object stream', () => {
    expect(scanPdf(pdfOf(CATALOG))).toEqual({ ok: true });
    const {
      body: packed,
      n,
      first,
    } = objectStreamBody([
      [3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>'],
      [5, '<< /Title (Statement \\(June\\)) /Producer <436f66666572> >>'],
    ]);
    const file = pdfOf([
      ...CATALOG,
      streamObj(4, `/Type /ObjStm /N ${n} /First ${first} /Filter /FlateDecode`, flate(packed)),
      streamObj(6, '/Filter /FlateDecode', flate('BT /F1 12 Tf 72 712 Td (Hello) Tj ET')),
      streamObj(
        7,
        '/Type /XObject /Subtype /Image /Width 1 /Height 1 /Filter /DCTDecode',
        Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
      ),
    ]);
    expect(scanPdf(file)).toEqual({ ok: true });
    // Names that merely start like an action name are not actions.
    expect(scanPdf(pdfOf([obj(1, '<< /JSON 1 /AAB 2 /Launcher 3 /JavaScripts 4 >>')]))).toEqual({
      ok: true,
    });
  });

  it('refuses every active name, written plainly or with #xx escapes', () => {
    const names = [
      'JavaScript',
      'JS',
      'OpenAction',
      'AA',
      'Launch',
      'EmbeddedFile',
      'EmbeddedFiles',
      'RichMedia',
      'XFA',
      'SubmitForm',
      'ImportData',
      'GoToR',
      'GoToE',
    ];
    for (const name of names) {
      const escaped = `${name[0]}#${name.charCodeAt(1).toString(16)}${name.slice(2)}`;
      for (const written of [name, escaped]) {
        const file = pdfOf([...CATALOG, obj(3, `<< /${written} 5 0 R >>`)]);
        expect(scanPdf(file), written).toMatchObject({ ok: false, reason: 'active' });
      }
    }
  });

  it('finds a script in an object stream behind every standard filter', () => {
    const cases: [string, string, Buffer, string?][] = [
      ['Flate', '/Filter /FlateDecode', flate(body())],
      ['ASCIIHex', '/Filter /ASCIIHexDecode', asciiHex(body())],
      ['ASCII85', '/Filter /ASCII85Decode', ascii85(body())],
      ['ASCII85 then Flate', '/Filter [/ASCII85Decode /FlateDecode]', ascii85(flate(body()))],
      [
        'ASCIIHex then ASCII85 then Flate',
        '/Filter [/AHx /A85 /Fl]',
        asciiHex(ascii85(flate(body()))),
      ],
      ['LZW', '/Filter /LZWDecode', lzw(body())],
      ['RunLength', '/Filter /RunLengthDecode', runLength(body())],
      [
        'Flate with a PNG predictor',
        '/Filter /FlateDecode',
        flate(pngUp(body(), 7)),
        '/DecodeParms << /Predictor 12 /Columns 7 >>',
      ],
      ['a key named like a stream', '/Nostream 1 /streamx 2 /Filter /FlateDecode', flate(body())],
    ];
    for (const [what, filter, encoded, extra] of cases) {
      expect(scanPdf(scriptInObjectStream(filter, encoded, extra)), what).toMatchObject({
        ok: false,
        reason: 'active',
      });
    }
    // LZW codes grow past 9 bits on longer content: the script sits after that.
    const long = Buffer.concat([
      Buffer.from(Array.from({ length: 3000 }, (_, i) => `${i} `).join(''), 'latin1'),
      body(),
    ]);
    const { n, first } = objectStreamBody([[3, OPEN_ACTION_SCRIPT]]);
    expect(
      scanPdf(
        pdfOf([
          ...CATALOG,
          streamObj(4, `/Type /ObjStm /N ${n} /First ${first} /Filter /LZWDecode`, lzw(long)),
        ]),
      ),
    ).toMatchObject({ ok: false, reason: 'active' });
  });

  it('reads the object streams a cross-reference stream names, whatever their own dictionary says', () => {
    const { body: packed, n, first } = objectStreamBody([[3, '<< /S /JavaScript /JS (x) >>']]);
    // Object 4 does not call itself an object stream; the xref stream (object 5) says it is.
    const entries = Buffer.from([
      0,
      0,
      0,
      0, //
      1,
      0,
      15,
      0,
      1,
      0,
      60,
      0,
      2,
      0,
      4,
      0,
      1,
      0,
      100,
      0,
      1,
      0,
      200,
      0,
    ]);
    const xref = streamObj(
      5,
      '/Type /XRef /Size 6 /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>',
      flate(pngUp(entries, 4)),
    );
    const hidden = streamObj(4, `/Filter /FlateDecode /Count ${n} /Start ${first}`, flate(packed));
    expect(scanPdf(pdfOf([...CATALOG, hidden, xref]))).toMatchObject({
      ok: false,
      detail: 'an object stream without /N or /First',
    });
    // Without the cross-reference stream naming it, the same stream is content, whose
    // names are read too.
    expect(scanPdf(pdfOf([...CATALOG, hidden]))).toMatchObject({ ok: false, reason: 'active' });
    // Declared with /N and /First, it is read as one even without /Type.
    const withN = streamObj(4, `/Filter /FlateDecode /N ${n} /First ${first}`, flate(packed));
    expect(scanPdf(pdfOf([...CATALOG, withN]))).toMatchObject({ ok: false, reason: 'active' });
  });

  it('refuses an object stream behind an image filter, and filters it cannot decode', () => {
    const { n, first } = objectStreamBody([[3, '<< /Type /Page >>']]);
    for (const image of ['/DCTDecode', '/JPXDecode', '/CCITTFaxDecode', '/JBIG2Decode']) {
      const file = pdfOf([
        ...CATALOG,
        streamObj(4, `/Type /ObjStm /N ${n} /First ${first} /Filter ${image}`, body()),
      ]);
      expect(scanPdf(file), image).toMatchObject({
        ok: false,
        reason: 'unreadable',
        detail: 'an object stream with an image filter',
      });
    }
    const undecodable: [string, Buffer][] = [
      ['/Filter /Crypt', body()],
      ['/Filter /BrotliDecode', body()],
      ['/Filter [/DCTDecode /FlateDecode]', flate(body())],
      ['/Filter /FlateDecode', Buffer.from('not deflate data at all')],
      ['/Filter /ASCIIHexDecode', Buffer.from('4a5z>')],
      ['/Filter /FlateDecode /F (payload.bin)', flate(body())],
      [`/Filter [${'/AHx '.repeat(9)}]`, body()],
    ];
    for (const [dict, data] of undecodable) {
      expect(scanPdf(pdfOf([...CATALOG, streamObj(4, dict, data)])), dict).toMatchObject({
        ok: false,
        reason: 'undecodable',
      });
    }
    expect(scanPdf(pdfOf(CATALOG, '/Root 1 0 R /Encrypt 9 0 R'))).toMatchObject({
      ok: false,
      reason: 'encrypted',
    });
  });

  it('refuses structures two readers could read differently', () => {
    const lengthData = 'abc\nendstream\nendobj\n5 0 obj\n(';
    const cases: [string, Buffer, string][] = [
      // An object header inside a string: a reader rebuilding its table finds it.
      [
        'a hidden object',
        pdfOf([...CATALOG, obj(3, `(9 0 obj ${OPEN_ACTION_SCRIPT} endobj)`)]),
        'an object header hidden',
      ],
      // By /Length the data runs on into what this parse reads as a string of object 5.
      [
        'a /Length past an earlier endstream',
        pdfOf([
          ...CATALOG,
          Buffer.from(
            `4 0 obj\n<< /Length ${lengthData.length} >>\nstream\n${lengthData}\nendstream\nendobj\n)\nendobj`,
            'latin1',
          ),
        ]),
        '/Length disagrees',
      ],
      [
        'a stray endstream',
        pdfOf([...CATALOG, streamObj(4, '', 'abc\nendstream\nendobj (x) 0123')]),
        '"endstream" outside a stream',
      ],
      ['an unterminated string', pdfOf([...CATALOG, obj(3, '<< /Title (open >>')]), 'unterminated'],
      ['a stray close', pdfOf([...CATALOG, obj(3, '<< /A 1 >> >>')]), 'unmatched close'],
      ['a million brackets', pdfOf([...CATALOG, obj(3, '['.repeat(1_000_000))]), 'nesting deeper'],
      ['no header', Buffer.from('1 0 obj << >> endobj'), 'no PDF header'],
    ];
    for (const [what, file, detail] of cases) {
      expect(scanPdf(file), what).toMatchObject({
        ok: false,
        reason: 'unreadable',
        detail: expect.stringContaining(detail),
      });
    }
    // An object-stream offset that lands inside a string, where a reader finds a dictionary.
    const text = `(x ${OPEN_ACTION_SCRIPT.replace('/JavaScript', '/Java#53cript')})`;
    const sneaky = Buffer.from(`3 3\n${text}`, 'latin1');
    expect(
      scanPdf(pdfOf([...CATALOG, streamObj(4, '/Type /ObjStm /N 1 /First 4', sneaky)])),
    ).toMatchObject({ ok: false, reason: 'unreadable', detail: expect.stringContaining('offset') });
    // The same stream with a true offset is read, and its script found.
    const honest = Buffer.from(`3 0\n${OPEN_ACTION_SCRIPT}`, 'latin1');
    expect(
      scanPdf(pdfOf([...CATALOG, streamObj(4, '/Type /ObjStm /N 1 /First 4', honest)])),
    ).toMatchObject({ ok: false, reason: 'active' });
  });

  it('stops decoding at one budget for the whole file', () => {
    const bomb = deflateSync(Buffer.alloc(MAX_DECODED_BYTES + 1));
    expect(bomb.length).toBeLessThan(200_000);
    expect(scanPdf(pdfOf([...CATALOG, streamObj(3, '/Filter /FlateDecode', bomb)]))).toMatchObject({
      ok: false,
      reason: 'too_large',
    });
    // Three streams each under the budget, over it together.
    const third = deflateSync(Buffer.alloc(Math.ceil(MAX_DECODED_BYTES / 3) + 1));
    const three = pdfOf([
      ...CATALOG,
      streamObj(3, '/Filter /FlateDecode', third),
      streamObj(4, '/Filter /FlateDecode', third),
      streamObj(5, '/Filter /FlateDecode', third),
    ]);
    expect(scanPdf(three)).toMatchObject({ ok: false, reason: 'too_large' });
    expect(scanPdf(pdfOf([...CATALOG, streamObj(3, '/Filter /FlateDecode', third)]))).toEqual({
      ok: true,
    });
    // RunLength repeats: 2 bytes → 128 bytes, many times over.
    const repeats = Buffer.alloc(2 * 600_000, 0);
    for (let i = 0; i < repeats.length; i += 2) repeats[i] = 129;
    const rl = pdfOf([
      ...CATALOG,
      streamObj(3, '/Filter [/FlateDecode /RunLengthDecode]', deflateSync(repeats)),
    ]);
    expect(scanPdf(rl)).toMatchObject({ ok: false, reason: 'too_large' });
  });
});
