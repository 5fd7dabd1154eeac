import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/cn';
import { FileText, Upload, X } from 'lucide-react';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';

const ACCEPT = 'image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf';

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** An image preview of a chosen file, released when the file changes. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file?.type.startsWith('image/')) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/**
 * A document picker: choose a file or drop it on the area. The file is
 * checked when the form is submitted, in the form's order.
 */
export function DocumentDrop({
  label,
  hint,
  file,
  onChange,
  disabled,
}: {
  label: string;
  hint: string;
  file: File | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const preview = useObjectUrl(file);

  function onDrop(event: DragEvent<HTMLFieldSetElement>) {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const dropped = event.dataTransfer.files[0];
    if (dropped) onChange(dropped);
  }

  return (
    // The drop area is a convenience; the file input inside it is the accessible way in.
    <fieldset
      className="min-w-0 space-y-2"
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <legend className="mb-2 text-sm font-medium text-fg">{label}</legend>
      <div
        className={cn(
          'flex flex-col items-center gap-3 rounded-lg border-2 border-dashed border-border bg-surface-2/40 p-4 text-center transition-colors sm:flex-row sm:text-left',
          over && 'border-primary bg-primary/5',
        )}
      >
        {preview ? (
          <img
            src={preview}
            alt={`Preview of ${file?.name ?? 'the chosen file'}`}
            className="h-16 w-24 shrink-0 rounded border border-border object-cover"
          />
        ) : file ? (
          <FileText className="h-8 w-8 shrink-0 text-muted" aria-hidden />
        ) : (
          <Upload className="h-8 w-8 shrink-0 text-muted" aria-hidden />
        )}
        <div className="min-w-0 flex-1 text-sm">
          {file ? (
            <>
              <p className="truncate font-medium text-fg" title={file.name}>
                {file.name}
              </p>
              <p className="text-muted">{sizeText(file.size)}</p>
            </>
          ) : (
            <>
              <p className="text-fg">Drag and drop your file here, or choose one.</p>
              <p className="text-muted">{hint}</p>
            </>
          )}
        </div>
        <div className="flex shrink-0 gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => input.current?.click()}
            disabled={disabled}
            aria-label={`${file ? 'Change' : 'Choose'} file: ${label}`}
          >
            {file ? 'Change' : 'Choose file'}
          </Button>
          {file ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                onChange(null);
                if (input.current) input.current.value = '';
              }}
              disabled={disabled}
              aria-label={`Remove ${file.name}`}
            >
              <X className="h-4 w-4" aria-hidden />
            </Button>
          ) : null}
        </div>
        <input
          ref={input}
          id={id}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          tabIndex={-1}
          disabled={disabled}
          aria-label={label}
          onChange={(e) => onChange(e.target.files?.[0] ?? null)}
        />
      </div>
    </fieldset>
  );
}
