import { ChatShell, EmptyPane } from '@web/components/chat/chat-shell';
import { Conversation } from '@web/components/chat/conversation';
import { RoomList } from '@web/components/chat/room-list';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { MessageSquarePlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useCreateRoom } from '../api/create-room';
import { useRooms } from '../api/get-rooms';

const DESKTOP = '(min-width: 768px)';

/** /dashboard/chat: the customer's support conversations. */
export default function ChatPage() {
  const rooms = useRooms();
  const create = useCreateRoom();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const autoCreated = useRef(false);
  const list = rooms.data?.rooms ?? [];
  const selected = list.find((r) => r.id === selectedId) ?? null;

  // A customer who has no conversation when the screen opens gets one automatically. Only
  // then: a conversation support deleted while the screen is open is not replaced.
  useEffect(() => {
    if (!rooms.isSuccess || autoCreated.current) return;
    autoCreated.current = true;
    if (list.length > 0) return;
    create.mutate(undefined, {
      onSuccess: ({ room }) => {
        if (window.matchMedia(DESKTOP).matches) setSelectedId(room.id);
      },
    });
  }, [rooms.isSuccess, list.length, create]);

  // On a wide screen the newest conversation opens by itself; on a phone the list shows first.
  useEffect(() => {
    if (selectedId === null && list[0] && window.matchMedia(DESKTOP).matches) {
      setSelectedId(list[0].id);
    }
    if (selectedId !== null && rooms.isSuccess && !list.some((r) => r.id === selectedId)) {
      setSelectedId(null);
    }
  }, [selectedId, list, rooms.isSuccess]);

  function newChat() {
    create.mutate(undefined, {
      onSuccess: ({ room }) => setSelectedId(room.id),
      onError: (err) =>
        toast.error('Error', { description: errorMessage(err, 'Failed to create chat') }),
    });
  }

  const listPane = (
    <RoomList
      header={
        <>
          <div>
            <h1 className="text-lg font-semibold text-fg">Messages</h1>
            <p className="text-xs text-muted">Start a conversation with our support team</p>
          </div>
          <Button size="sm" className="shrink-0" onClick={newChat} disabled={create.isPending}>
            {create.isPending ? (
              <Spinner label="Creating" />
            ) : (
              <MessageSquarePlus className="h-4 w-4" aria-hidden />
            )}
            New Chat
          </Button>
        </>
      }
      rooms={rooms}
      selectedId={selectedId}
      onSelect={setSelectedId}
      titleOf={() => 'Support'}
      empty={
        <EmptyPane
          title="Start a Conversation"
          text="Press New Chat to write to our support team."
        />
      }
    />
  );

  return (
    <ChatShell
      list={listPane}
      conversation={
        selected ? (
          <Conversation
            key={selected.id}
            base="/api/chat"
            room={selected}
            side="user"
            title="Support"
            onBack={() => setSelectedId(null)}
          />
        ) : null
      }
      placeholder={
        <EmptyPane
          title="Welcome to Support"
          text="Select a conversation or start a new one to chat with our team."
        />
      }
    />
  );
}
