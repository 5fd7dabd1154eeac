import { CHAT_MSG, type TChatRoom } from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@web/lib/api-client';
import { type ReactNode, useEffect, useRef } from 'react';
import { Spinner } from '../ui/spinner';
import { type ChatBase, chatKeys, markRead, useMessages } from './chat-api';
import { ConversationHeader } from './conversation-header';
import { MessageComposer } from './message-composer';
import { MessageList } from './message-list';
import { useSendMessage } from './use-send-message';

type Props = {
  base: ChatBase;
  room: TChatRoom;
  /** Which side is writing: 'user' (customer) or 'admin'. */
  side: 'user' | 'admin';
  title: string;
  subtitle?: string;
  onBack: () => void;
  /** Buttons of this side in the title bar (staff: Close conversation). */
  actions?: ReactNode;
};

/** One conversation: header, messages (oldest first) and the composer. */
export function Conversation({ base, room, side, title, subtitle, onBack, actions }: Props) {
  const { id: roomId, status, unreadCount } = room;
  const queryClient = useQueryClient();
  const messages = useMessages(base, roomId);
  const { pending, error, send } = useSendMessage(base, roomId);
  const endRef = useRef<HTMLLIElement>(null);
  const list = messages.data?.messages ?? [];

  // Opening the room, and any new message from the other party while it is open, marks
  // the other party's messages read (which clears this room's unread count).
  const otherUnread = list.some((m) => !m.isRead && m.senderType !== side) || unreadCount > 0;
  useEffect(() => {
    if (!otherUnread || !messages.isSuccess) return;
    markRead(base, roomId)
      .then(() => queryClient.invalidateQueries({ queryKey: chatKeys.rooms(base) }))
      .catch((err) => console.error('Marking messages read failed', err));
  }, [otherUnread, messages.isSuccess, base, roomId, queryClient]);

  const count = list.length + pending.length;
  useEffect(() => {
    if (count > 0) endRef.current?.scrollIntoView({ block: 'end' });
  }, [count]);

  return (
    <section aria-label={`Conversation with ${title}`} className="flex h-full min-h-0 flex-col">
      <ConversationHeader
        title={title}
        subtitle={subtitle}
        status={status}
        onBack={onBack}
        actions={actions}
      />

      <div className="min-h-0 flex-1 overflow-y-auto p-3">
        {messages.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading messages" />
          </div>
        ) : messages.isError ? (
          <p role="alert" className="py-10 text-center text-sm text-danger">
            Error: {errorMessage(messages.error, 'Failed to load messages')}
          </p>
        ) : count === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-1 py-10 text-center">
            <p className="font-semibold text-fg">Start a Conversation</p>
            <p className="text-sm text-muted">
              {side === 'user'
                ? 'Send a message to begin chatting with our support team.'
                : 'Send a message to begin chatting with this customer.'}
            </p>
          </div>
        ) : (
          <MessageList base={base} side={side} list={list} pending={pending} endRef={endRef} />
        )}
      </div>

      {status === 'closed' ? (
        // Closed by staff, never deleted: the history stays, and writing opens it again.
        <p className="border-t border-border px-3 pt-2 text-xs text-muted">
          {side === 'user' ? CHAT_MSG.closedNoticeCustomer : CHAT_MSG.closedNoticeAdmin}
        </p>
      ) : null}
      <MessageComposer error={error} onSend={send} />
    </section>
  );
}
