import { Logo } from '@web/components/ui/logo';
import { cn } from '@web/lib/cn';
import { Link } from 'react-router';
import { usePublicInfo } from '../api/get-public-info';
import { CONTAINER } from './site-header';

/** The support link is an operator setting; only a plain web address becomes a link. */
function safeExternalUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const FOOTER_LINK =
  'rounded-sm text-muted underline-offset-4 hover:text-fg hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary';

export function SiteFooter() {
  const info = usePublicInfo();
  const supportUrl = safeExternalUrl(info.data?.supportChatUrl);
  const year = new Date().getFullYear();

  return (
    <footer className="border-t border-border bg-surface">
      <div className={cn(CONTAINER, 'grid gap-8 py-10 md:grid-cols-[1fr_auto]')}>
        <div className="max-w-xl space-y-3">
          <Logo />
          <p className="text-sm text-muted">
            A custodial wallet for Bitcoin, Ethereum and Tether: Coffer holds the assets in your
            account on your behalf.
          </p>
          <p className="text-sm text-muted">
            Crypto-asset prices can move sharply and you can lose money. Staking rewards are
            variable and not guaranteed.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid gap-2 text-sm">
            <li>
              <Link to="/about" className={FOOTER_LINK}>
                About Us
              </Link>
            </li>
            <li>
              <Link to="/auth" className={FOOTER_LINK}>
                Login
              </Link>
            </li>
            <li>
              <Link to="/auth?mode=signup" className={FOOTER_LINK}>
                Register
              </Link>
            </li>
            {supportUrl ? (
              <li>
                <a
                  href={supportUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={FOOTER_LINK}
                >
                  Contact support<span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
      <div className="border-t border-border">
        {/* The page is prerendered with the build's year; a later year is simply filled in. */}
        <p className={cn(CONTAINER, 'py-4 text-sm text-muted')} suppressHydrationWarning>
          © {year} Coffer
        </p>
      </div>
    </footer>
  );
}
