import type { TChatMessage } from '@coffer/shared';
import { RelativeTime } from '@web/components/ui/relative-time';
import { cn } from '@web/lib/cn';
import { Paperclip } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import { CustomerText } from '../ui/customer-text';
import type { ChatBase } from './chat-api';
import { FileLink, ImagePreview } from './message-attachment';
import type { Pending } from './use-send-message';

function Bubble({
  mine,
  children,
  time,
  pending,
}: {
  mine: boolean;
  children: ReactNode;
  time: ReactNode;
  pending?: boolean;
}) {
  return (
    <li className={cn('flex', mine ? 'justify-end' : 'justify-start')}>
      <div
        className={cn(
          'flex max-w-[85%] flex-col gap-1 rounded-2xl px-3 py-2 text-sm sm:max-w-[70%]',
          mine ? 'bg-primary text-primary-fg' : 'bg-surface-2 text-fg',
          pending && 'opacity-70',
        )}
      >
        {children}
        <span className={cn('text-xs', mine ? 'text-primary-fg' : 'text-muted')}>{time}</span>
      </div>
    </li>
  );
}

/**
 * The room's messages, oldest first, then the ones still being sent. `endRef` marks the
 * bottom, which the conversation scrolls to when a message arrives.
 */
export function MessageList({
  base,
  side,
  list,
  pending,
  endRef,
}: {
  base: ChatBase;
  side: 'user' | 'admin';
  list: TChatMessage[];
  pending: Pending[];
  endRef: RefObject<HTMLLIElement | null>;
}) {
  const ids = new Set(list.map((m) => m.id));
  return (
    <ul className="flex flex-col gap-2" aria-live="polite" aria-label="Messages">
      {list.map((m) => (
        <Bubble key={m.id} mine={m.senderType === side} time={<RelativeTime iso={m.createdAt} />}>
          {m.messageText ? (
            <p>
              <CustomerText text={m.messageText} multiline />
            </p>
          ) : null}
          {m.file ? (
            m.file.type.startsWith('image/') ? (
              <ImagePreview base={base} message={m} />
            ) : (
              <FileLink base={base} message={m} />
            )
          ) : null}
        </Bubble>
      ))}
      {pending
        .filter((p) => !ids.has(p.id))
        .map((p) => (
          <Bubble key={p.id} mine pending time="Sending...">
            {p.text ? <p className="whitespace-pre-wrap break-words">{p.text}</p> : null}
            {p.fileNames.map((name) => (
              <p key={name} className="flex items-center gap-1 text-xs">
                <Paperclip className="h-3 w-3" aria-hidden /> {name}
              </p>
            ))}
          </Bubble>
        ))}
      <li ref={endRef} aria-hidden className="h-0" />
    </ul>
  );
}
