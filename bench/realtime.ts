/**
 * Realtime benchmark (part of `npm run bench`; alone: `node --import tsx bench/realtime.ts`):
 * N authenticated websocket clients on one server (1,000 by default), each a customer with
 * a support conversation, plus one admin socket. Messages are sent through the real HTTP
 * route at a fixed rate, spread over the rooms; each must reach its customer's socket and
 * the admin's. Prints delivery latency (send → receipt), messages lost, and the server's
 * memory per connected socket. Asserts nothing; the targets are printed beside the figures.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import WebSocket from 'ws';

const CLIENTS = Number(process.env.BENCH_REALTIME_CLIENTS ?? 1000);
const RATE = Number(process.env.BENCH_REALTIME_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_REALTIME_SECONDS ?? 30);

type Client = { userId: string; roomId: string; cookie: string };
type Ready = { port: number; adminCookie: string; clients: Client[] };
type Memory = { heapUsed: number; rss: number; external: number; connections: number; gc: boolean };

const child = spawn(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', 'bench/realtime-server.ts'],
  {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_REALTIME_CLIENTS: String(CLIENTS) },
  },
);
const childOut = child.stdout;
if (!childOut) throw new Error('no output from the realtime bench server');
const ready = await new Promise<Ready>((resolve, reject) => {
  child.on('exit', (code) => reject(new Error(`realtime bench server exited (${code})`)));
  readline.createInterface({ input: childOut }).on('line', (line) => {
    if (line.startsWith('{')) resolve(JSON.parse(line) as Ready);
  });
});
const memory = () =>
  new Promise<Memory>((resolve) => {
    child.once('message', (m) => resolve(m as Memory));
    child.send('memory');
  });
const stop = () =>
  new Promise<void>((done) => {
    child.removeAllListeners('exit');
    child.on('exit', () => done());
    child.kill('SIGTERM');
  });

const base = `127.0.0.1:${ready.port}`;
const origin = `http://${base}`;

/** messageId → when it reached the socket it was meant for (customer) and the admin's. */
const arrivedAtCustomer = new Map<string, number>();
const arrivedAtAdmin = new Map<string, number>();
let misdelivered = 0;

function connect(
  cookie: string,
  onEvent: (e: { type: string; userId: string; roomId?: string; messageId?: string }) => void,
) {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://${base}/api/realtime`, { headers: { cookie }, origin });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe' })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.type === 'ready') resolve(ws);
      else onEvent(msg.event);
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`socket closed before ready (${code})`)));
  });
}

try {
  const clients = ready.clients;
  const before = await memory();
  const sockets: WebSocket[] = [];
  // In batches, as browsers arriving over a few seconds would.
  for (let i = 0; i < clients.length; i += 50) {
    const batch = clients.slice(i, i + 50).map((c) =>
      connect(c.cookie, (e) => {
        if (e.userId !== c.userId) misdelivered++;
        else if (e.type === 'chat.message' && e.messageId)
          arrivedAtCustomer.set(e.messageId, performance.now());
      }),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  const adminSocket = await connect(ready.adminCookie, (e) => {
    if (e.type === 'chat.message' && e.messageId)
      arrivedAtAdmin.set(e.messageId, performance.now());
  });
  const after = await memory();

  console.log(
    `\nRealtime: ${clients.length.toLocaleString('en-US')} customer sockets + 1 admin socket, ${RATE} messages/s for ${SECONDS} s`,
  );

  // Each message: a customer writes in their own room through the HTTP route; the clock
  // starts just before the request and stops when the event reaches the socket.
  const sentAt = new Map<string, number>();
  let failed = 0;
  const total = RATE * SECONDS;
  const inFlight: Promise<void>[] = [];
  const startedAt = performance.now();
  for (let i = 0; i < total; i++) {
    const due = startedAt + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // A stride through the rooms: consecutive messages land in rooms far apart.
    const c = clients[(i * 7919) % clients.length] as Client;
    const t0 = performance.now();
    inFlight.push(
      fetch(`${origin}/api/chat/rooms/${c.roomId}/messages`, {
        method: 'POST',
        headers: { cookie: c.cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `bench message ${i}` }),
      })
        .then(async (res) => {
          if (!res.ok) throw new Error(String(res.status));
          const body = (await res.json()) as { messages: { id: string }[] };
          for (const m of body.messages) sentAt.set(m.id, t0);
        })
        .catch(() => {
          failed++;
        }),
    );
  }
  await Promise.all(inFlight);
  const sendSeconds = (performance.now() - startedAt) / 1000;
  // Give the last events a moment to arrive (they normally already have).
  const drainUntil = performance.now() + 5_000;
  while (
    performance.now() < drainUntil &&
    [...sentAt.keys()].some((id) => !arrivedAtCustomer.has(id) || !arrivedAtAdmin.has(id))
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }

  const latencies: number[] = [];
  let lost = 0;
  let lostAdmin = 0;
  for (const [id, t0] of sentAt) {
    const at = arrivedAtCustomer.get(id);
    if (at === undefined) lost++;
    else latencies.push(at - t0);
    if (!arrivedAtAdmin.has(id)) lostAdmin++;
  }
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    (
      latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil(p * latencies.length) - 1))] ??
      0
    ).toFixed(1);
  const perSocket = (a: number, b: number) =>
    ((b - a) / (after.connections - before.connections) / 1024).toFixed(1);

  console.log(
    `  messages sent:                ${sentAt.size} in ${sendSeconds.toFixed(1)} s (${failed} failed requests)`,
  );
  console.log(
    `  delivery latency send→receipt: p50 ${q(0.5)} ms   p99 ${q(0.99)} ms   max ${q(1)} ms`,
  );
  console.log(
    `  messages lost:                ${lost} (customer sockets), ${lostAdmin} (admin socket)`,
  );
  console.log(`  events at a foreign socket:   ${misdelivered}`);
  console.log(
    `  server memory per socket:     ${perSocket(before.heapUsed, after.heapUsed)} KB heap, ${perSocket(before.rss, after.rss)} KB RSS (${after.connections} sockets${after.gc ? ', after GC' : ''})`,
  );
  console.log('  Targets: p99 < 100 ms, 0 lost, 0 at a foreign socket.');
  for (const s of sockets) s.terminate();
  adminSocket.terminate();
} finally {
  await stop();
}
