import { spawn } from 'node:child_process';
import readline from 'node:readline';

/**
 * Starts a bench server script in its own process (so its load and the measuring client's
 * never share an event loop) and resolves with the JSON line it prints once it is ready.
 */
export function startChildServer<Ready>(
  script: string,
): Promise<{ ready: Ready; stop(): Promise<void> }> {
  // BENCH_CPU_PROFILE=<folder>: the server writes a V8 CPU profile there when it stops, to
  // see where a route's time goes (open it in a browser's developer tools).
  const profile = process.env.BENCH_CPU_PROFILE;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`${script} exited (${code})`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      resolve({
        ready: JSON.parse(line) as Ready,
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.on('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
