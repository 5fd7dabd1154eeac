import { zodResolver } from '@hookform/resolvers/zod';
import { cn } from '@web/lib/cn';
import {
  createContext,
  type FormEvent,
  type FormHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  useContext,
  useId,
} from 'react';
import {
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  FormProvider,
  type Path,
  type Resolver,
  type UseFormReturn,
  useController,
  useForm,
  useFormContext,
} from 'react-hook-form';
import type { z } from 'zod';
import { FieldError } from './field-error';
import { Input } from './input';
import { Label } from './label';

/**
 * Coffer's form layer: the values live in react-hook-form, the checks are the shared request
 * schemas (the server refuses with the same schema and the same messages) plus whatever a
 * form checks beyond them, and a refusal of the server lands under its field or above the
 * submit button.
 */

/** Where a message that belongs to no one field is kept. */
export const FORM_ERROR = 'form';

/** One message per field, the first found for it, and `form` for the whole form. */
export type TFormErrors<T extends FieldValues> = Partial<
  Record<Path<T> | typeof FORM_ERROR, string>
>;

/**
 * Checks beyond the schema, in the form's own order. It gets what the schema found (the first
 * message of each field) and returns the messages to add; a field the schema already refused
 * keeps the schema's message.
 */
export type TFormCheck<T extends FieldValues> = (
  values: T,
  found: TFormErrors<T>,
) => TFormErrors<T> | Promise<TFormErrors<T>>;

/** The messages of a react-hook-form error tree, one per top-level field, in its order. */
export function messagesOf<T extends FieldValues>(errors: FieldErrors<T>): TFormErrors<T> {
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    if (key === 'root') {
      const form = (value as Record<string, { message?: unknown } | undefined>)[FORM_ERROR];
      if (typeof form?.message === 'string') found[FORM_ERROR] = form.message;
      continue;
    }
    // A refinement of the whole request has an empty path: it belongs to the form.
    const name = key === '' ? FORM_ERROR : key;
    const message = (value as { message?: unknown }).message;
    if (typeof message === 'string' && found[name] === undefined) found[name] = message;
  }
  return found as TFormErrors<T>;
}

/** The react-hook-form error tree for a set of messages; `form` goes to `root.form`. */
export function errorTreeOf<T extends FieldValues>(messages: TFormErrors<T>): FieldErrors<T> {
  const tree: Record<string, unknown> = {};
  for (const [name, message] of Object.entries(messages)) {
    if (typeof message !== 'string') continue;
    if (name === FORM_ERROR) tree.root = { [FORM_ERROR]: { type: 'server', message } };
    else tree[name] = { type: 'validate', message };
  }
  return tree as FieldErrors<T>;
}

/**
 * What the schema checks when the fields are not the request themselves: an amount typed in
 * either currency is checked as the amount in AUD, a choice as what it stands for.
 */
export type TFormInput<T extends FieldValues> = (values: T) => FieldValues;

/**
 * The resolver of a form: the shared schema through zodResolver (the values stay as typed,
 * the form parses them again when it sends them), then the form's own checks.
 */
export function formResolver<T extends FieldValues>(
  schema: z.ZodType<unknown, FieldValues> | null,
  check?: TFormCheck<T>,
  input?: TFormInput<T>,
): Resolver<T> {
  const zod = schema ? zodResolver(schema, undefined, { raw: true }) : null;
  return async (values, context, options) => {
    let found: TFormErrors<T> = {};
    if (zod) {
      const result = await zod(input ? input(values) : values, context, {
        fields: options.fields,
        criteriaMode: 'firstError',
        shouldUseNativeValidation: false,
      });
      found = messagesOf<T>(result.errors as FieldErrors<T>);
    }
    if (check) {
      const more = await check(values, { ...found });
      // The first message of a field wins, as it does within the schema.
      found = { ...more, ...found };
    }
    if (Object.keys(found).length === 0) return { values, errors: {} };
    return { values: {}, errors: errorTreeOf(found) };
  };
}

/**
 * A form on the layer. Messages appear when the form is submitted and stay until the next
 * submit, as the customer sees them today; nothing is focused for them.
 */
export function useZodForm<T extends FieldValues>(
  schema: z.ZodType<unknown, FieldValues> | null,
  defaultValues: DefaultValues<T>,
  options: { check?: TFormCheck<T>; input?: TFormInput<T> } = {},
): UseFormReturn<T> {
  // react-hook-form takes the resolver of the latest render, so a check or input that reads
  // data loaded after the form showed (a rate, the balances) sees it.
  return useForm<T>({
    defaultValues,
    resolver: formResolver<T>(schema, options.check, options.input),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
}

/** Where a refusal of the server goes: under a field, or `form` for the whole form. */
export type TServerErrorTarget<T extends FieldValues> = Path<T> | typeof FORM_ERROR;

/** The field and message a refusal of the server is shown with. */
export function serverErrorOf<T extends FieldValues>(
  err: unknown,
  text: (err: unknown) => string,
  fieldOf?: (err: unknown) => TServerErrorTarget<T>,
): { field: TServerErrorTarget<T>; message: string } {
  return { field: fieldOf?.(err) ?? FORM_ERROR, message: text(err) };
}

/** Shows a refusal of the server under its field or above the submit button; returns the text. */
export function showServerError<T extends FieldValues>(
  form: UseFormReturn<T>,
  err: unknown,
  text: (err: unknown) => string,
  fieldOf?: (err: unknown) => TServerErrorTarget<T>,
): string {
  const { field, message } = serverErrorOf<T>(err, text, fieldOf);
  if (field === FORM_ERROR) form.setError(`root.${FORM_ERROR}`, { type: 'server', message });
  else form.setError(field, { type: 'server', message });
  return message;
}

/** The form-level message, if any. */
export function formErrorOf<T extends FieldValues>(form: UseFormReturn<T>): string | undefined {
  return form.formState.errors.root?.[FORM_ERROR]?.message;
}

/**
 * Messages worked out from the values on every render instead of at submit (a form whose
 * checks depend on data that loads, as the withdrawal's balance does), and when each shows.
 */
export type TLiveErrors = {
  errors: Partial<Record<string, string>>;
  shown: (name: string) => boolean;
};

type TFormLayer = {
  /** The id of the form-level message, for fields that point at it. */
  formErrorId: string;
  /** Every field points at the one form-level message instead of a message of its own. */
  summary: boolean;
  live: TLiveErrors | null;
};

const FormLayerContext = createContext<TFormLayer | null>(null);

function useFormLayer(): TFormLayer {
  const layer = useContext(FormLayerContext);
  if (!layer) throw new Error('A form field is used outside <Form>.');
  return layer;
}

/**
 * The submit of a form on the layer: the resolver's checks, then `onSubmit` with the values,
 * or `onInvalid` with the messages found, one per field, in the order a one-message form
 * picks its first from. A form that tells of a refusal in a toast, not under a field, uses it.
 */
export function submitOf<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'handleSubmit'>,
  onSubmit: (values: T) => unknown,
  onInvalid?: (errors: TFormErrors<T>) => void,
): (event?: FormEvent<HTMLFormElement>) => Promise<void> {
  return form.handleSubmit(
    async (values) => {
      await onSubmit(values);
    },
    (errors) => onInvalid?.(messagesOf<T>(errors)),
  );
}

/**
 * The <form> of the layer: no browser validation (the messages are Coffer's), submit through
 * the resolver. With `summary`, the fields show no message of their own: the form shows one
 * message (FormError). A message for the whole form marks every field invalid; a message of
 * some fields (a phrase of the wrong length, two passwords that differ) marks only those.
 */
export function Form<T extends FieldValues>({
  form,
  onSubmit,
  onInvalid,
  summary = false,
  live = null,
  formErrorId,
  children,
  ...props
}: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'onInvalid'> & {
  form: UseFormReturn<T>;
  onSubmit: (values: T) => unknown;
  /** Told the messages when the checks refuse the values (nothing is sent then). */
  onInvalid?: (errors: TFormErrors<T>) => void;
  summary?: boolean;
  live?: TLiveErrors | null;
  formErrorId?: string;
  children?: ReactNode;
}) {
  const generated = useId();
  const layer: TFormLayer = {
    formErrorId: formErrorId ?? `${generated}-form-error`,
    summary,
    live,
  };
  function submit(event: FormEvent<HTMLFormElement>) {
    void submitOf(form, onSubmit, onInvalid)(event);
  }
  return (
    <FormProvider {...form}>
      <FormLayerContext.Provider value={layer}>
        <form noValidate onSubmit={submit} {...props}>
          {children}
        </form>
      </FormLayerContext.Provider>
    </FormProvider>
  );
}

/** The form-level message (a refusal that belongs to no field), where the form puts it. */
export function FormError() {
  const { formState } = useFormContext();
  const { formErrorId, summary } = useFormLayer();
  const messages = messagesOf(formState.errors);
  // In a summary, a field's message is the form's one message when there is none for the form.
  const message = messages[FORM_ERROR] ?? (summary ? Object.values(messages)[0] : undefined);
  return <FieldError id={formErrorId} message={message} />;
}

/**
 * A field's message on its own, where the form puts it: for a field the form lays out itself
 * (one message under two inputs, a group of radio buttons).
 */
export function FormMessage({ name, id }: { name: string; id: string }) {
  return <FieldError id={id} message={useFieldMessage(name)} />;
}

/** What a field's control gets: its value and handlers, id, name and accessibility wiring. */
export type TFieldControl = {
  id: string;
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  onBlur: () => void;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/** The message a field shows now, if any. */
export function useFieldMessage(name: string): string | undefined {
  const layer = useFormLayer();
  const { formState, getFieldState } = useFormContext();
  const own = getFieldState(name, formState).error?.message;
  if (layer.summary) return own ?? formState.errors.root?.[FORM_ERROR]?.message;
  if (own) return own;
  if (layer.live?.shown(name)) return layer.live.errors[name];
  return undefined;
}

/**
 * A labelled field: the label, the control (an Input unless `children` renders another),
 * an optional hint, and its message under it, with aria-invalid and aria-describedby set
 * as screen readers need them.
 */
export function FormField({
  name,
  label,
  id,
  hint,
  hintId,
  messageId,
  describedBy = [],
  labelAside,
  labelRowClassName = 'flex items-center justify-between gap-2',
  after,
  transform,
  className = 'flex flex-col gap-2',
  children,
  ...inputProps
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'value' | 'children'> & {
  name: string;
  label: ReactNode;
  id?: string;
  /** A short help text under the control, read with it. */
  hint?: ReactNode;
  hintId?: string;
  /**
   * The id of the field's message when the form shows it apart (FormMessage, below a row of
   * fields); the field then shows none under its control and points at that one.
   */
  messageId?: string;
  /** Ids of other texts the control is described by, before its message. */
  describedBy?: (string | false | null | undefined)[];
  /** Shown on the label's line, at its end (a link, the available balance). */
  labelAside?: ReactNode;
  labelRowClassName?: string;
  /** Shown between the control (and hint) and the message. */
  after?: ReactNode;
  /** Reshapes what is typed before it is kept (digits only, a formatted code). */
  transform?: (typed: string) => string;
  className?: string;
  children?: (control: TFieldControl) => ReactNode;
}) {
  const layer = useFormLayer();
  const generated = useId();
  const fieldId = id ?? generated;
  const ownHintId = hintId ?? `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  const { field } = useController({ name });
  const message = useFieldMessage(name);
  const pointsAt = layer.summary ? layer.formErrorId : (messageId ?? errorId);

  const control: TFieldControl = {
    id: fieldId,
    name,
    value: typeof field.value === 'string' ? field.value : '',
    onChange: (event) =>
      field.onChange(transform ? transform(event.target.value) : event.target.value),
    onBlur: field.onBlur,
    'aria-invalid': message ? true : undefined,
    'aria-describedby':
      cn(...describedBy, hint ? ownHintId : null, message ? pointsAt : null) || undefined,
  };

  const labelElement = <Label htmlFor={fieldId}>{label}</Label>;
  return (
    <div className={className}>
      {labelAside ? (
        <div className={labelRowClassName}>
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      {children ? children(control) : <Input {...inputProps} {...control} />}
      {hint ? (
        <p id={ownHintId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {after}
      {layer.summary || messageId ? null : <FieldError id={errorId} message={message} />}
    </div>
  );
}
