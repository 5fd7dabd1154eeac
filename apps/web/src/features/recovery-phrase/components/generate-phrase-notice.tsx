import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { TriangleAlert } from 'lucide-react';

/** Shown while the user has no phrase: none yet, or the last one was used and burnt (S10). */
export function GeneratePhraseNotice({
  onGenerate,
  generating,
}: {
  onGenerate: () => void;
  generating: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <h1 className="text-2xl font-bold text-fg">Secret Combination</h1>
        <p className="text-sm text-muted">
          Your 12-word seed phrase lets you recover your account if you forget your password.
        </p>
      </CardHeader>
      <CardContent className="space-y-5">
        <section
          aria-labelledby="phrase-notice-title"
          className="rounded-lg border border-warning/40 bg-warning/10 p-4"
        >
          <h2 id="phrase-notice-title" className="flex items-center gap-2 font-semibold text-fg">
            <TriangleAlert className="h-5 w-5 shrink-0 text-warning" aria-hidden />
            Important Notice
          </h2>
          <p className="mt-2 text-sm text-fg">
            Have a pen and paper ready: write your seed phrase down as soon as it appears. It cannot
            be changed later. If it is ever used to recover your account it stops working, and you
            make a new one here and type it back to confirm it.
          </p>
        </section>
        <Button onClick={onGenerate} disabled={generating} className="w-full sm:w-auto">
          {generating ? 'Generating...' : 'Generate Seed Phrase'}
        </Button>
      </CardContent>
    </Card>
  );
}
