export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Lone UTF-16 surrogates: PostgreSQL would store them as U+FFFD, so they are replaced first. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * A value as it will come back out of a jsonb column: Dates as ISO strings, bigints (money
 * in minor units) as decimal strings, undefined members dropped, strings well-formed.
 */
export function toJsonValue(value: unknown): JsonValue {
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'string') return wellFormed(v);
    return v;
  });
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

/**
 * One spelling per JSON value: object keys sorted (by UTF-16 code units), no whitespace,
 * numbers and strings as JSON.stringify writes them. jsonb keeps neither key order nor
 * spacing, so a hash over a jsonb value is only stable over this form.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`);
  return `{${members.join(',')}}`;
}
