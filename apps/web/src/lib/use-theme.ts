import { useCallback, useSyncExternalStore } from 'react';
import { applyTheme, readTheme, type Theme } from './theme';

// The theme is a class on <html> (set before first paint by /theme.js); this hook reads
// and changes it, and re-renders every user of it on change.
const listeners = new Set<() => void>();
// At build time (prerendering the public pages) there is no stored setting: light.
let current: Theme = typeof document === 'undefined' ? 'light' : readTheme();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme() {
  // A prerendered page was built in the light theme; hydration starts from that, and a stored
  // dark theme then switches the icons right after (the colours are dark from the start).
  const theme = useSyncExternalStore<Theme>(
    subscribe,
    () => current,
    () => 'light',
  );
  const setTheme = useCallback((next: Theme) => {
    current = next;
    applyTheme(next);
    for (const l of listeners) l();
  }, []);
  return { theme, setTheme, toggle: () => setTheme(current === 'dark' ? 'light' : 'dark') };
}
