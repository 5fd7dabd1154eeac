/**
 * What every part of the PDF check shares: the values a PDF's syntax holds, the names that
 * make a file act by itself, the limits, and the refusal. The check itself is `pdf-scan.ts`.
 */

/** Names that make a PDF act by itself; compared after `#xx` escapes are decoded. */
export const ACTIVE_NAMES = new Set([
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
export const MAX_DEPTH = 64;
/** Filters chained on one stream; real files use one or two. */
export const MAX_FILTERS = 8;

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

export const unreadable = (detail: string) => new PdfRefusal('unreadable', detail);

// ── Values ────────────────────────────────────────────────────────────────────────────

export type PdfValue =
  | { k: 'num'; v: number; int: boolean }
  | { k: 'name'; v: string }
  | { k: 'str' }
  | { k: 'kw'; v: string }
  | { k: 'ref'; num: number; gen: number }
  | { k: 'arr'; v: PdfValue[] }
  | { k: 'dict'; v: Map<string, PdfValue> };

export type Dict = Map<string, PdfValue>;
