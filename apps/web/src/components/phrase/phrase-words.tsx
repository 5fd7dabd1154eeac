import { phraseWords } from '@web/lib/phrase';

/**
 * A recovery phrase's words, numbered in order: the Secret Combination screen and the
 * two-factor setup show it the same way.
 */
export function PhraseWords({ phrase, label }: { phrase: string; label?: string }) {
  // The phrase may repeat a word; the position is what identifies it.
  const words = phraseWords(phrase).map((word, i) => ({ position: i + 1, word }));
  return (
    // translate="no": browser translation would send the words to a third party.
    <ol
      aria-label={label}
      translate="no"
      className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3"
    >
      {words.map(({ position, word }) => (
        <li
          key={position}
          className="flex items-center gap-2 rounded-md border border-border bg-surface-2 px-3 py-2"
        >
          <span className="w-6 shrink-0 text-right text-xs tabular-nums text-muted">
            {position}.
          </span>
          <span className="break-all font-mono font-medium text-fg">{word}</span>
        </li>
      ))}
    </ol>
  );
}
