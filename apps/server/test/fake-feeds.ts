import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeFeedMode = 'ok' | 'fail' | 'slow' | 'garbage';

/**
 * A local stand-in for the exchange ticker and the exchange-rate service, which tests
 * cannot reach: it answers like them, and each test sets the prices, a failure, a slow
 * answer or nonsense.
 */
export async function startFakeFeeds() {
  const state = {
    mode: 'ok' as FakeFeedMode,
    slowMs: 10_000,
    tickers: {
      BTCUSDT: { lastPrice: '65000.00', priceChangePercent: '2.50' },
      ETHUSDT: { lastPrice: '3000.00', priceChangePercent: '-1.25' },
    } as Record<string, { lastPrice: string; priceChangePercent?: string }>,
    audUsd: '0.6543',
    fxMode: 'ok' as FakeFeedMode,
    requests: 0,
  };
  const server = http.createServer((req, res) => {
    state.requests++;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const isFx = url.pathname.startsWith('/fx');
    const mode = isFx ? state.fxMode : state.mode;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const answer = () => {
      if (mode === 'fail') return send(503, { error: 'unavailable' });
      if (mode === 'garbage') return send(200, { lastPrice: 'NaN', rates: { USD: '-1' } });
      if (isFx) return send(200, { base: 'AUD', rates: { USD: state.audUsd, EUR: '0.6' } });
      const ticker = state.tickers[url.searchParams.get('symbol') ?? ''];
      return ticker
        ? send(200, { symbol: url.searchParams.get('symbol'), ...ticker })
        : send(400, { msg: 'Invalid symbol.' });
    };
    if (mode === 'slow') setTimeout(answer, state.slowMs).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    priceFeedUrl: `http://127.0.0.1:${port}/api/v3/ticker/24hr`,
    fxFeedUrl: `http://127.0.0.1:${port}/fx/latest/AUD`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
