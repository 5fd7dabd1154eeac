import { revealInvisible } from '@coffer/shared';
import { cn } from '@web/lib/cn';

/** revealInvisible's markers; split by it, they are the odd parts. */
const MARKER = /(⟨U\+[0-9A-F]{4,6}⟩)/;

/**
 * Text a customer wrote (a name, an address, a memo, a file name, a chat message) as staff
 * read it: in a bidi isolate, so a right-to-left override cannot reorder what stands
 * around it, with every hidden control, override or zero-width character shown as its code
 * point (`⟨U+202E⟩`, marked in the danger colour), and wrapping anywhere so that a long
 * unbroken value never widens the page. `truncate` keeps it on one line instead, with the
 * whole value on hover and, being focusable, to assistive technology on focus. It is never
 * machine-translated: staff must read what the customer wrote.
 */
export function CustomerText({
  text,
  className,
  multiline = false,
  truncate = false,
}: {
  text: string;
  className?: string;
  /** Keeps the customer's line breaks (chat messages, addresses). */
  multiline?: boolean;
  truncate?: boolean;
}) {
  const shown = revealInvisible(text, { keepLines: multiline });
  const parts = shown.split(MARKER);
  return (
    <bdi
      translate="no"
      className={cn(
        truncate ? 'block min-w-0 truncate' : 'wrap-anywhere',
        multiline && !truncate && 'whitespace-pre-wrap',
        className,
      )}
      title={truncate || shown !== text ? shown : undefined}
      tabIndex={truncate ? 0 : undefined}
    >
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in order
          <span key={i} className="rounded-sm bg-danger/10 px-0.5 font-mono text-danger">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </bdi>
  );
}
