import { MSG, RECOVERY_PHRASE_MSG, type TRecoveryPhraseResponse } from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { ApiError } from '@web/lib/api-client';
import { useSession } from '@web/lib/session';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useOutletContext } from 'react-router';
import { toast } from 'sonner';
import { useGeneratePhrase } from '../api/generate-phrase';
import { phraseQueryOptions, usePhrase } from '../api/get-phrase';
import { ConfirmPhraseStep } from './confirm-phrase-step';
import { GeneratePhraseNotice } from './generate-phrase-notice';
import { PasswordGate } from './password-gate';
import { PhraseConfirmed } from './phrase-confirmed';
import { PhraseDisplay } from './phrase-display';

/** The part of the portal layout's outlet context this page uses. */
type PortalContext = { refreshSession?: () => Promise<void> } | undefined;

function needsPassword(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'PASSWORD_REQUIRED';
}

/**
 * /secret-combination for a staff account: no menu offers it, and the server refuses staff
 * every phrase route, so an address typed by hand gets this instead of a password gate.
 */
function StaffHaveNoPhrase() {
  return (
    <Card>
      <CardContent className="flex flex-col items-start gap-3 pt-5">
        <h1 className="text-2xl font-bold text-fg">Secret Combination</h1>
        <p className="text-sm text-muted">{RECOVERY_PHRASE_MSG.staff}</p>
      </CardContent>
    </Card>
  );
}

/**
 * /secret-combination: the password gate on every visit, then the user's phrase (or the
 * one-time generation). A phrase that replaces a burnt one is then typed back to confirm it
 * (product.md S10). The phrase lives only in memory while this page is open. Staff have
 * none (decision 0027).
 */
export default function SecretCombinationPage() {
  const session = useSession();
  if (session.data?.user.isAdmin) {
    return (
      <div className="mx-auto w-full max-w-3xl">
        <StaffHaveNoPhrase />
      </div>
    );
  }
  return <CustomerSecretCombination />;
}

function CustomerSecretCombination() {
  const [unlocked, setUnlocked] = useState(false);
  // Where an unconfirmed phrase's customer is: reading it, or typing it back.
  const [confirming, setConfirming] = useState(false);
  // Set when the phrase was confirmed on this visit, to say so instead of showing it again.
  const [confirmedNow, setConfirmedNow] = useState(false);
  const queryClient = useQueryClient();
  const phrase = usePhrase({ enabled: unlocked });
  const portal = useOutletContext<PortalContext>();
  const refreshSession = useCallback(async () => {
    if (portal?.refreshSession) await portal.refreshSession();
  }, [portal]);
  const generate = useGeneratePhrase({ refreshSession });

  // Leaving the page drops the phrase from the query cache.
  useEffect(() => {
    const { queryKey } = phraseQueryOptions();
    return () => queryClient.removeQueries({ queryKey });
  }, [queryClient]);

  // The server's unlock ran out while the page stayed open: ask for the password again.
  const relock = useCallback(() => {
    setUnlocked(false);
    queryClient.removeQueries({ queryKey: phraseQueryOptions().queryKey });
    toast.error('Password required', { description: MSG.passwordRequired });
  }, [queryClient]);

  useEffect(() => {
    if (!phrase.error) return;
    if (needsPassword(phrase.error)) {
      relock();
      return;
    }
    console.error('Loading the seed phrase failed', phrase.error);
    toast.error('Error', { description: 'Failed to check existing seed phrase.' });
  }, [phrase.error, relock]);

  function onGenerate() {
    generate.mutate(undefined, {
      onSuccess: ({ created }) => {
        if (created) {
          toast.success('Seed phrase generated', {
            description: 'Your 12-word seed phrase has been generated successfully.',
          });
        } else {
          toast('Seed phrase already exists', { description: MSG.seedPhraseExists });
        }
      },
      onError: (err) => {
        console.error('Generating the seed phrase failed', err);
        if (needsPassword(err)) {
          relock();
          return;
        }
        toast.error('Generation failed', {
          description: 'Failed to generate seed phrase. Please try again.',
        });
      },
    });
  }

  // One render: the success card, and the held phrase marked confirmed, arrive together.
  function onConfirmed(confirmedAt: string) {
    setConfirmedNow(true);
    queryClient.setQueryData<TRecoveryPhraseResponse>(phraseQueryOptions().queryKey, (old) =>
      old ? { ...old, confirmedAt } : old,
    );
  }

  let content: ReactNode;
  if (!unlocked) {
    content = (
      <PasswordGate
        onVerified={() => setUnlocked(true)}
        onSessionEnded={() => void refreshSession()}
      />
    );
  } else if (phrase.isPending) {
    content = <PageSpinner text="Checking your seed phrase..." />;
  } else if (phrase.isError) {
    content = (
      <Card>
        <CardContent className="flex flex-col items-start gap-4 pt-5">
          <h1 className="text-2xl font-bold text-fg">Secret Combination</h1>
          <p role="alert" className="text-sm text-danger">
            Failed to check existing seed phrase.
          </p>
          <Button variant="outline" onClick={() => void phrase.refetch()}>
            Try again
          </Button>
        </CardContent>
      </Card>
    );
  } else if (confirmedNow) {
    content = <PhraseConfirmed />;
  } else if (phrase.data.phrase && phrase.data.confirmedAt === null) {
    content = confirming ? (
      <ConfirmPhraseStep onBack={() => setConfirming(false)} onConfirmed={onConfirmed} />
    ) : (
      <PhraseDisplay phrase={phrase.data.phrase} onWrittenDown={() => setConfirming(true)} />
    );
  } else if (phrase.data.phrase) {
    content = <PhraseDisplay phrase={phrase.data.phrase} />;
  } else {
    content = <GeneratePhraseNotice onGenerate={onGenerate} generating={generate.isPending} />;
  }

  return <div className="mx-auto w-full max-w-3xl">{content}</div>;
}
