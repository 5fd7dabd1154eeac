import { withoutInvisibleCharacters } from './customer-text';

/**
 * The extensions a stored type may be saved under, its usual one first. A file is always
 * named by what it is (the type detected from its bytes when it was stored), so a PDF
 * called `invoice.html` is saved as `invoice.pdf` and a text file called `run.bat` cannot
 * be saved as a script and double-clicked.
 */
const EXTENSIONS: Record<string, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
  'text/plain': ['txt'],
  'application/json': ['json'],
};

/** Whether Coffer stores files of this type (anything else is served as bytes). */
export function isStoredFileType(mime: string): boolean {
  return mime in EXTENSIONS;
}

const MAX_NAME = 150;

/**
 * A file name safe for a header and for the disk it is saved to, used by the server's
 * `Content-Disposition` and by every Download button: no folders, no invisible characters
 * or quotes, and an extension that matches the stored type. The rule for the extension:
 * the last one is kept, in lower case, when it is the type's own (`.jpg`/`.jpeg` for a
 * JPEG), otherwise the type's usual extension replaces it (`x.pdf.exe` stored as PNG is
 * saved as `x.pdf.png`, `invoice.html` stored as PDF as `invoice.pdf`), or is added to a
 * name without one. A type Coffer never stores is saved as `.bin`.
 */
export function safeDownloadName(name: string, mime: string): string {
  const base = withoutInvisibleCharacters(name.split(/[\\/]/).pop() ?? '')
    .replaceAll('"', '')
    .trim()
    .replace(/[. ]+$/, '');
  const allowed = EXTENSIONS[mime] ?? ['bin'];
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const stem = (dot > 0 ? base.slice(0, dot) : base).replace(/^[. ]+/, '');
  const keep = allowed.includes(extension);
  const suffix = `.${keep ? extension : allowed[0]}`;
  const shortStem = [...(stem || 'file')].slice(0, MAX_NAME - suffix.length).join('');
  return `${shortStem}${suffix}`;
}
