import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { ClipboardPaste, ScanQrCode } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { addressFromCode, type TCodeAddress } from './address-code';
import { cameraErrorText, scanQrCode, useCanScan } from './qr-scanner';

/** The address field's ways to fill it without typing: paste and, where there is a camera, scan. */
export type TFillAddress = (code: TCodeAddress) => void;

const NO_ADDRESS =
  'This is no address Coffer can send to. Copy or show the address itself, or type it.';

/** Reading needs the async Clipboard API: only on https (or localhost), and not everywhere. */
function canPaste(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.clipboard?.readText === 'function';
}

function pasteErrorText(err: unknown): string {
  if (err instanceof DOMException && err.name === 'NotAllowedError') {
    return 'Coffer was not allowed to read your clipboard. Allow clipboard access for this site in your browser, or paste into the field with Ctrl+V (⌘V on a Mac) or a long press.';
  }
  return 'The clipboard could not be read. Paste into the field with Ctrl+V (⌘V on a Mac) or a long press.';
}

/** Fills the address from the clipboard; a payment URI gives its address only. */
export function PasteButton({ onAddress }: { onAddress: TFillAddress }) {
  if (!canPaste()) return null;

  async function paste() {
    let text: string;
    try {
      text = await navigator.clipboard.readText();
    } catch (err) {
      console.warn('Reading the clipboard failed', err);
      toast.error('Paste failed', { description: pasteErrorText(err) });
      return;
    }
    const code = addressFromCode(text);
    if (!code) {
      toast.error('Paste failed', {
        description: text.trim() === '' ? 'Your clipboard holds no text.' : NO_ADDRESS,
      });
      return;
    }
    onAddress(code);
  }

  return (
    // On a phone the word gives way to the address; the button keeps its name.
    <Button variant="outline" className="shrink-0 px-3 sm:px-4" onClick={() => void paste()}>
      <ClipboardPaste className="h-4 w-4" aria-hidden />
      <span className="sr-only sm:not-sr-only">Paste</span>
    </Button>
  );
}

/** Opens the camera to read an address's QR code; shown only where a device can. */
export function ScanButton({ onAddress }: { onAddress: TFillAddress }) {
  const able = useCanScan();
  const [open, setOpen] = useState(false);
  if (!able) return null;
  return (
    <>
      <Button
        variant="outline"
        size="icon"
        className="shrink-0"
        aria-label="Scan a QR code"
        onClick={() => setOpen(true)}
      >
        <ScanQrCode className="h-4 w-4" aria-hidden />
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title="Scan a QR code"
          description="Hold the QR code of the address you send to in front of the camera."
        >
          <Scanner
            onAddress={(code) => {
              setOpen(false);
              onAddress(code);
            }}
            onCancel={() => setOpen(false)}
          />
        </DialogContent>
      </Dialog>
    </>
  );
}

/** The camera's picture while it looks for a code; it stops when the dialog closes. */
function Scanner({ onAddress, onCancel }: { onAddress: TFillAddress; onCancel: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  // The camera starts once; it reports to the latest handler.
  const latest = useRef(onAddress);
  latest.current = onAddress;

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    return scanQrCode(
      element,
      (text) => {
        const code = addressFromCode(text);
        // A code that is no address: say so and keep looking.
        if (!code) {
          setError(NO_ADDRESS);
          return false;
        }
        latest.current(code);
        return true;
      },
      (err) => setError(cameraErrorText(err)),
    );
  }, []);

  return (
    <div className="space-y-4">
      <video
        ref={video}
        className="aspect-square max-h-[60vh] w-full rounded-lg bg-black object-cover"
        muted
        playsInline
        aria-label="Camera picture"
      />
      {error ? (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      ) : null}
      <Button variant="outline" className="w-full" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
