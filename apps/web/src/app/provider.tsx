import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { queryClient } from '../lib/query-client';
import { useTheme } from '../lib/use-theme';

/**
 * Toasts open below the portal's top bar (64 px high, sticky), never over the e-mail and
 * Logout in it: 16 px below it on a wide screen, 8 px on a phone.
 */
const BELOW_TOP_BAR = { top: 80, right: 24 };
const BELOW_TOP_BAR_MOBILE = { top: 72, right: 16, left: 16 };

// Not needed for a page's first paint: loaded beside it. A toast raised before it is there
// still shows, once it is.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

function ThemedToaster() {
  const { theme } = useTheme();
  return (
    <Suspense fallback={null}>
      <Toaster
        theme={theme}
        position="top-right"
        offset={BELOW_TOP_BAR}
        mobileOffset={BELOW_TOP_BAR_MOBILE}
        closeButton
      />
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
