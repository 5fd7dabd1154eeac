import { Button } from '@web/components/ui/button';
import { Logo } from '@web/components/ui/logo';
import { cn } from '@web/lib/cn';
import { useTheme } from '@web/lib/use-theme';
import { Moon, Sun } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The id every public page gives its <main>, so the skip link has a target. */
export const MAIN_CONTENT_ID = 'main-content';

/** Page width and side padding shared by the public pages. */
export const CONTAINER = 'mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8';

export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      className="shrink-0"
      onClick={toggle}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
    >
      {/* Chosen by the theme class, not by state: right in a prerendered page's first paint. */}
      <Sun className="hidden h-4 w-4 dark:block" aria-hidden />
      <Moon className="h-4 w-4 dark:hidden" aria-hidden />
    </Button>
  );
}

/** A header navigation link that looks like a small button; `primary` for the main call to action. */
export function HeaderLink({
  to,
  children,
  primary = false,
  className,
}: {
  to: string;
  children: ReactNode;
  primary?: boolean;
  className?: string;
}) {
  return (
    <Button
      asChild
      variant={primary ? 'primary' : 'ghost'}
      size="sm"
      className={cn('px-2.5 sm:px-3', className)}
    >
      <Link to={to}>{children}</Link>
    </Button>
  );
}

/**
 * The public pages' header: a skip link, the logo (home), the page's own links and the
 * theme switch. Pass the links as children.
 */
export function SiteHeader({ children }: { children?: ReactNode }) {
  return (
    <>
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only rounded-md bg-primary px-4 py-2 font-medium text-primary-fg focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50"
      >
        Skip to main content
      </a>
      <header className="border-b border-border bg-surface/90 backdrop-blur supports-[backdrop-filter]:bg-surface/80">
        <div
          className={cn(
            CONTAINER,
            'flex flex-wrap items-center justify-between gap-x-2 gap-y-2 py-3',
          )}
        >
          <Link
            to="/"
            className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
          >
            <Logo />
          </Link>
          <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
            {children}
            <ThemeToggle />
          </nav>
        </div>
      </header>
    </>
  );
}
