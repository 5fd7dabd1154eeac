import { CustomerText } from '@web/components/ui/customer-text';
import { ScrollRegion } from '@web/components/ui/scroll-region';

/** A value from the log as text: strings as they are, everything else as compact JSON. */
function show(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  return JSON.stringify(value);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Before and after, readably (values a customer wrote, such as a name or an address, are
 * isolated with their hidden characters shown): for two objects (or one and nothing) a row per field, the
 * changed fields marked; anything else side by side as text.
 */
export function AuditChanges({ before, after }: { before: unknown; after: unknown }) {
  if (before == null && after == null)
    return <p className="text-sm text-muted">No values recorded.</p>;
  if ((isRecord(before) || before == null) && (isRecord(after) || after == null)) {
    const b = before ?? {};
    const a = after ?? {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
    return (
      <ScrollRegion label="Changes">
        <table className="w-full min-w-[18rem] text-left text-xs">
          <thead className="text-muted">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                Field
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                Before
              </th>
              <th scope="col" className="py-1 font-medium">
                After
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => {
              const from = show(b[key]);
              const to = show(a[key]);
              const differs = from !== to;
              return (
                <tr key={key} className="border-t border-border align-top">
                  <th scope="row" className="py-1 pr-3 font-mono font-normal text-fg">
                    {key}
                  </th>
                  <td className="break-all py-1 pr-3 font-mono text-muted">
                    {differs ? (
                      <del className="decoration-danger/60">
                        <CustomerText text={from} />
                      </del>
                    ) : (
                      <CustomerText text={from} />
                    )}
                  </td>
                  <td className="break-all py-1 font-mono text-fg">
                    {differs ? (
                      <ins className="font-semibold no-underline">
                        <CustomerText text={to} />
                      </ins>
                    ) : (
                      <CustomerText text={to} />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
    );
  }
  return (
    <dl className="grid gap-1 text-xs sm:grid-cols-2">
      <div>
        <dt className="text-muted">Before</dt>
        <dd className="font-mono text-fg">
          <CustomerText text={show(before)} />
        </dd>
      </div>
      <div>
        <dt className="text-muted">After</dt>
        <dd className="font-mono text-fg">
          <CustomerText text={show(after)} />
        </dd>
      </div>
    </dl>
  );
}
