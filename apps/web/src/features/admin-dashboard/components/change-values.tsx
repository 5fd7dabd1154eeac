import { CustomerText } from '@web/components/ui/customer-text';
import { cn } from '@web/lib/cn';

type TValues = Record<string, unknown> | null;

/** 'newBalance', 'deposit_address', 'is-active' → 'New balance', 'Deposit address', 'Is active'. */
export function wordsOf(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A value as plain text: what a proposal stores is JSON, shown as it is. */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function ValueList({
  title,
  values,
  keys,
  changed,
}: {
  title: string;
  values: TValues;
  keys: readonly string[];
  /** Keys whose value differs between before and after: marked on the After side. */
  changed?: ReadonlySet<string>;
}) {
  return (
    <div className="min-w-0 rounded-lg border border-border bg-surface-2/50 p-3">
      <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">{title}</p>
      {values === null ? (
        <p className="text-sm text-muted">
          {title === 'Before' ? 'Nothing (new)' : 'Nothing (removed)'}
        </p>
      ) : (
        <dl className="space-y-1.5 text-sm">
          {keys.map((key) => {
            const marked = changed?.has(key) ?? false;
            return (
              <div key={key} className="min-w-0">
                <dt className="text-xs text-muted">{wordsOf(key)}</dt>
                <dd
                  className={cn(
                    'font-mono text-fg',
                    marked && 'font-semibold',
                    !(key in values) && 'text-muted',
                  )}
                >
                  <CustomerText
                    text={key in values ? textOf(values[key]) : '—'}
                    className={cn(marked && 'rounded bg-primary/10 px-1')}
                  />
                  {marked ? <span className="sr-only"> (changed)</span> : null}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </div>
  );
}

/**
 * What a change does, before and after side by side (one above the other on a phone): the
 * same keys on both sides, the ones it changes marked.
 */
export function BeforeAfter({ before, after }: { before: TValues; after: TValues }) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  // What the change sets: a value the After side holds and the Before side does not.
  const changed = new Set(
    keys.filter((k) => after !== null && k in after && textOf(before?.[k]) !== textOf(after[k])),
  );
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <ValueList title="Before" values={before} keys={keys} />
      <ValueList title="After" values={after} keys={keys} changed={changed} />
    </div>
  );
}
