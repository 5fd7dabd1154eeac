import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/cn';
import { ArrowRight, ArrowUpDown, Coins, ShieldCheck, Wallet } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { CallToAction } from './call-to-action';
import { FeatureCard } from './feature-card';
import { LiveStats } from './live-stats';
import { SiteFooter } from './site-footer';
import { CONTAINER, HeaderLink, MAIN_CONTENT_ID, SiteHeader } from './site-header';
import { StakingRateText } from './staking-rate';

export default function WelcomePage() {
  const featuresHeadingId = useId();

  return (
    <div className="flex min-h-dvh flex-col bg-bg text-fg">
      <title>Welcome · Coffer</title>
      <SiteHeader>
        <HeaderLink to="/about">About Us</HeaderLink>
        <HeaderLink to="/auth">Login</HeaderLink>
        <HeaderLink to="/auth?mode=signup" primary>
          Register
        </HeaderLink>
      </SiteHeader>

      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <section className="border-b border-border bg-gradient-to-b from-surface to-bg">
          <div className={cn(CONTAINER, 'py-16 text-center sm:py-24')}>
            <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight text-fg sm:text-5xl">
              Welcome to Coffer
            </h1>
            <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-muted">
              A custodial wallet for Bitcoin, Ethereum and Tether. Deposit from any external wallet,
              follow your portfolio in US dollars and earn staking rewards on ETH.
            </p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/auth">
                  Get Started
                  <ArrowRight className="h-4 w-4" aria-hidden />
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/about">About Us</Link>
              </Button>
            </div>
          </div>
        </section>

        <section aria-labelledby={featuresHeadingId} className={cn(CONTAINER, 'py-14 sm:py-20')}>
          <h2 id={featuresHeadingId} className="text-3xl font-bold tracking-tight text-fg">
            What you can do with Coffer
          </h2>
          <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            <FeatureCard icon={Wallet} title="Hold and track">
              BTC, ETH and USDT (ERC-20 and TRC-20) in one place, with the total valued in US
              dollars.
            </FeatureCard>
            <FeatureCard icon={Coins} title="Earn on ETH">
              ETH you hold earns staking rewards automatically, credited every 24 hours. Current
              rate: <StakingRateText />.
            </FeatureCard>
            <FeatureCard icon={ArrowUpDown} title="Move your money">
              Deposit by copying an address, request withdrawals to your own wallet, and ask for AUD
              bank transfers.
            </FeatureCard>
            <FeatureCard icon={ShieldCheck} title="Stay protected">
              Two-factor authentication on every account, a 12-word recovery phrase only you can
              view, and encryption at rest.
            </FeatureCard>
          </div>
        </section>

        <LiveStats className={cn(CONTAINER, 'pb-14 sm:pb-20')} />

        <CallToAction
          title="New to Coffer?"
          primary={{ to: '/auth?mode=signup', label: 'Join Coffer' }}
          secondary={{ to: '/auth', label: 'I already have an account' }}
        >
          Opening an account takes a few minutes: your email, a password and two-factor
          authentication.
        </CallToAction>
      </main>

      <SiteFooter />
    </div>
  );
}
