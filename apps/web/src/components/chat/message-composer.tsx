import { CHAT_ATTACHMENT_ACCEPT } from '@coffer/shared';
import { Paperclip, Send, X } from 'lucide-react';
import { type KeyboardEvent, useId, useRef } from 'react';
import { Button } from '../ui/button';
import { Form, useZodForm } from '../ui/form';

type TComposerFields = { text: string; files: { id: string; file: File }[] };

/**
 * The composer: attachments, a textarea that grows with its text, and Send (also Enter;
 * Shift+Enter starts a new line). `onSend` answers false to keep what was typed.
 */
export function MessageComposer({
  error,
  onSend,
}: {
  error: string | null;
  onSend: (text: string, files: File[]) => boolean;
}) {
  const form = useZodForm<TComposerFields>(null, { text: '', files: [] });
  const { text, files } = form.watch();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();

  // The textarea grows with its text up to 100 px, then scrolls.
  const resize = () => {
    const el = textareaRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 100)}px`;
  };

  const canSend = text.trim() !== '' || files.length > 0;

  function send(values: TComposerFields) {
    if (values.text.trim() === '' && values.files.length === 0) return;
    if (
      !onSend(
        values.text,
        values.files.map((f) => f.file),
      )
    )
      return;
    form.reset();
    requestAnimationFrame(resize);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      // Enter sends as Send does: through the form.
      e.currentTarget.form?.requestSubmit();
    }
  }

  return (
    <Form form={form} onSubmit={send} className="border-t border-border p-3">
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
                onClick={() =>
                  form.setValue(
                    'files',
                    files.filter((x) => x.id !== id),
                  )
                }
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
            form.setValue('files', [...form.getValues('files'), ...picked]);
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
            form.setValue('text', e.target.value);
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
    </Form>
  );
}
