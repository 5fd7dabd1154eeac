import {
  formatDateTime,
  KYC_MSG,
  safeDownloadName,
  type TAdminKycDetail,
  type TKycDocument,
  type TKycSide,
  type TStepUp,
} from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { CustomerText } from '@web/components/ui/customer-text';
import { DialogContent } from '@web/components/ui/dialog';
import { EmailText } from '@web/components/ui/email-text';
import { submitOf, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Spinner } from '@web/components/ui/spinner';
import { saveBlob } from '@web/lib/upload-client';
import { formatDistanceToNow } from 'date-fns';
import { Download, FileText } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { kycDocumentQueryOptions, useKycDocument } from '../api/get-kyc-document';
import { useKycSubmission } from '../api/get-kyc-submission';
import { useReviewKyc } from '../api/review-kyc';
import { KycBadge } from './kyc-badge';

function Fact({
  label,
  children,
  wide,
}: {
  label: string;
  children: ReactNode;
  /** Spans both columns (the address, the notes). */
  wide?: boolean;
}) {
  return (
    <div className={wide ? 'space-y-0.5 sm:col-span-2' : 'space-y-0.5'}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted">{label}</dt>
      <dd className="break-words text-sm text-fg">{children}</dd>
    </div>
  );
}

/** An object URL for a Blob, released when the Blob changes or the view closes. */
function useBlobUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

function DocumentCard({
  submission,
  side,
  doc,
}: {
  submission: TAdminKycDetail;
  side: TKycSide;
  doc: TKycDocument;
}) {
  const queryClient = useQueryClient();
  const isImage = doc.type.startsWith('image/');
  const title = side === 'front' ? 'Front Document' : 'Back Document';
  // Images are previewed: fetched from the authenticated endpoint (an audited view).
  const preview = useKycDocument(submission.id, side, submission.submittedAt, isImage);
  const url = useBlobUrl(preview.data);
  const [downloading, setDownloading] = useState(false);
  // Shown and saved under the name of what the file is (the type found in its bytes), never
  // the customer's extension: a PDF sent as invoice.html is invoice.pdf.
  const fileName = safeDownloadName(doc.name, doc.type);

  useEffect(() => {
    if (preview.isError) {
      toast.error(KYC_MSG.downloadErrorTitle, { description: KYC_MSG.downloadFailed });
    }
  }, [preview.isError]);

  async function onDownload() {
    setDownloading(true);
    try {
      const blob =
        preview.data ??
        (await queryClient.fetchQuery(
          kycDocumentQueryOptions(submission.id, side, submission.submittedAt),
        ));
      saveBlob(blob, fileName);
    } catch {
      toast.error(KYC_MSG.downloadErrorTitle, { description: KYC_MSG.downloadFailed });
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section aria-label={title} className="space-y-2 rounded-lg border border-border p-3">
      <div className="flex items-center justify-between gap-2">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-fg">{title}</p>
          <p className="text-xs text-muted">
            <CustomerText text={fileName} />
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void onDownload()}
          disabled={downloading}
          aria-label={`Download ${title.toLowerCase()}`}
          className="shrink-0"
        >
          {downloading ? (
            <Spinner className="h-3.5 w-3.5" label="Downloading" />
          ) : (
            <Download className="h-3.5 w-3.5" aria-hidden />
          )}
          Download
        </Button>
      </div>
      {isImage ? (
        url ? (
          <img
            src={url}
            alt={`${title} of ${submission.fullName}`}
            className="max-h-64 w-full rounded-md border border-border bg-surface-2 object-contain"
          />
        ) : preview.isError ? (
          <p className="text-xs text-danger">{KYC_MSG.downloadFailed}</p>
        ) : (
          <div className="flex h-24 items-center justify-center">
            <Spinner label={`Loading ${title.toLowerCase()}`} />
          </div>
        )
      ) : (
        <p className="flex items-center gap-2 text-xs text-muted">
          <FileText className="h-4 w-4" aria-hidden /> PDF document: download to view it.
        </p>
      )}
    </section>
  );
}

function ReviewForm({ submission, onDone }: { submission: TAdminKycDetail; onDone: () => void }) {
  const review = useReviewKyc();
  const form = useZodForm<{ notes: string }>(null, { notes: '' });
  // The decision waiting for the reviewer's fresh second factor (step-up), with its notes.
  const [asking, setAsking] = useState<{
    decision: 'approved' | 'rejected';
    notes: string;
  } | null>(null);
  const pending = review.isPending ? (asking?.decision ?? null) : null;

  /** Each button asks for the step-up with its decision; the notes need no check of their own. */
  const decide = (decision: 'approved' | 'rejected') =>
    submitOf(form, ({ notes }) => setAsking({ decision, notes: notes.trim() }))();

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    const { decision, notes } = asking;
    await review.mutateAsync({
      id: submission.id,
      body: { decision, ...(notes ? { notes } : {}), stepUp },
    });
    setAsking(null);
    toast.success(KYC_MSG.statusUpdated, {
      description: decision === 'approved' ? KYC_MSG.approved : KYC_MSG.rejected,
    });
    onDone();
  }

  function failed() {
    setAsking(null);
    toast.error('Error', { description: KYC_MSG.updateFailed });
  }

  return (
    <div className="space-y-3 border-t border-border pt-4">
      <StepUpDialog
        open={asking !== null}
        title={asking?.decision === 'rejected' ? 'Confirm the rejection' : 'Confirm the approval'}
        description={
          asking?.decision === 'rejected'
            ? `Reject the identity verification of ${submission.email}; they are told by e-mail.`
            : `Approve the identity verification of ${submission.email}; they are told by e-mail.`
        }
        confirmLabel={
          asking?.decision === 'rejected' ? 'Confirm and reject' : 'Confirm and approve'
        }
        pendingLabel={asking?.decision === 'rejected' ? 'Rejecting...' : 'Approving...'}
        danger={asking?.decision === 'rejected'}
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <div className="space-y-2">
        <Label htmlFor="kyc-review-notes">Review Notes</Label>
        <Textarea
          id="kyc-review-notes"
          rows={3}
          value={form.watch('notes')}
          onChange={(e) => form.setValue('notes', e.target.value)}
          placeholder="Optional. On rejection the customer sees these notes."
          maxLength={2000}
          disabled={review.isPending}
        />
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button
          variant="danger"
          onClick={() => void decide('rejected')}
          disabled={review.isPending}
        >
          {pending === 'rejected' ? 'Rejecting...' : 'Reject'}
        </Button>
        <Button onClick={() => void decide('approved')} disabled={review.isPending}>
          {pending === 'approved' ? 'Approving...' : 'Approve'}
        </Button>
      </div>
    </div>
  );
}

/** The review dialog of details, documents and, while pending, the decision. */
export function ReviewDialog({ id, onDone }: { id: string; onDone: () => void }) {
  const detail = useKycSubmission(id);
  let body: ReactNode;
  if (detail.isPending) {
    body = (
      <div className="flex justify-center py-8">
        <Spinner label="Loading submission" />
      </div>
    );
  } else if (detail.isError) {
    body = <p className="text-sm text-danger">{KYC_MSG.loadFailed}</p>;
  } else {
    const s = detail.data.submission;
    const submitted = new Date(s.submittedAt);
    body = (
      <div className="space-y-5">
        <dl className="grid gap-4 sm:grid-cols-2">
          <Fact label="Full Name">
            <CustomerText text={s.fullName} />
          </Fact>
          <Fact label="Phone">
            <CustomerText text={s.phoneNumber} />
          </Fact>
          <Fact label="E-mail">
            <EmailText email={s.email} />
          </Fact>
          <Fact label="Status">
            <KycBadge status={s.status} />
          </Fact>
          <Fact label="Address" wide>
            <CustomerText text={s.address} multiline />
          </Fact>
          <Fact label="Submitted">
            <time dateTime={s.submittedAt}>{formatDateTime(s.submittedAt)}</time>{' '}
            <span className="text-muted">
              ({formatDistanceToNow(submitted, { addSuffix: true })})
            </span>
          </Fact>
          {s.reviewedAt ? (
            <Fact label="Reviewed">
              <time dateTime={s.reviewedAt}>{formatDateTime(s.reviewedAt)}</time>
              {s.reviewer ? <span className="text-muted"> by {s.reviewer.email}</span> : null}
            </Fact>
          ) : null}
          {s.reviewNotes ? (
            <Fact label="Review Notes" wide>
              <span className="whitespace-pre-wrap">{s.reviewNotes}</span>
            </Fact>
          ) : null}
        </dl>
        <div className="grid items-start gap-3 sm:grid-cols-2">
          <DocumentCard submission={s} side="front" doc={s.front} />
          {s.back ? (
            <DocumentCard submission={s} side="back" doc={s.back} />
          ) : (
            <p className="rounded-lg border border-dashed border-border p-3 text-sm text-muted">
              No back document was uploaded.
            </p>
          )}
        </div>
        {s.status === 'pending' ? <ReviewForm submission={s} onDone={onDone} /> : null}
      </div>
    );
  }
  return (
    <DialogContent title="Review KYC Submission" className="md:max-w-3xl">
      {body}
    </DialogContent>
  );
}
