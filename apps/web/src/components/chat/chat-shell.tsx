import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Card } from '../ui/card';
import { RelativeTime, RoomStatus } from './conversation';

/**
 * The chat screen: conversation list on the left, the open conversation on the right. Below
 * 768 px one shows at a time: the list, or the conversation with a back button.
 */
export function ChatShell({
  list,
  conversation,
  showingConversation,
}: {
  list: ReactNode;
  conversation: ReactNode;
  showingConversation: boolean;
}) {
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
        {conversation}
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

/** One row of the conversation list. */
export function RoomItem({
  title,
  subtitle,
  status,
  lastMessageAt,
  unreadCount,
  selected,
  onSelect,
}: {
  title: string;
  subtitle?: string;
  status: string;
  lastMessageAt: string;
  unreadCount: number;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      className={cn(
        'flex w-full flex-col gap-1 rounded-lg px-3 py-2 text-left transition-colors',
        'focus-visible:outline-2 focus-visible:outline-primary',
        selected ? 'bg-surface-2' : 'hover:bg-surface-2',
      )}
    >
      <span className="flex w-full items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium text-fg">{title}</span>
        {unreadCount > 0 ? (
          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-fg">
            {unreadCount}
            <span className="sr-only"> unread</span>
          </span>
        ) : null}
      </span>
      {subtitle ? <span className="truncate text-xs text-muted">{subtitle}</span> : null}
      <span className="flex items-center justify-between gap-2 text-xs text-muted">
        <RelativeTime iso={lastMessageAt} />
        <RoomStatus status={status} />
      </span>
    </button>
  );
}
