import { cn } from '@web/lib/cn';
import {
  ArrowLeft,
  Clock,
  KeyRound,
  Lock,
  MessagesSquare,
  ReceiptText,
  RefreshCw,
  ShieldCheck,
  Unlock,
  Wallet,
} from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { CallToAction } from './call-to-action';
import { FeatureCard } from './feature-card';
import { LiveStats } from './live-stats';
import { SiteFooter } from './site-footer';
import { CONTAINER, HeaderLink, MAIN_CONTENT_ID, SiteHeader } from './site-header';
import { StakingRateHighlight, StakingRateText } from './staking-rate';

function StakingPoint({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <li className="flex gap-4">
      <span className="mt-0.5 inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
        {icon}
      </span>
      <div>
        <h3 className="font-semibold text-fg">{title}</h3>
        <p className="mt-1 text-sm leading-relaxed text-muted">{children}</p>
      </div>
    </li>
  );
}

export default function AboutPage() {
  const stakingHeadingId = useId();
  const featuresHeadingId = useId();

  return (
    <div className="flex min-h-dvh flex-col bg-bg text-fg">
      <title>About Us · Coffer</title>
      <SiteHeader>
        <HeaderLink to="/">
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back to Home
        </HeaderLink>
      </SiteHeader>

      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <section className="border-b border-border bg-gradient-to-b from-surface to-bg">
          <div className={cn(CONTAINER, 'py-14 sm:py-20')}>
            <p className="text-sm font-semibold uppercase tracking-wide text-primary">About Us</p>
            <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-fg sm:text-5xl">
              A crypto wallet run the way a careful custodian should run it
            </h1>
            <p className="mt-5 max-w-2xl text-lg leading-relaxed text-muted">
              Coffer holds Bitcoin, Ethereum and Tether for its customers. Every balance you see is
              backed by the transactions in your history, and every figure on this site comes from
              the system itself.
            </p>
          </div>
        </section>

        <section aria-labelledby={stakingHeadingId} className={cn(CONTAINER, 'py-14 sm:py-20')}>
          <div className="grid gap-10 lg:grid-cols-[1fr_22rem] lg:items-start">
            <div>
              <p className="text-sm font-semibold uppercase tracking-wide text-primary">
                ETH staking
              </p>
              <h2 id={stakingHeadingId} className="mt-2 text-3xl font-bold tracking-tight text-fg">
                Advanced Ethereum Staking
              </h2>
              <p className="mt-3 max-w-2xl text-muted">
                ETH you hold with Coffer earns staking rewards on its own. Current rate:{' '}
                <StakingRateText className="font-medium text-fg" />.
              </p>
              <ul className="mt-8 grid gap-6 sm:grid-cols-2">
                <StakingPoint
                  icon={<RefreshCw className="h-5 w-5" aria-hidden />}
                  title="Automatic staking"
                >
                  Nothing to switch on and nothing to lock up. Any ETH in your wallet takes part
                  from the moment it is there.
                </StakingPoint>
                <StakingPoint
                  icon={<Clock className="h-5 w-5" aria-hidden />}
                  title="Accrues continuously"
                >
                  Rewards build up every second on the ETH you actually hold, and are credited to
                  your ETH balance at the end of each 24-hour cycle.
                </StakingPoint>
                <StakingPoint
                  icon={<ReceiptText className="h-5 w-5" aria-hidden />}
                  title="Credited, not just displayed"
                >
                  Each credit appears in your history as a staking reward transaction and becomes
                  part of your balance like any deposit.
                </StakingPoint>
                <StakingPoint
                  icon={<Unlock className="h-5 w-5" aria-hidden />}
                  title="Always liquid"
                >
                  Withdraw at any time, credited rewards included. There is no lock-up period; the
                  normal withdrawal fee applies.
                </StakingPoint>
              </ul>
            </div>
            <StakingRateHighlight />
          </div>
        </section>

        <section
          aria-labelledby={featuresHeadingId}
          className="border-y border-border bg-surface-2/50"
        >
          <div className={cn(CONTAINER, 'py-14 sm:py-20')}>
            <h2 id={featuresHeadingId} className="text-3xl font-bold tracking-tight text-fg">
              What you get
            </h2>
            <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              <FeatureCard icon={ShieldCheck} title="Mandatory two-factor authentication">
                Every account signs in with a password plus a code from an authenticator app. It is
                part of every account, not an optional extra.
              </FeatureCard>
              <FeatureCard icon={KeyRound} title="Your 12-word recovery phrase">
                Generated for you from a secure random source. Only you can view it, after entering
                your password again, and it lets you reset a forgotten password.
              </FeatureCard>
              <FeatureCard icon={Lock} title="Encrypted at rest">
                Recovery phrases and saved bank details are stored encrypted. Identity documents are
                private files, never public links.
              </FeatureCard>
              <FeatureCard icon={Wallet} title="BTC, ETH and USDT together">
                Hold Bitcoin, Ethereum and Tether on ERC-20 or TRC-20, with your whole portfolio
                valued in US dollars.
              </FeatureCard>
              <FeatureCard icon={ReceiptText} title="A complete history">
                Every change to your balance is a transaction you can see: deposits, withdrawals,
                staking rewards and any correction, with its reason.
              </FeatureCard>
              <FeatureCard icon={MessagesSquare} title="Support in the app">
                Chat with our support team from your dashboard and follow each withdrawal request
                from pending to completed.
              </FeatureCard>
            </div>
          </div>
        </section>

        <LiveStats className={cn(CONTAINER, 'py-14 sm:py-20')} />

        <CallToAction
          title="Ready to start?"
          primary={{ to: '/auth', label: 'Get Started Now' }}
          secondary={{ to: '/', label: "Explore Coffer's Features" }}
        >
          Create an account, set up two-factor authentication and make your first deposit.
        </CallToAction>
      </main>

      <SiteFooter />
    </div>
  );
}
