import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React takes over a prerendered page (and in the prerendering itself), true
 * from then on and in every page rendered in the browser. A prerendered form takes input
 * only from then on: React would drop what was typed before, and the browser would send
 * the form itself, fields in the address.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
