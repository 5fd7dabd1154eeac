import { spawn } from 'node:child_process';

/**
 * The browser suite in shards run side by side, each a whole Playwright run with its own
 * server, database, outbox and ports (`ports.ts`): the suite is mostly waiting on pages,
 * so two shards on two cores take little more than half the time of one. Tests stay
 * serial inside a shard, as they share their server's settings. `E2E_SHARDS` sets how
 * many (1 runs the suite as one); arguments go to every shard (`-- e2e/x.spec.ts`).
 */

const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const args = process.argv.slice(2);

function run(index: number): Promise<number> {
  const env =
    shards === 1
      ? process.env
      : {
          ...process.env,
          E2E_PORT: String(3210 + index * 10),
          E2E_PG_PORT: String(54390 + index * 10),
          E2E_DATA_DIR: `test-results/e2e-data-${index + 1}`,
          E2E_OUTPUT_DIR: `test-results/shard-${index + 1}`,
        };
  const shardArgs = shards === 1 ? [] : [`--shard=${index + 1}/${shards}`];
  const child = spawn('npx', ['playwright', 'test', ...shardArgs, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = shards === 1 ? '' : `[${index + 1}/${shards}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
    });
    stream.on('end', () => {
      if (rest) process.stdout.write(`${prefix}${rest}\n`);
    });
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const codes = await Promise.all(Array.from({ length: shards }, (_, i) => run(i)));
const failed = codes.filter((c) => c !== 0).length;
if (failed > 0) {
  process.stdout.write(`${failed} of ${shards} browser-test shards failed\n`);
  process.exit(1);
}
