import { cn } from '@web/lib/cn';
import type { ReactNode } from 'react';
import { Card } from '../ui/card';

/**
 * The chat screen: conversation list on the left, the open conversation (or, with none open,
 * the placeholder) on the right. Below 768 px one shows at a time: the list, or the open
 * conversation with its back button.
 */
export function ChatShell({
  list,
  conversation,
  placeholder,
}: {
  list: ReactNode;
  /** The open conversation; null when none is open. */
  conversation: ReactNode | null;
  placeholder: ReactNode;
}) {
  const showingConversation = conversation !== null;
  return (
    <div className="grid h-[calc(100dvh-12rem)] min-h-[26rem] lg:h-[calc(100dvh-8rem)] gap-4 md:grid-cols-[18rem_1fr] lg:grid-cols-[20rem_1fr]">
      <Card
        className={cn(
          'min-h-0 flex-col overflow-hidden',
          showingConversation ? 'hidden md:flex' : 'flex',
        )}
      >
        {list}
      </Card>
      <Card
        className={cn(
          'min-h-0 flex-col overflow-hidden',
          showingConversation ? 'flex' : 'hidden md:flex',
        )}
      >
        {showingConversation ? conversation : placeholder}
      </Card>
    </div>
  );
}

/** A centred note in an empty pane. */
export function EmptyPane({
  title,
  text,
  children,
}: {
  title: string;
  text: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center">
      <p className="font-semibold text-fg">{title}</p>
      <p className="text-sm text-muted">{text}</p>
      {children}
    </div>
  );
}
