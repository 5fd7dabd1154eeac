import { describe, expect, it } from 'vitest';
import { isStoredFileType, safeDownloadName } from './file-names';

describe('download names', () => {
  it('names a file by the type found in its bytes, never by the customer’s extension', () => {
    // A PDF (a script hidden in a comment) sent as invoice.html saves as a PDF.
    expect(safeDownloadName('invoice.html', 'application/pdf')).toBe('invoice.pdf');
    expect(safeDownloadName('invoice.HTML', 'application/pdf')).toBe('invoice.pdf');
    expect(safeDownloadName('photo.svg', 'image/png')).toBe('photo.png');
    expect(safeDownloadName('notes.hta', 'text/plain')).toBe('notes.txt');
    expect(safeDownloadName('statement.PDF', 'application/pdf')).toBe('statement.pdf');
    expect(safeDownloadName('scan.jpeg', 'image/jpeg')).toBe('scan.jpeg');
    expect(safeDownloadName('archive', 'application/zip')).toBe('archive.bin');
  });

  it('drops folders, quotes and hidden characters', () => {
    expect(safeDownloadName('../../x/inv"oice\u202Elmth.pdf', 'application/pdf')).toBe(
      'invoicelmth.pdf',
    );
    expect(safeDownloadName('', 'image/png')).toBe('file.png');
    expect(safeDownloadName(`${'a'.repeat(200)}.html`, 'application/pdf')).toHaveLength(150);
  });

  it('knows the types Coffer stores', () => {
    expect(isStoredFileType('application/pdf')).toBe(true);
    expect(isStoredFileType('text/html')).toBe(false);
  });
});
