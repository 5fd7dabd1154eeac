import { useCallback, useEffect, useRef, useState } from 'react';

/** Copies text to the clipboard; rejects when the browser refuses (no permission, http). */
export async function copyText(text: string): Promise<void> {
  if (!navigator.clipboard) throw new Error('The clipboard is not available');
  await navigator.clipboard.writeText(text);
}

/** How long a button reads 'Copied!' after a copy (customer.md §9, 2000 ms). */
export const COPIED_MS = 2000;

/**
 * Copies and remembers which value was copied for COPIED_MS, so a button can say so.
 * Resolves true on success and false on failure (already logged).
 */
export function useCopied() {
  const [copied, setCopied] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (id: string, text: string): Promise<boolean> => {
    try {
      await copyText(text);
    } catch (err) {
      console.error('Copying to the clipboard failed', err);
      return false;
    }
    clearTimeout(timer.current);
    setCopied(id);
    timer.current = setTimeout(() => setCopied(null), COPIED_MS);
    return true;
  }, []);

  return { copied, copy };
}
