import { useEffect, useState } from 'react';

/**
 * The browser's QR reader (the Shape Detection API's BarcodeDetector). Chromium on Android
 * and macOS and Safari have it; desktop Firefox and most headless browsers do not, and
 * then Coffer offers no scan at all.
 */
type TBarcodeDetector = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
type TBarcodeDetectorClass = {
  new (options: { formats: string[] }): TBarcodeDetector;
  getSupportedFormats(): Promise<string[]>;
};

function detectorClass(): TBarcodeDetectorClass | undefined {
  return (globalThis as { BarcodeDetector?: TBarcodeDetectorClass }).BarcodeDetector;
}

/** Whether this device can scan a QR code: a reader that knows QR codes, and a camera. */
async function canScan(): Promise<boolean> {
  const Detector = detectorClass();
  if (!Detector || !navigator.mediaDevices?.enumerateDevices) return false;
  try {
    const [formats, devices] = await Promise.all([
      Detector.getSupportedFormats(),
      navigator.mediaDevices.enumerateDevices(),
    ]);
    return formats.includes('qr_code') && devices.some((d) => d.kind === 'videoinput');
  } catch (err) {
    console.error('Could not tell whether a QR code can be scanned', err);
    return false;
  }
}

/** False until the device is known to scan; the scan button shows only then. */
export function useCanScan(): boolean {
  const [able, setAble] = useState(false);
  useEffect(() => {
    let live = true;
    void canScan().then((yes) => {
      if (live) setAble(yes);
    });
    return () => {
      live = false;
    };
  }, []);
  return able;
}

/** Why the camera could not be used, in the customer's words. */
export function cameraErrorText(err: unknown): string {
  const name = err instanceof DOMException ? err.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'Camera access was refused. Allow the camera for this site in your browser settings, or paste the address instead.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return 'No camera was found on this device. Paste or type the address instead.';
  }
  if (name === 'NotReadableError') {
    return 'The camera is in use by another app. Close it and try again.';
  }
  return 'The camera could not be started. Paste or type the address instead.';
}

/** How often a frame is read while the camera looks for a code. */
const SCAN_EVERY_MS = 250;

/**
 * Starts the back camera in `video` and reads frames until one holds a QR code that
 * `onCode` takes (returns true for), then stops the camera. The returned function stops it
 * all early.
 */
export function scanQrCode(
  video: HTMLVideoElement,
  onCode: (text: string) => boolean,
  onError: (err: unknown) => void,
): () => void {
  const Detector = detectorClass();
  let stream: MediaStream | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    for (const track of stream?.getTracks() ?? []) track.stop();
    video.srcObject = null;
  };
  if (!Detector) {
    onError(new DOMException('No QR reader', 'NotSupportedError'));
    return stop;
  }
  const detector = new Detector({ formats: ['qr_code'] });

  const look = async () => {
    if (stopped) return;
    try {
      const found = video.readyState >= 2 ? await detector.detect(video) : [];
      const text = found.find((code) => code.rawValue !== '')?.rawValue;
      if (text !== undefined && !stopped && onCode(text)) {
        stop();
        return;
      }
    } catch (err) {
      // One unreadable frame (the camera still adjusting) is no reason to give up.
      console.warn('A camera frame could not be read', err);
    }
    if (!stopped) timer = setTimeout(() => void look(), SCAN_EVERY_MS);
  };

  navigator.mediaDevices
    .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
    .then(async (media) => {
      stream = media;
      if (stopped) return stop();
      video.srcObject = media;
      await video.play();
      void look();
    })
    .catch((err: unknown) => {
      // Closed meanwhile: the failure (an interrupted play) is no news to anyone.
      if (stopped) return;
      stop();
      onError(err);
    });
  return stop;
}
