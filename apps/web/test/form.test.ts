import { MSG_SECURITY, ZChangePasswordRequest } from '@coffer/shared';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  createFormControl,
  type FieldErrors,
  type FieldValues,
  type ResolverOptions,
  useForm,
} from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  errorTreeOf,
  Form,
  FormError,
  FormField,
  FormMessage,
  formResolver,
  messagesOf,
  serverErrorOf,
  submitOf,
  type TFormErrors,
  type TLiveErrors,
  useZodForm,
} from '../src/components/ui/form';

type TFields = { currentPassword: string; newPassword: string; confirmPassword: string };
const OPTIONS: ResolverOptions<TFields> = {
  fields: {},
  criteriaMode: 'firstError',
  shouldUseNativeValidation: false,
};

/** The messages a form on the layer shows for these values. */
async function resolve(
  values: TFields,
  check?: (v: TFields, found: TFormErrors<TFields>) => TFormErrors<TFields>,
) {
  const result = await formResolver<TFields>(ZChangePasswordRequest, check)(
    values,
    undefined,
    OPTIONS,
  );
  return messagesOf<TFields>(result.errors as FieldErrors<TFields>);
}

describe('the form layer: messages', () => {
  it('shows the shared schema’s message under each field, the first one of each', async () => {
    const found = await resolve({ currentPassword: '', newPassword: 'short', confirmPassword: '' });
    expect(Object.keys(found).sort()).toEqual(['currentPassword', 'newPassword']);
    const direct = ZChangePasswordRequest.safeParse({ currentPassword: '', newPassword: 'short' });
    expect(direct.success).toBe(false);
    // The same text the server answers with, because it is the same schema.
    const firstOfNew = direct.error?.issues.find((i) => i.path[0] === 'newPassword')?.message;
    expect(found.newPassword).toBe(firstOfNew);
  });

  it('a refinement of the schema lands under the field its path names', async () => {
    const found = await resolve({
      currentPassword: 'Same-password-1!x',
      newPassword: 'Same-password-1!x',
      confirmPassword: 'Same-password-1!x',
    });
    expect(found).toEqual({ newPassword: MSG_SECURITY.samePassword });
  });

  it('adds the form’s own checks, and a field the schema refused keeps the schema’s message', async () => {
    const seen: TFormErrors<TFields>[] = [];
    const found = await resolve(
      { currentPassword: '', newPassword: 'A-long-enough-pass-9', confirmPassword: 'other' },
      (_values, schemaFound) => {
        seen.push(schemaFound);
        return { currentPassword: 'not this one', confirmPassword: 'Passwords do not match' };
      },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.currentPassword).toBeDefined();
    expect(found.currentPassword).toBe(seen[0]?.currentPassword);
    expect(found.confirmPassword).toBe('Passwords do not match');
  });

  it('passes the values through untouched when nothing is wrong', async () => {
    const values = {
      currentPassword: 'Old-password-1!x',
      newPassword: 'A-long-enough-pass-9',
      confirmPassword: 'A-long-enough-pass-9',
    };
    const result = await formResolver<TFields>(ZChangePasswordRequest)(values, undefined, OPTIONS);
    expect(result.errors).toEqual({});
    expect(result.values).toEqual(values);
  });

  it('checks what the fields stand for when they are not the request themselves', async () => {
    type TTyped = { currency: 'AUD' | 'USD'; typed: string; name: string };
    const schema = z.object({
      amountAud: z.string().regex(/^\d+$/, 'Enter the amount in whole dollars'),
      name: z.string().min(1, 'Name is required'),
    });
    // The amount is typed in either currency and checked as the amount in AUD.
    const input = (v: TTyped) => ({
      amountAud: v.currency === 'AUD' ? v.typed : String(Number(v.typed) * 2),
      name: v.name,
    });
    const resolver = formResolver<TTyped>(schema, undefined, input);
    const options: ResolverOptions<TTyped> = {
      fields: {},
      criteriaMode: 'firstError',
      shouldUseNativeValidation: false,
    };
    const refused = await resolver({ currency: 'AUD', typed: '1.5', name: '' }, undefined, options);
    expect(messagesOf<FieldValues>(refused.errors)).toEqual({
      amountAud: 'Enter the amount in whole dollars',
      name: 'Name is required',
    });
    // The values stay the fields as typed; the form builds its request again when it sends it.
    const values = { currency: 'USD' as const, typed: '3', name: 'Jane' };
    const accepted = await resolver(values, undefined, options);
    expect(accepted.errors).toEqual({});
    expect(accepted.values).toEqual(values);
  });

  it('keeps a form-level message apart from the fields, both ways', () => {
    const messages = { form: 'Failed to submit withdrawal request', amount: 'Enter an amount' };
    const tree = errorTreeOf<{ amount: string }>(messages);
    expect(tree.root?.form?.message).toBe('Failed to submit withdrawal request');
    expect(tree.amount?.message).toBe('Enter an amount');
    expect(messagesOf(tree)).toEqual(messages);
  });
});

describe('the form layer: refusals of the server', () => {
  const text = (err: unknown) => (err instanceof Error ? err.message : 'Something failed');

  it('goes above the button unless the form names a field for it', () => {
    expect(serverErrorOf(new Error('Service is down'), text)).toEqual({
      field: 'form',
      message: 'Service is down',
    });
    expect(serverErrorOf('not an error', text)).toEqual({
      field: 'form',
      message: 'Something failed',
    });
  });

  it('goes under the field the form names for it', () => {
    const fieldOf = (err: unknown) =>
      err instanceof Error && err.message === MSG_SECURITY.currentPasswordIncorrect
        ? ('currentPassword' as const)
        : ('form' as const);
    expect(
      serverErrorOf<TFields>(new Error(MSG_SECURITY.currentPasswordIncorrect), text, fieldOf),
    ).toEqual({ field: 'currentPassword', message: MSG_SECURITY.currentPasswordIncorrect });
    expect(serverErrorOf<TFields>(new Error('Too many attempts'), text, fieldOf).field).toBe(
      'form',
    );
  });
});

/** A form on the layer, rendered to HTML as the browser first gets it. */
function render(props: { live?: TLiveErrors; summary?: boolean; children: ReactNode }): string {
  function Harness() {
    const form = useZodForm<{ amount: string; address: string }>(null, {
      amount: '',
      address: '',
    });
    return createElement(
      Form<{ amount: string; address: string }>,
      {
        form,
        onSubmit: () => undefined,
        live: props.live ?? null,
        summary: props.summary ?? false,
        formErrorId: 'the-form-error',
      },
      props.children,
    );
  }
  return renderToStaticMarkup(createElement(Harness));
}

describe('the form layer: fields', () => {
  it('labels each field and leaves it unmarked while there is no message', () => {
    const html = render({
      children: createElement(FormField, {
        name: 'amount',
        id: 'withdraw-amount',
        label: 'Amount',
      }),
    });
    expect(html).toMatch(/<label [^>]*for="withdraw-amount">Amount<\/label>/);
    expect(html).toContain('id="withdraw-amount"');
    expect(html).not.toContain('aria-invalid');
    expect(html).not.toContain('role="alert"');
  });

  it('marks a field with a message invalid and points it at the message and its hint', () => {
    const html = render({
      live: { errors: { amount: 'Enter an amount' }, shown: () => true },
      children: createElement(FormField, {
        name: 'amount',
        id: 'withdraw-amount',
        label: 'Amount',
        hint: 'In BTC',
        describedBy: ['withdraw-available'],
      }),
    });
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain(
      'aria-describedby="withdraw-available withdraw-amount-hint withdraw-amount-error"',
    );
    expect(html).toContain('<p id="withdraw-amount-error" role="alert"');
    expect(html).toContain('Enter an amount');
  });

  it('keeps a worked-out message hidden until the form says it shows', () => {
    const html = render({
      live: { errors: { amount: 'Enter an amount' }, shown: (name) => name !== 'amount' },
      children: createElement(FormField, {
        name: 'amount',
        id: 'withdraw-amount',
        label: 'Amount',
      }),
    });
    expect(html).not.toContain('Enter an amount');
    expect(html).not.toContain('aria-invalid');
  });

  it('shows no form-level message before anything was refused', () => {
    const html = render({
      summary: true,
      children: [
        createElement(FormField, { key: 'a', name: 'amount', label: 'Amount' }),
        createElement(FormError, { key: 'e' }),
      ],
    });
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain('aria-describedby');
  });

  it('shows a field’s message apart from its control, where the form puts it', () => {
    const shownHtml = render({
      live: { errors: { amount: 'Amount must be greater than 0' }, shown: () => true },
      children: createElement(FormMessage, { name: 'amount', id: 'bank-amountAud-error' }),
    });
    expect(shownHtml).toContain('<p id="bank-amountAud-error" role="alert"');
    expect(shownHtml).toContain('Amount must be greater than 0');
    const quiet = render({
      children: createElement(FormMessage, { name: 'amount', id: 'bank-amountAud-error' }),
    });
    expect(quiet).not.toContain('role="alert"');
  });
});

describe('the form layer: a message shown apart', () => {
  it('points the field at the message the form places itself, shown once', () => {
    const html = render({
      live: { errors: { amount: 'Enter the chain transaction hash' }, shown: () => true },
      children: [
        createElement(FormField, {
          key: 'f',
          name: 'amount',
          id: 'complete-ref',
          label: 'Chain transaction hash',
          messageId: 'complete-ref-error',
        }),
        createElement('p', { key: 'between' }, 'Between the field and its message'),
        createElement(FormMessage, { key: 'm', name: 'amount', id: 'complete-ref-error' }),
      ],
    });
    expect(html.match(/role="alert"/g)).toHaveLength(1);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="complete-ref-error"');
    // The message comes after what the form put between, not under the control.
    expect(html.indexOf('Between the field')).toBeLessThan(html.indexOf('Enter the chain'));
  });
});

/** A summary form rendered with these messages already found, as after a submit. */
function renderSummary(messages: TFormErrors<TFields>): string {
  function Harness() {
    const form = useForm<TFields>({
      defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
      errors: errorTreeOf<TFields>(messages),
    });
    return createElement(
      Form<TFields>,
      { form, onSubmit: () => undefined, summary: true, formErrorId: 'the-form-error' },
      createElement(FormField, { key: 'c', name: 'currentPassword', id: 'current', label: 'C' }),
      createElement(FormField, { key: 'n', name: 'newPassword', id: 'new', label: 'N' }),
      createElement(FormField, { key: 'f', name: 'confirmPassword', id: 'confirm', label: 'F' }),
      createElement(FormError, { key: 'e' }),
    );
  }
  return renderToStaticMarkup(createElement(Harness));
}

/** The ids of the controls marked invalid. */
function invalidIds(html: string): string[] {
  return [...html.matchAll(/<input [^>]*aria-invalid="true"[^>]*>/g)].map(
    (m) => /id="([^"]+)"/.exec(m[0])?.[1] ?? '',
  );
}

describe('the form layer: one message for the form', () => {
  it('marks only the fields a message is about, and shows it once', () => {
    const html = renderSummary({
      newPassword: 'Passwords do not match',
      confirmPassword: 'Passwords do not match',
    });
    expect(invalidIds(html)).toEqual(['new', 'confirm']);
    expect(html.match(/role="alert"/g)).toHaveLength(1);
    expect(html).toContain('<p id="the-form-error" role="alert"');
    expect(html).toContain('aria-describedby="the-form-error"');
  });

  it('marks every field for a message about the whole form, and it wins', () => {
    const html = renderSummary({ form: 'Invalid recovery phrase', newPassword: 'Too short' });
    expect(invalidIds(html)).toEqual(['current', 'new', 'confirm']);
    expect(html).toContain('Invalid recovery phrase');
    expect(html).not.toContain('Too short');
  });
});

describe('the form layer: submitting', () => {
  type TKyc = { fullName: string; phoneNumber: string };
  /** A form outside React, with the layer's resolver, as <Form> submits it. */
  function kycForm(values: TKyc) {
    return createFormControl<TKyc>({
      defaultValues: values,
      resolver: formResolver<TKyc>(null, (v) => {
        const found: TFormErrors<TKyc> = {};
        if (v.fullName.trim() === '') found.fullName = 'Full name is required';
        if (v.phoneNumber.trim() === '') found.phoneNumber = 'Phone number is required';
        return found;
      }),
    });
  }

  it('tells onInvalid the messages in their order and sends nothing', async () => {
    const sent: TKyc[] = [];
    const refused: TFormErrors<TKyc>[] = [];
    const form = kycForm({ fullName: ' ', phoneNumber: '' });
    await submitOf<TKyc>(
      form,
      (values) => sent.push(values),
      (errors) => refused.push(errors),
    )();
    expect(sent).toEqual([]);
    expect(refused).toEqual([
      { fullName: 'Full name is required', phoneNumber: 'Phone number is required' },
    ]);
    expect(Object.keys(refused[0] ?? {})).toEqual(['fullName', 'phoneNumber']);
  });

  it('sends the values and leaves onInvalid alone when nothing is wrong', async () => {
    const sent: TKyc[] = [];
    const refused: TFormErrors<TKyc>[] = [];
    const form = kycForm({ fullName: 'Jane Citizen', phoneNumber: '+61 400 000 000' });
    await submitOf<TKyc>(
      form,
      (values) => sent.push(values),
      (errors) => refused.push(errors),
    )();
    expect(sent).toEqual([{ fullName: 'Jane Citizen', phoneNumber: '+61 400 000 000' }]);
    expect(refused).toEqual([]);
  });

  it('without onInvalid, a refusal only marks the fields', async () => {
    const sent: TKyc[] = [];
    const form = kycForm({ fullName: '', phoneNumber: '1' });
    await submitOf<TKyc>(form, (values) => sent.push(values))();
    expect(sent).toEqual([]);
    expect(form.getFieldState('fullName').error?.message).toBe('Full name is required');
  });
});
