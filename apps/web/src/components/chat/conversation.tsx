import {
  CHAT_ATTACHMENT_ACCEPT,
  CHAT_MAX_FILE_BYTES,
  type TChatMessage,
  type TChatMessagesResponse,
  type TChatRoom,
} from '@coffer/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { ArrowLeft, Download, FileText, Paperclip, Send, Trash2, X } from 'lucide-react';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { errorMessage } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { fetchFile, saveBlob } from '../../lib/upload-client';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import {
  type ChatBase,
  chatKeys,
  fileUrl,
  markRead,
  mergeMessages,
  sendMessage,
  useMessages,
} from './chat-api';

/** 'Online' when the room's status is active, else 'Offline'. */
export function RoomStatus({ status }: { status: string }) {
  const online = status === 'active';
  return (
    <Badge variant={online ? 'success' : 'secondary'} className="shrink-0">
      {online ? 'Online' : 'Offline'}
    </Badge>
  );
}

/** "5 minutes ago": relative time with a suffix. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()} className={className}>
      {formatDistanceToNow(new Date(iso), { addSuffix: true })}
    </time>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** An image attachment, fetched with the session (files are never public) and shown inline. */
function ImagePreview({ base, message }: { base: ChatBase; message: TChatMessage }) {
  const blob = useQuery({
    queryKey: chatKeys.file(base, message.id),
    queryFn: ({ signal }) => fetchFile(fileUrl(base, message.id), signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob.data) return;
    const objectUrl = URL.createObjectURL(blob.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob.data]);
  if (blob.isError) return <p className="text-xs">Image unavailable</p>;
  if (!url) return <Spinner label={`Loading ${message.file?.name ?? 'image'}`} />;
  return (
    <img
      src={url}
      alt={message.file?.name ?? 'Attached image'}
      className="max-h-60 max-w-full rounded-md object-contain"
    />
  );
}

function FileLink({ base, message }: { base: ChatBase; message: TChatMessage }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const file = message.file;
  if (!file) return null;
  async function download() {
    setBusy(true);
    setFailed(false);
    try {
      saveBlob(await fetchFile(fileUrl(base, message.id)), file?.name ?? 'file');
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      onClick={() => void download()}
      className="flex max-w-full items-center gap-2 rounded-md border border-current/20 px-2 py-1.5 text-left text-sm underline-offset-2 hover:underline"
    >
      {busy ? (
        <Spinner label="Downloading" />
      ) : (
        <FileText className="h-4 w-4 shrink-0" aria-hidden />
      )}
      <span className="min-w-0 truncate">
        Download {file.name} <span className="opacity-75">({formatSize(file.size)})</span>
      </span>
      {failed ? <span className="text-xs">(failed, try again)</span> : null}
      {!busy ? <Download className="h-4 w-4 shrink-0" aria-hidden /> : null}
    </button>
  );
}

type Pending = { id: string; text: string; fileNames: string[]; createdAt: string };

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
        <span className={cn('text-xs', mine ? 'text-primary-fg/80' : 'text-muted')}>{time}</span>
      </div>
    </li>
  );
}

type Props = {
  base: ChatBase;
  room: TChatRoom;
  /** Which side is writing: 'user' (customer) or 'admin'. */
  side: 'user' | 'admin';
  title: string;
  subtitle?: string;
  onBack: () => void;
  onDelete?: () => void;
  deleting?: boolean;
};

/** One conversation: header, messages (oldest first) and the composer. */
export function Conversation({
  base,
  room,
  side,
  title,
  subtitle,
  onBack,
  onDelete,
  deleting,
}: Props) {
  const { id: roomId, status, unreadCount } = room;
  const queryClient = useQueryClient();
  const messages = useMessages(base, roomId);
  const [pending, setPending] = useState<Pending[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<{ id: string; file: File }[]>([]);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const endRef = useRef<HTMLLIElement>(null);
  const inputId = useId();
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

  // The textarea grows with its text up to 100 px, then scrolls.
  const resize = () => {
    const el = textareaRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 100)}px`;
  };

  const canSend = text.trim() !== '' || files.length > 0;

  function send() {
    if (!canSend) return;
    const tooBig = files.map((f) => f.file).find((f) => f.size > CHAT_MAX_FILE_BYTES);
    if (tooBig) {
      setError(`Error: ${tooBig.name}: Please upload files smaller than 10MB.`);
      return;
    }
    const temp: Pending = {
      id: `temp-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      text: text.trim(),
      fileNames: files.map((f) => f.file.name),
      createdAt: new Date().toISOString(),
    };
    const sending = { text, files: files.map((f) => f.file) };
    setPending((p) => [...p, temp]);
    setError(null);
    setText('');
    setFiles([]);
    requestAnimationFrame(resize);
    sendMessage(base, roomId, sending.text, sending.files)
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
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    send();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  }

  const ids = new Set(list.map((m) => m.id));
  return (
    <section aria-label={`Conversation with ${title}`} className="flex h-full min-h-0 flex-col">
      <header className="flex items-center gap-2 border-b border-border p-3">
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          onClick={onBack}
          aria-label="Back to conversations"
        >
          <ArrowLeft className="h-5 w-5" aria-hidden />
        </Button>
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold text-fg">{title}</h2>
          {subtitle ? <p className="truncate text-xs text-muted">{subtitle}</p> : null}
        </div>
        <RoomStatus status={status} />
        {onDelete ? (
          <Button
            variant="ghost"
            size="icon"
            onClick={onDelete}
            disabled={deleting}
            aria-label="Delete conversation"
            className="text-danger"
          >
            {deleting ? <Spinner label="Deleting" /> : <Trash2 className="h-4 w-4" aria-hidden />}
          </Button>
        ) : null}
      </header>

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
          <ul className="flex flex-col gap-2" aria-live="polite" aria-label="Messages">
            {list.map((m) => (
              <Bubble
                key={m.id}
                mine={m.senderType === side}
                time={<RelativeTime iso={m.createdAt} />}
              >
                {m.messageText ? (
                  <p className="whitespace-pre-wrap break-words">{m.messageText}</p>
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
        )}
      </div>

      <form onSubmit={onSubmit} className="border-t border-border p-3">
        {error ? (
          <p role="alert" className="mb-2 text-sm text-danger">
            {error}
          </p>
        ) : null}
        {files.length > 0 ? (
          <ul className="mb-2 flex flex-wrap gap-2" aria-label="Attachments">
            {files.map(({ id, file: f }) => (
              <li
                key={id}
                className="flex items-center gap-1 rounded-full bg-surface-2 py-1 pl-3 pr-1 text-xs text-fg"
              >
                <span className="max-w-40 truncate">{f.name}</span>
                <button
                  type="button"
                  className="rounded-full p-1 hover:bg-border"
                  aria-label={`Remove ${f.name}`}
                  onClick={() => setFiles((all) => all.filter((x) => x.id !== id))}
                >
                  <X className="h-3 w-3" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex items-end gap-2">
          <input
            ref={fileInputRef}
            type="file"
            multiple
            accept={CHAT_ATTACHMENT_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-label="Attach files"
            onChange={(e) => {
              const picked = Array.from(e.target.files ?? [], (file) => ({
                id: `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`,
                file,
              }));
              setFiles((all) => [...all, ...picked]);
              e.target.value = '';
            }}
          />
          <Button
            type="button"
            variant="outline"
            size="icon"
            aria-label="Attach files"
            onClick={() => fileInputRef.current?.click()}
          >
            <Paperclip className="h-4 w-4" aria-hidden />
          </Button>
          <label htmlFor={inputId} className="sr-only">
            Message
          </label>
          <textarea
            id={inputId}
            ref={textareaRef}
            rows={1}
            value={text}
            placeholder="Type your message..."
            onChange={(e) => {
              setText(e.target.value);
              resize();
            }}
            onKeyDown={onKeyDown}
            style={{ maxHeight: 100 }}
            className="min-h-10 flex-1 resize-none rounded-md border border-border bg-surface px-3 py-2 text-sm text-fg placeholder:text-muted focus-visible:outline-2 focus-visible:outline-primary"
          />
          <Button type="submit" size="icon" disabled={!canSend} aria-label="Send message">
            <Send className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      </form>
    </section>
  );
}
