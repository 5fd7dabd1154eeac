import { CHAT_MAX_FILE_BYTES, type TChatMessagesResponse } from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { type ChatBase, chatKeys, mergeMessages, sendMessage } from './chat-api';

/** A message on its way to the server, shown dimmed until the saved one replaces it. */
export type Pending = { id: string; text: string; fileNames: string[]; createdAt: string };

/**
 * Sends messages to one room: the ones on their way, the last error, and `send`, which
 * answers false (and says why in `error`) when a file is too big, so the composer keeps
 * what was typed.
 */
export function useSendMessage(base: ChatBase, roomId: string) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending[]>([]);
  const [error, setError] = useState<string | null>(null);

  function send(text: string, files: File[]): boolean {
    const tooBig = files.find((f) => f.size > CHAT_MAX_FILE_BYTES);
    if (tooBig) {
      setError(`Error: ${tooBig.name}: Please upload files smaller than 10MB.`);
      return false;
    }
    const temp: Pending = {
      id: `temp-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      text: text.trim(),
      fileNames: files.map((f) => f.name),
      createdAt: new Date().toISOString(),
    };
    setPending((p) => [...p, temp]);
    setError(null);
    sendMessage(base, roomId, text, files)
      .then((saved) => {
        queryClient.setQueryData<TChatMessagesResponse>(chatKeys.messages(base, roomId), (old) => ({
          messages: mergeMessages(old?.messages ?? [], saved),
        }));
        void queryClient.invalidateQueries({ queryKey: chatKeys.rooms(base) });
      })
      .catch((err) => {
        console.error('Sending the message failed', err);
        setError(`Error: ${errorMessage(err, 'Failed to send message')}`);
      })
      .finally(() => setPending((p) => p.filter((x) => x.id !== temp.id)));
    return true;
  }

  return { pending, error, send };
}
