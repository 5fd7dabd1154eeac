import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { queryClient } from '../lib/query-client';
import { useTheme } from '../lib/use-theme';

// Not needed for a page's first paint: loaded beside it. A toast raised before it is there
// still shows, once it is.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

function ThemedToaster() {
  const { theme } = useTheme();
  return (
    <Suspense fallback={null}>
      <Toaster theme={theme} position="top-right" closeButton />
    </Suspense>
  );
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ThemedToaster />
    </QueryClientProvider>
  );
}
