/**
 * The words of a recovery phrase in order, however it is spaced: the server sends single
 * spaces, but a phrase is split the same way wherever it is shown or copied.
 */
export function phraseWords(phrase: string): string[] {
  const trimmed = phrase.trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}
