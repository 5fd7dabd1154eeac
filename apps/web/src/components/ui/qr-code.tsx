import { cn } from '@web/lib/cn';
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';
import { Spinner } from './spinner';

const SIZE = 200;

type State = { value: string; url: string | null; failed: boolean };

/**
 * A QR code drawn in the browser, 200x200. The value (a TOTP secret, a deposit address)
 * never leaves the page: no QR image service is asked for it (product.md S4).
 */
export function QrCode({
  value,
  label,
  failedText = 'The QR code could not be drawn.',
  className,
}: {
  value: string;
  label: string;
  /** Shown when drawing fails; say what to do instead. */
  failedText?: string;
  className?: string;
}) {
  const [state, setState] = useState<State>({ value, url: null, failed: false });

  useEffect(() => {
    let cancelled = false;
    toDataURL(value, { width: SIZE, margin: 1, errorCorrectionLevel: 'M' })
      .then((url) => {
        if (!cancelled) setState({ value, url, failed: false });
      })
      .catch((err: unknown) => {
        console.error('Could not draw the QR code', err);
        if (!cancelled) setState({ value, url: null, failed: true });
      });
    return () => {
      cancelled = true;
    };
  }, [value]);

  // A code drawn for an earlier value is never shown for the current one.
  const current = state.value === value ? state : { url: null, failed: false };

  return (
    <div
      className={cn(
        // Always dark on white, in both themes, so every scanner can read it.
        'flex h-[216px] w-[216px] shrink-0 items-center justify-center rounded-lg bg-white p-2',
        className,
      )}
    >
      {current.url ? (
        <img
          src={current.url}
          alt={label}
          width={SIZE}
          height={SIZE}
          className="h-[200px] w-[200px]"
        />
      ) : current.failed ? (
        <p role="alert" className="p-2 text-center text-sm text-red-700">
          {failedText}
        </p>
      ) : (
        <Spinner label="Drawing the QR code" className="h-6 w-6" />
      )}
    </div>
  );
}
