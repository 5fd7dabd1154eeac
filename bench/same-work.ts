/**
 * Same-work yardsticks: the SQL statements Coffer runs for one request, recorded as it
 * serves it, then replayed by a bare Fastify handler on the same pool. The route's figure
 * over its yardstick's is then what Coffer's own layers cost (cookie, gate, hooks,
 * validation, serialisation), the database's work being the same on both sides.
 */
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';

type Statement = { text: string; values: unknown[]; name?: string };
/** Statements the app had in flight together run together again; a client's run in turn. */
type Step = { kind: 'pool'; statements: Statement[] } | { kind: 'client'; statements: Statement[] };

type QueryFn = (config: unknown, values?: unknown) => Promise<pg.QueryResult>;
type Queryable = { query: QueryFn };

function statementOf(config: unknown, values: unknown): Statement {
  if (typeof config === 'string') return { text: config, values: (values as unknown[]) ?? [] };
  const c = config as { text: string; values?: unknown[]; name?: string };
  return { text: c.text, values: c.values ?? (values as unknown[]) ?? [], name: c.name };
}

/**
 * Wraps the pool so that, while `record` runs one request, every statement it sends is
 * kept, with which were in flight together and which ran on a checked-out client.
 */
export function statementRecorder(pool: pg.Pool) {
  type Entry = { statement: Statement; batch: number; client: number | null };
  let log: Entry[] | null = null;
  let inFlight = 0;
  let batch = 0;
  let clients = 0;

  const wrap = (target: Queryable, client: number | null) => {
    const original = target.query.bind(target);
    target.query = (config, values) => {
      if (!log) return original(config, values);
      if (inFlight === 0) batch++;
      log.push({ statement: statementOf(config, values), batch, client });
      inFlight++;
      return original(config, values).finally(() => {
        inFlight--;
      });
    };
  };
  wrap(pool as unknown as Queryable, null);
  const connect = pool.connect.bind(pool) as (cb?: unknown) => Promise<pg.PoolClient>;
  (pool as unknown as { connect: (cb?: unknown) => unknown }).connect = (cb?: unknown) => {
    // pg's own pool.query checks a client out with a callback: that path stays as it is (its
    // statement is recorded by the query wrapper above); only a caller's own client is.
    if (typeof cb === 'function') return connect(cb);
    return connect().then((client) => {
      if (!log) return client;
      // A checked-out client: its statements are replayed on one client, in their order.
      const id = ++clients;
      const plain = client.query.bind(client) as unknown as QueryFn;
      const recorded: Queryable = { query: plain };
      wrap(recorded, id);
      const release = client.release.bind(client);
      (client as unknown as Queryable).query = recorded.query;
      client.release = (err?: Error | boolean) => {
        (client as unknown as Queryable).query = plain;
        release(err);
      };
      return client;
    });
  };

  return {
    /** The statements `request` sent, as the steps a yardstick replays. */
    async record(request: () => Promise<unknown>): Promise<Step[]> {
      log = [];
      try {
        await request();
      } finally {
        inFlight = 0;
      }
      const entries = log;
      log = null;
      const steps: Array<Step & { batch?: number }> = [];
      const seenClients = new Set<number>();
      for (const e of entries) {
        if (e.client !== null) {
          if (seenClients.has(e.client)) continue;
          seenClients.add(e.client);
          const own = entries.filter((x) => x.client === e.client).map((x) => x.statement);
          steps.push({ kind: 'client', statements: own });
          continue;
        }
        const last = steps.at(-1);
        if (last?.kind === 'pool' && last.batch === e.batch) last.statements.push(e.statement);
        else steps.push({ kind: 'pool', statements: [e.statement], batch: e.batch });
      }
      return steps.map(({ kind, statements }) => ({ kind, statements }) as Step);
    },
  };
}

/**
 * Registers GET `url` on the bare app: runs the recorded steps and answers every row they
 * read, as Fastify serializes a plain value. A handler has to send what it read; answering
 * only the last statement's rows (a history page's "is there a page before?" check) would
 * leave the page's own rows unsent and make the yardstick lighter than the work.
 */
export function sameWorkRoute(bare: FastifyInstance, pool: pg.Pool, url: string, steps: Step[]) {
  const run = (db: Queryable, s: Statement) =>
    db.query(
      s.name
        ? { name: s.name, text: s.text, values: s.values }
        : { text: s.text, values: s.values },
    );
  bare.get(url, async () => {
    const rows: unknown[][] = [];
    for (const step of steps) {
      if (step.kind === 'pool') {
        const results = await Promise.all(
          step.statements.map((s) => run(pool as unknown as Queryable, s)),
        );
        for (const result of results) rows.push(result.rows ?? []);
      } else {
        const client = await pool.connect();
        try {
          for (const s of step.statements) {
            rows.push((await run(client as unknown as Queryable, s)).rows ?? []);
          }
        } finally {
          client.release();
        }
      }
    }
    return rows;
  });
}

export type { Step as SameWorkStep };
