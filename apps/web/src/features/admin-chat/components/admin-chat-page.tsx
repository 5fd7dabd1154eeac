import { CHAT_MSG, type TAdminChatRoom, type TStepUp } from '@coffer/shared';
import {
  type PickedUser,
  UserPicker,
  userDisplayName,
  userEmailBesideName,
} from '@web/components/admin/user-picker';
import { ChatShell, EmptyPane } from '@web/components/chat/chat-shell';
import { Conversation } from '@web/components/chat/conversation';
import { RoomList } from '@web/components/chat/room-list';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { submitOf, useZodForm } from '@web/components/ui/form';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { Archive, MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useCloseRoom } from '../api/close-room';
import { useAdminRooms } from '../api/get-rooms';
import { useStartChat } from '../api/start-chat';

const nameOf = (room: TAdminChatRoom) => userDisplayName(room.customer);

function StartChatDialog({ onStarted }: { onStarted: (roomId: string) => void }) {
  const [open, setOpen] = useState(false);
  const form = useZodForm<{ user: PickedUser | null }>(null, { user: null });
  const user = form.watch('user');
  const start = useStartChat();

  // The Start Chat button sends the form; Enter in the customer search only picks a customer.
  const submit = submitOf(form, ({ user: picked }) => {
    if (!picked) return;
    start.mutate(picked.id, {
      onSuccess: ({ room }) => {
        setOpen(false);
        form.reset();
        onStarted(room.id);
      },
    });
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) start.reset();
      }}
    >
      <Button size="sm" className="shrink-0" onClick={() => setOpen(true)}>
        <MessageSquarePlus className="h-4 w-4" aria-hidden />
        Start New Chat
      </Button>
      <DialogContent title="Start New Chat" description="Choose the customer to write to.">
        <div className="flex flex-col gap-4">
          <UserPicker
            value={user}
            onChange={(picked) => form.setValue('user', picked)}
            label="Customer"
          />
          {start.isError ? (
            <p role="alert" className="text-sm text-danger">
              Error: {errorMessage(start.error, 'Failed to start chat')}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} disabled={!user || start.isPending}>
              {start.isPending ? <Spinner label="Starting" /> : null}
              Start Chat
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Close conversation: staff close a conversation, never delete it (its messages and files
 * stay, the customer still reads them and writing opens it again). A staff write, so the
 * admin's fresh second factor (step-up) confirms it.
 */
function CloseConversation({ room }: { room: TAdminChatRoom }) {
  const close = useCloseRoom();
  const [asking, setAsking] = useState(false);
  async function confirm(stepUp: TStepUp) {
    await close.mutateAsync({ roomId: room.id, stepUp });
    setAsking(false);
    toast.success(CHAT_MSG.closed, { description: `Conversation with ${nameOf(room)}.` });
  }
  function failed(err: unknown) {
    setAsking(false);
    toast.error('Error', { description: errorMessage(err, CHAT_MSG.closeFailed) });
  }
  if (room.status === 'closed') return null;
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="shrink-0"
        onClick={() => setAsking(true)}
        disabled={close.isPending}
      >
        <Archive className="h-4 w-4" aria-hidden />
        Close conversation
      </Button>
      <StepUpDialog
        open={asking}
        title="Close this conversation"
        description={CHAT_MSG.closeConfirm}
        confirmLabel="Confirm and close"
        pendingLabel="Closing..."
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
    </>
  );
}

/** /dashboard/admin/chat: every customer's support conversation. */
export default function AdminChatPage() {
  const rooms = useAdminRooms();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = rooms.data?.rooms ?? [];
  const selected = list.find((r) => r.id === selectedId) ?? null;

  const listPane = (
    <RoomList
      header={
        <>
          <h1 className="text-base font-semibold text-fg">Support Conversations</h1>
          <StartChatDialog onStarted={setSelectedId} />
        </>
      }
      rooms={rooms}
      selectedId={selectedId}
      onSelect={setSelectedId}
      titleOf={nameOf}
      subtitleOf={(room) => userEmailBesideName(room.customer)}
      empty={
        <EmptyPane
          title="No Support Conversations"
          text="Conversations appear here when a customer writes, or when you start one."
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
            base="/api/admin/chat"
            room={selected}
            side="admin"
            title={nameOf(selected)}
            subtitle={userEmailBesideName(selected.customer) ?? undefined}
            onBack={() => setSelectedId(null)}
            actions={<CloseConversation room={selected} />}
          />
        ) : null
      }
      placeholder={
        <EmptyPane
          title="Select a Conversation"
          text="Choose a conversation from the list to read and reply."
        />
      }
    />
  );
}
