/**
 * Customer-controlled text (names, addresses, memos, file names, chat messages) as staff
 * should read it. Characters that are not shown but change what is shown — C0 and C1
 * controls, format characters (the right-to-left override U+202E that makes `exe.fdp`
 * read as `pdf.exe`, zero-width spaces and joiners, bidi marks and isolates) and the line
 * and paragraph separators — would let a customer disguise what staff approve or open.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Ordinary line breaks and tabs that a chat message or an address may rightly hold. */
const LAYOUT = new Set(['\n', '\t']);

/** `⟨U+202E⟩` for one code point. */
function marker(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * The text with every invisible character made visible as its code point (`⟨U+202E⟩`), so
 * it reads in the order it was typed and staff can see that something was hidden. Line
 * breaks and tabs stay as they are when `keepLines` is set (chat messages, addresses).
 */
export function revealInvisible(text: string, options: { keepLines?: boolean } = {}): string {
  return text.replace(INVISIBLE, (ch) => (options.keepLines && LAYOUT.has(ch) ? ch : marker(ch)));
}

/** Whether `text` holds a character `revealInvisible` would mark. */
export function hasInvisible(text: string): boolean {
  return text.search(INVISIBLE) !== -1;
}

/** A name as people should see it: without invisible characters that reorder or hide text. */
export function withoutInvisibleCharacters(name: string): string {
  return name.replace(INVISIBLE, '');
}
