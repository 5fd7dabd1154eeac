import {
  formatDateTime,
  KYC_ACCEPTED_TYPES,
  KYC_MAX_FILE_BYTES,
  KYC_MSG,
  KYC_REDIRECT_MS,
  kycErrorTitle,
  type TKycSubmission,
  ZKycPhoneNumber,
} from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { FORM_ERROR, Form, type TFormErrors, useZodForm } from '@web/components/ui/form';
import { Input, Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Logo } from '@web/components/ui/logo';
import { PageSpinner } from '@web/components/ui/spinner';
import { ApiError } from '@web/lib/api-client';
import { useRealtime, useRealtimeConnection } from '@web/lib/realtime';
import { useSession } from '@web/lib/session';
import { CheckCircle2, Clock, ShieldCheck, XCircle } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { kycStatusQueryOptions, useKycStatus } from '../api/get-kyc-status';
import { useSubmitKyc } from '../api/submit-kyc';
import { DocumentDrop } from './document-drop';

function acceptedType(file: File): boolean {
  if ((KYC_ACCEPTED_TYPES as readonly string[]).includes(file.type)) return true;
  // Some systems give no type for a dropped file: fall back to the name (the server checks content).
  return file.type === '' && /\.(jpe?g|png|pdf)$/i.test(file.name);
}

type TKycFields = {
  fullName: string;
  phoneNumber: string;
  address: string;
  front: File | null;
  back: File | null;
};

/**
 * The checks of the KYC form, in order. Only the first failure is told (as a toast), so
 * only the first is returned; a missing sign-in belongs to the whole form.
 */
function firstProblem(values: TKycFields, signedIn: boolean): TFormErrors<TKycFields> {
  if (!values.fullName.trim()) return { fullName: KYC_MSG.fullNameRequired };
  if (!values.phoneNumber.trim()) return { phoneNumber: KYC_MSG.phoneRequired };
  if (!values.address.trim()) return { address: KYC_MSG.addressRequired };
  if (!values.front) return { front: KYC_MSG.frontRequired };
  // The same check as the server's, after the required fields as there.
  const phone = ZKycPhoneNumber.safeParse(values.phoneNumber);
  if (!phone.success)
    return { phoneNumber: phone.error.issues[0]?.message ?? KYC_MSG.phoneInvalid };
  for (const side of ['front', 'back'] as const) {
    const file = values[side];
    if (!file) continue;
    const found: TFormErrors<TKycFields> = {};
    if (!acceptedType(file)) found[side] = KYC_MSG.invalidType;
    else if (file.size > KYC_MAX_FILE_BYTES) found[side] = KYC_MSG.tooLarge;
    else continue;
    return found;
  }
  if (!signedIn) return { [FORM_ERROR]: KYC_MSG.authRequired };
  return {};
}

function serverProblem(err: unknown): { title: string; description: string } {
  if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') {
    return { title: KYC_MSG.authTitle, description: KYC_MSG.authRequired };
  }
  const message = err instanceof Error ? err.message : 'Unknown error';
  const title = kycErrorTitle(message);
  if (title === KYC_MSG.submitErrorTitle) {
    return { title, description: KYC_MSG.submitError(message.replace(/\.$/, '')) };
  }
  return { title, description: message };
}

export function KycStatusBadge({ status }: { status: TKycSubmission['status'] }) {
  if (status === 'approved') return <Badge variant="success">Approved</Badge>;
  if (status === 'rejected') return <Badge variant="destructive">Rejected</Badge>;
  return <Badge variant="secondary">Pending review</Badge>;
}

const STATUS_TEXT: Record<TKycSubmission['status'], string> = {
  pending: 'Your documents are being reviewed. We will e-mail you when there is a decision.',
  approved: 'Your identity has been verified.',
  rejected: 'Your verification was not approved.',
};

function StatusIcon({ status }: { status: TKycSubmission['status'] }) {
  if (status === 'approved') return <CheckCircle2 className="h-6 w-6 text-success" aria-hidden />;
  if (status === 'rejected') return <XCircle className="h-6 w-6 text-danger" aria-hidden />;
  return <Clock className="h-6 w-6 text-primary" aria-hidden />;
}

/** Where the latest submission stands, with the reviewer's notes when it was rejected. */
function StatusSummary({ submission }: { submission: TKycSubmission }) {
  return (
    <section
      aria-label="Verification status"
      className="space-y-2 rounded-lg border border-border bg-surface-2/40 p-4 text-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <StatusIcon status={submission.status} />
        <span className="font-medium text-fg">Status:</span>
        <KycStatusBadge status={submission.status} />
      </div>
      <p className="text-muted">{STATUS_TEXT[submission.status]}</p>
      <p className="text-muted">
        Submitted{' '}
        <time dateTime={submission.submittedAt}>{formatDateTime(submission.submittedAt)}</time>
      </p>
      {submission.reviewNotes ? (
        <div>
          <p className="font-medium text-fg">Review notes</p>
          <p className="whitespace-pre-wrap break-words text-fg">{submission.reviewNotes}</p>
        </div>
      ) : null}
    </section>
  );
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-bg">
      <header className="border-b border-border bg-surface">
        <div className="mx-auto flex h-14 max-w-3xl items-center justify-between px-4">
          <Link to="/dashboard" aria-label="Coffer dashboard">
            <Logo />
          </Link>
          <Button asChild variant="ghost" size="sm">
            <Link to="/dashboard">Back to Dashboard</Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8">{children}</main>
    </div>
  );
}

function SuccessCard() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/dashboard'), KYC_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <Card className="mx-auto max-w-lg text-center">
      <CardContent className="space-y-4 p-8">
        <CheckCircle2 className="mx-auto h-12 w-12 text-success" aria-hidden />
        <h1 className="text-2xl font-bold text-fg">{KYC_MSG.successTitle}</h1>
        <p className="text-muted">{KYC_MSG.success}</p>
        <p className="text-sm text-muted" role="status">
          Redirecting to your dashboard...
        </p>
      </CardContent>
    </Card>
  );
}

function AlreadySubmitted({ submission }: { submission: TKycSubmission }) {
  return (
    <Card className="mx-auto max-w-lg">
      <CardContent className="space-y-5 p-8">
        <div className="space-y-2 text-center">
          <ShieldCheck className="mx-auto h-12 w-12 text-primary" aria-hidden />
          <h1 className="text-2xl font-bold text-fg">{KYC_MSG.alreadySubmitted}</h1>
          <p className="text-muted">
            You have already submitted your identity documents. You cannot submit them again unless
            a reviewer asks you to.
          </p>
        </div>
        <StatusSummary submission={submission} />
        <Button asChild className="w-full">
          <Link to="/dashboard">Back to Dashboard</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function KycForm({
  previous,
  onSubmitted,
}: {
  previous: TKycSubmission | null;
  onSubmitted: () => void;
}) {
  const session = useSession();
  const submit = useSubmitKyc();
  // The session is read when the form is sent: the layer takes the latest render's check.
  const form = useZodForm<TKycFields>(
    null,
    {
      fullName: previous?.fullName ?? '',
      phoneNumber: previous?.phoneNumber ?? '',
      address: previous?.address ?? '',
      front: null,
      back: null,
    },
    { check: (values) => firstProblem(values, Boolean(session.data)) },
  );
  const { fullName, phoneNumber, address, front, back } = form.watch();
  // One complaint on screen at a time: a new one, or a new file, clears the last.
  const lastToast = useRef<string | number | null>(null);
  const clearToast = () => {
    if (lastToast.current !== null) toast.dismiss(lastToast.current);
    lastToast.current = null;
  };
  const complain = (problem: { title: string; description: string }) => {
    clearToast();
    lastToast.current = toast.error(problem.title, { description: problem.description });
  };
  const pick = (side: 'front' | 'back') => (file: File | null) => {
    clearToast();
    form.setValue(side, file);
  };

  function refused(errors: TFormErrors<TKycFields>) {
    const description = Object.values(errors)[0];
    if (description) complain({ title: kycErrorTitle(description), description });
  }

  async function onSubmit(values: TKycFields) {
    if (submit.isPending || !values.front) return;
    try {
      await submit.mutateAsync({
        fullName: values.fullName.trim(),
        phoneNumber: values.phoneNumber.trim(),
        address: values.address.trim(),
        front: values.front,
        back: values.back,
      });
      clearToast();
      toast.success(KYC_MSG.successTitle, { description: KYC_MSG.success });
      onSubmitted();
    } catch (err) {
      complain(serverProblem(err));
    }
  }

  const busy = submit.isPending;
  return (
    <Card>
      <CardHeader>
        <h1 className="text-2xl font-bold text-fg">Identity Verification (KYC)</h1>
        <CardDescription>
          To keep your account safe we need to confirm who you are. Your documents are stored
          privately and are seen only by our verification team.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {previous ? <StatusSummary submission={previous} /> : null}
        {previous?.status === 'rejected' ? (
          <p className="text-sm text-fg">
            Please correct your details and upload your documents again.
          </p>
        ) : null}
        {/* The form's own checks run in the specified order, each refusal told in a toast. */}
        <Form form={form} onSubmit={onSubmit} onInvalid={refused} className="space-y-5">
          <div className="grid gap-5 sm:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="kyc-full-name">Full Name</Label>
              <Input
                id="kyc-full-name"
                autoComplete="name"
                value={fullName}
                onChange={(e) => form.setValue('fullName', e.target.value)}
                placeholder="As shown on your ID"
                maxLength={200}
                disabled={busy}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="kyc-phone">Phone Number</Label>
              <Input
                id="kyc-phone"
                type="tel"
                autoComplete="tel"
                value={phoneNumber}
                onChange={(e) => form.setValue('phoneNumber', e.target.value)}
                placeholder="+61 400 000 000"
                maxLength={40}
                disabled={busy}
              />
            </div>
          </div>
          <div className="space-y-2">
            <Label htmlFor="kyc-address">Address</Label>
            <Textarea
              id="kyc-address"
              autoComplete="street-address"
              rows={3}
              value={address}
              onChange={(e) => form.setValue('address', e.target.value)}
              placeholder="Street, city, state and postcode"
              maxLength={1000}
              disabled={busy}
            />
          </div>
          <DocumentDrop
            label="Front of Driver's Licence or Passport (required)"
            hint="JPEG, PNG or PDF, up to 10 MB."
            file={front}
            onChange={pick('front')}
            disabled={busy}
          />
          <DocumentDrop
            label="Back of Driver's Licence (optional)"
            hint="JPEG, PNG or PDF, up to 10 MB."
            file={back}
            onChange={pick('back')}
            disabled={busy}
          />
          <p className="text-xs text-muted">
            Location and camera details are removed from photos before they are stored.
          </p>
          <Button type="submit" className="w-full" size="lg" disabled={busy}>
            {busy ? 'Submitting...' : 'Submit KYC Verification'}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

/** /kyc: loading, then the form, the success card or the blocked state. */
export default function KycPage() {
  const status = useKycStatus();
  const queryClient = useQueryClient();
  // This page has no portal layout, so it holds the realtime socket itself: a reviewer's
  // decision shows without a reload.
  useRealtimeConnection();
  useRealtime(['kyc.changed'], () => {
    void queryClient.invalidateQueries({ queryKey: kycStatusQueryOptions().queryKey });
  });
  // Set once the submission is saved: the success card stays while the status is reread.
  const [submitted, setSubmitted] = useState(false);

  let body: ReactNode;
  if (submitted) {
    body = <SuccessCard />;
  } else if (status.isPending) {
    body = <PageSpinner text="Loading..." />;
  } else if (status.isError) {
    body = (
      <div role="alert" className="mx-auto max-w-md space-y-3 text-center">
        <p className="text-danger">Your verification status could not be loaded.</p>
        <Button variant="outline" onClick={() => void status.refetch()}>
          Retry
        </Button>
      </div>
    );
  } else if (!status.data.canSubmit && status.data.submission) {
    body = <AlreadySubmitted submission={status.data.submission} />;
  } else {
    body = <KycForm previous={status.data.submission} onSubmitted={() => setSubmitted(true)} />;
  }
  return <Shell>{body}</Shell>;
}
