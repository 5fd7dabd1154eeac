import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';

/** What a copy says in a toast: the title and description on success, the failure's description. */
export type TCopyToast = { title: string; description?: string; failure: string };

/** The plain 'Copied to clipboard' toast; `description` names what was copied. */
export function copiedToast(description?: string): TCopyToast {
  return {
    title: 'Copied to clipboard',
    ...(description ? { description } : {}),
    failure: 'Failed to copy to clipboard.',
  };
}

/** The toast of a copied deposit address (the deposit page and an asset's page). */
export const ADDRESS_COPIED_TOAST: TCopyToast = {
  title: 'Address copied!',
  description: 'Address copied to clipboard.',
  failure: 'Failed to copy address. Please try again.',
};

/**
 * Copies text to the clipboard and resolves whether it worked; a refusal (no permission,
 * plain http) is logged and, with `says`, shown as a 'Copy failed' toast.
 */
export async function copyText(text: string, says?: TCopyToast): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('The clipboard is not available');
    await navigator.clipboard.writeText(text);
  } catch (err) {
    console.error('Copying to the clipboard failed', err);
    if (says) toast.error('Copy failed', { description: says.failure });
    return false;
  }
  if (says) toast.success(says.title, says.description ? { description: says.description } : {});
  return true;
}

/** How long a button reads 'Copied!' after a copy. */
export const COPIED_MS = 2000;

/**
 * Copies and remembers which value was copied for COPIED_MS, so a button can say so.
 * Resolves true on success and false on failure (already logged, and toasted with `says`).
 */
export function useCopied(says?: TCopyToast) {
  const [copied, setCopied] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(
    async (id: string, text: string): Promise<boolean> => {
      if (!(await copyText(text, says))) return false;
      clearTimeout(timer.current);
      setCopied(id);
      timer.current = setTimeout(() => setCopied(null), COPIED_MS);
      return true;
    },
    [says],
  );

  return { copied, copy };
}
