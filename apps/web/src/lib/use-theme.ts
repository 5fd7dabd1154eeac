import { useCallback, useSyncExternalStore } from 'react';
import { applyTheme, readTheme, type Theme } from './theme';

// The theme is a class on <html> (set before first paint by /theme.js); this hook reads
// and changes it, and re-renders every user of it on change.
const listeners = new Set<() => void>();
let current: Theme = readTheme();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme() {
  const theme = useSyncExternalStore(subscribe, () => current);
  const setTheme = useCallback((next: Theme) => {
    current = next;
    applyTheme(next);
    for (const l of listeners) l();
  }, []);
  return { theme, setTheme, toggle: () => setTheme(current === 'dark' ? 'light' : 'dark') };
}
