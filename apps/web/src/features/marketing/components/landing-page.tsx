import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/cn';
import {
  ArrowRight,
  CircleDollarSign,
  Coins,
  KeyRound,
  Pause,
  Play,
  ShieldCheck,
  Smile,
  Zap,
} from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { usePublicInfo } from '../api/get-public-info';
import { FeatureCard } from './feature-card';
import { SiteFooter } from './site-footer';
import { CONTAINER, HeaderLink, MAIN_CONTENT_ID, SiteHeader } from './site-header';
import { StakingRateText } from './staking-rate';

function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * The promo clip: muted and looping, started automatically unless the visitor asks for
 * reduced motion. The whole clip is one button that pauses and resumes it, so it works by
 * keyboard too. If the file can't be played the section disappears.
 */
function PromoVideo() {
  const headingId = useId();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [autoPlay] = useState(() => !prefersReducedMotion());

  if (failed) return null;

  function toggle() {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused) {
      // Playback can be refused (a browser autoplay policy); the clip then simply stays paused.
      video.play().catch(() => setPlaying(false));
    } else {
      video.pause();
    }
  }

  return (
    <section aria-labelledby={headingId} className={cn(CONTAINER, 'py-12')}>
      <h2 id={headingId} className="sr-only">
        Coffer in action
      </h2>
      <button
        type="button"
        onClick={toggle}
        aria-label={playing ? 'Pause the promo video' : 'Play the promo video'}
        className="group relative mx-auto block w-full max-w-4xl overflow-hidden rounded-2xl border border-border bg-surface-2 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-primary"
      >
        <video
          ref={videoRef}
          src="/media/promo.mp4"
          className="block aspect-video w-full object-cover"
          muted
          loop
          playsInline
          autoPlay={autoPlay}
          preload="metadata"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onError={() => setFailed(true)}
        />
        <span
          aria-hidden
          className={cn(
            'absolute bottom-4 right-4 inline-flex h-11 w-11 items-center justify-center rounded-full bg-black/70 text-white transition-opacity',
            playing && 'opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100',
          )}
        >
          {playing ? <Pause className="h-5 w-5" /> : <Play className="h-5 w-5" />}
        </span>
      </button>
    </section>
  );
}

function AtAGlance() {
  return (
    <div className="rounded-2xl border border-border bg-surface p-6 shadow-sm">
      <p className="text-sm font-semibold text-fg">At a glance</p>
      <ul className="mt-4 space-y-4 text-sm">
        <li className="flex gap-3">
          <CircleDollarSign className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden />
          <span className="text-muted">
            <span className="font-medium text-fg">Bitcoin, Ethereum and Tether</span> (USDT on
            ERC-20 and TRC-20), with your portfolio valued in US dollars.
          </span>
        </li>
        <li className="flex gap-3">
          <Coins className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden />
          <span className="text-muted">
            <span className="font-medium text-fg">ETH staking rewards:</span> <StakingRateText />.
          </span>
        </li>
        <li className="flex gap-3">
          <KeyRound className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden />
          <span className="text-muted">
            <span className="font-medium text-fg">Two-factor authentication</span> on every account
            and a 12-word recovery phrase that only you can view.
          </span>
        </li>
      </ul>
    </div>
  );
}

export default function LandingPage() {
  const info = usePublicInfo();
  const featuresHeadingId = useId();

  return (
    <div className="flex min-h-dvh flex-col bg-bg text-fg">
      <title>Coffer: next-generation crypto management</title>
      <SiteHeader>
        <HeaderLink to="/about">About Us</HeaderLink>
        <HeaderLink to="/auth">Login</HeaderLink>
        <HeaderLink to="/auth?mode=signup" primary>
          Register
        </HeaderLink>
      </SiteHeader>

      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <section className="border-b border-border bg-gradient-to-b from-surface to-bg">
          <div
            className={cn(
              CONTAINER,
              'grid items-center gap-10 py-14 sm:py-20 lg:grid-cols-[1.2fr_1fr]',
            )}
          >
            <div>
              <p className="text-sm font-semibold uppercase tracking-wide text-primary">
                Custodial crypto wallet
              </p>
              <h1 className="mt-3 text-4xl font-bold tracking-tight text-fg sm:text-5xl">
                Next-generation crypto management
              </h1>
              <p className="mt-5 max-w-xl text-lg leading-relaxed text-muted">
                Keep Bitcoin, Ethereum and Tether in one wallet, see what it is worth in US dollars,
                and earn staking rewards on your ETH, with two-factor authentication protecting
                every sign-in.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Button asChild size="lg">
                  <Link to="/auth?mode=signup">
                    Create your account
                    <ArrowRight className="h-4 w-4" aria-hidden />
                  </Link>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <Link to="/about">Learn how it works</Link>
                </Button>
              </div>
            </div>
            <AtAGlance />
          </div>
        </section>

        {info.data?.promoVideo ? <PromoVideo /> : null}

        <section aria-labelledby={featuresHeadingId} className={cn(CONTAINER, 'py-14 sm:py-20')}>
          <div className="max-w-2xl">
            <h2 id={featuresHeadingId} className="text-3xl font-bold tracking-tight text-fg">
              Why Coffer
            </h2>
            <p className="mt-3 text-muted">Built around the basics a custodian has to get right.</p>
          </div>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            <FeatureCard icon={ShieldCheck} title="Advanced security">
              Two-factor authentication is mandatory for every account. You get a 12-word recovery
              phrase that only you can view, and sensitive data such as that phrase is encrypted at
              rest.
            </FeatureCard>
            <FeatureCard icon={Zap} title="Lightning fast">
              A lightweight app that opens quickly on phone or desktop. Copy a deposit address in
              one tap; your balance updates once the network confirms the deposit.
            </FeatureCard>
            <FeatureCard icon={Smile} title="User friendly">
              One clear dashboard for your balances, history and ETH staking, light and dark themes,
              and a support chat with our team when you need a hand.
            </FeatureCard>
          </div>
        </section>
      </main>

      <SiteFooter />
    </div>
  );
}
