import { revealInvisible } from '@coffer/shared';
import { cn } from '@web/lib/cn';
import { Fragment } from 'react';

/**
 * An e-mail address that wraps only where a reader expects it to: before the @ and before
 * each dot (alice.nguyen / @example.com), never in the middle of a word unless one part
 * alone is wider than the line. Each piece is its own inline block, because a browser
 * otherwise breaks after a hyphen inside a piece (phone- / layout) when that fits the line
 * better. Like all customer text it sits in a bidi isolate with any hidden character shown
 * as its code point (see CustomerText).
 */
export function EmailText({ email, className }: { email: string; className?: string }) {
  let at = 0;
  const parts = revealInvisible(email)
    .split(/(?=[@.])/)
    .map((text) => {
      const start = at;
      at += text.length;
      return { start, text };
    });
  return (
    <bdi className={cn('wrap-anywhere', className)}>
      {parts.map(({ start, text }) => (
        <Fragment key={start}>
          {start > 0 ? <wbr /> : null}
          <span className="inline-block max-w-full">{text}</span>
        </Fragment>
      ))}
    </bdi>
  );
}
