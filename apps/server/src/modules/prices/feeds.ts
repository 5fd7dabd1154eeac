/**
 * The two outside services prices come from. Each call is bounded by a timeout so a slow
 * feed can never hold up a request or the refresh loop.
 */
const DECIMAL = /^\d{1,12}(\.\d{1,18})?$/;
const SIGNED_DECIMAL = /^-?\d{1,6}(\.\d{1,12})?$/;

export type TickerQuote = { price: string; change24hPct: string | null };

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.json();
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** A positive decimal string as the feed wrote it, or an error: a price is never guessed. */
function decimalField(value: unknown, key: string): string {
  const raw = field(value, key);
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !DECIMAL.test(text) || !/[1-9]/.test(text)) {
    throw new Error(`the feed's ${key} is not a positive decimal`);
  }
  return text;
}

/** One exchange ticker, e.g. `BTCUSDT`: `lastPrice` (or `price`) and `priceChangePercent`. */
export async function fetchTicker(
  baseUrl: string,
  symbol: string,
  timeoutMs: number,
): Promise<TickerQuote> {
  const url = new URL(baseUrl);
  url.searchParams.set('symbol', symbol);
  const body = await getJson(url.toString(), timeoutMs);
  const price = decimalField(body, field(body, 'lastPrice') !== undefined ? 'lastPrice' : 'price');
  const change = field(body, 'priceChangePercent');
  const changeText = typeof change === 'number' ? String(change) : change;
  return {
    price,
    change24hPct:
      typeof changeText === 'string' && SIGNED_DECIMAL.test(changeText) ? changeText : null,
  };
}

/** USD per 1 AUD from an exchange-rate service with AUD as the base. */
export async function fetchAudUsd(url: string, timeoutMs: number): Promise<string> {
  const body = await getJson(url, timeoutMs);
  return decimalField(field(body, 'rates'), 'USD');
}
