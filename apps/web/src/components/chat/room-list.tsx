import type { TChatRoom } from '@coffer/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { RelativeTime } from '@web/components/ui/relative-time';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import type { ReactNode } from 'react';
import { CustomerText } from '../ui/customer-text';
import { Spinner } from '../ui/spinner';
import { RoomStatus } from './room-status';

/** One row of the conversation list. */
function RoomItem({
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
        <CustomerText text={title} truncate className="flex-1 font-medium text-fg" />
        {unreadCount > 0 ? (
          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-fg">
            {unreadCount}
            <span className="sr-only"> unread</span>
          </span>
        ) : null}
      </span>
      {subtitle ? <CustomerText text={subtitle} truncate className="text-xs text-muted" /> : null}
      <span className="flex items-center justify-between gap-2 text-xs text-muted">
        <RelativeTime iso={lastMessageAt} />
        <RoomStatus status={status} />
      </span>
    </button>
  );
}

/**
 * The list pane of the chat screen: a header bar above the conversations, or above their
 * loading, error or empty state. Each side names its rooms its own way (`titleOf`,
 * `subtitleOf`).
 */
export function RoomList<R extends TChatRoom>({
  header,
  rooms,
  selectedId,
  onSelect,
  titleOf,
  subtitleOf,
  empty,
}: {
  header: ReactNode;
  rooms: UseQueryResult<{ rooms: R[] }>;
  selectedId: string | null;
  onSelect: (roomId: string) => void;
  titleOf: (room: R) => string;
  /** A second line under the title; none when it returns null. */
  subtitleOf?: (room: R) => string | null;
  empty: ReactNode;
}) {
  const list = rooms.data?.rooms ?? [];
  return (
    <>
      <div className="flex items-center justify-between gap-2 border-b border-border p-3">
        {header}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        {rooms.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading conversations" />
          </div>
        ) : rooms.isError ? (
          <p role="alert" className="p-4 text-center text-sm text-danger">
            Error: {errorMessage(rooms.error, 'Failed to load conversations')}
          </p>
        ) : list.length === 0 ? (
          empty
        ) : (
          <ul className="flex flex-col gap-1" aria-label="Conversations">
            {list.map((room) => (
              <li key={room.id}>
                <RoomItem
                  title={titleOf(room)}
                  subtitle={subtitleOf?.(room) ?? undefined}
                  status={room.status}
                  lastMessageAt={room.lastMessageAt}
                  unreadCount={room.unreadCount}
                  selected={room.id === selectedId}
                  onSelect={() => onSelect(room.id)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
