import { safeDownloadName, type TChatMessage } from '@coffer/shared';
import { useQuery } from '@tanstack/react-query';
import { fetchFile, saveBlob } from '@web/lib/upload-client';
import { Download, FileText } from 'lucide-react';
import { useEffect, useState } from 'react';
import { CustomerText } from '../ui/customer-text';
import { Spinner } from '../ui/spinner';
import { type ChatBase, chatKeys, fileUrl } from './chat-api';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** An image attachment, fetched with the session (files are never public) and shown inline. */
export function ImagePreview({ base, message }: { base: ChatBase; message: TChatMessage }) {
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

export function FileLink({ base, message }: { base: ChatBase; message: TChatMessage }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const file = message.file;
  if (!file) return null;
  // Shown and saved under the name the file is saved as: named by the type found in its
  // bytes, never by the customer's extension (a PDF called invoice.html is invoice.pdf).
  const name = safeDownloadName(file.name, file.type);
  async function download() {
    setBusy(true);
    setFailed(false);
    try {
      saveBlob(await fetchFile(fileUrl(base, message.id)), name);
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
        Download <CustomerText text={name} />{' '}
        <span className="opacity-75">({formatSize(file.size)})</span>
      </span>
      {failed ? <span className="text-xs">(failed, try again)</span> : null}
      {!busy ? <Download className="h-4 w-4 shrink-0" aria-hidden /> : null}
    </button>
  );
}
