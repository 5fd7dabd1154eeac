import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/cn';
import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { PortalMenu } from './portal-menu';

const DESKTOP_QUERY = '(min-width: 1024px)';

/**
 * Below 1024 px: a button in the top bar that opens the menu as a panel sliding in from the
 * right. It sits in the bar rather than floating over the page, so it never covers what the
 * page says.
 */
export function MobileMenu({ email }: { email: string }) {
  const [open, setOpen] = useState(false);

  // Widening the window to the sidebar layout closes the panel (it would be hidden anyway).
  useEffect(() => {
    const query = window.matchMedia(DESKTOP_QUERY);
    const onChange = (event: MediaQueryListEvent) => {
      if (event.matches) setOpen(false);
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger asChild>
        <Button variant="outline" size="sm" aria-label="Open menu" className="shrink-0 lg:hidden">
          <Menu className="h-4 w-4" aria-hidden />
        </Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50 lg:hidden" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className={cn(
            'fixed inset-y-0 right-0 z-50 flex w-72 max-w-[85vw] flex-col border-l border-border bg-surface text-fg shadow-xl lg:hidden',
            'transition-transform duration-200 starting:translate-x-full motion-reduce:transition-none',
          )}
        >
          <div className="flex h-16 items-center justify-between border-b border-border px-4">
            <div className="min-w-0">
              <DialogPrimitive.Title className="text-base font-semibold">
                Menu
              </DialogPrimitive.Title>
              <p className="truncate text-xs text-muted" title={email}>
                {email}
              </p>
            </div>
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close menu">
                <X className="h-5 w-5" aria-hidden />
              </Button>
            </DialogPrimitive.Close>
          </div>
          <PortalMenu onNavigate={() => setOpen(false)} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
