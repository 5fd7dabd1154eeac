import fs from 'node:fs';
import path from 'node:path';

/**
 * One Coffer process per data directory: the app owns its embedded database and stops a
 * leftover one at start-up, which must never be the database of another running app.
 */
export function claimDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'coffer.pid');
  fs.mkdirSync(dataDir, { recursive: true });
  if (fs.existsSync(file)) {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    let alive = false;
    try {
      alive = Number.isInteger(pid) && pid > 0 && pid !== process.pid && process.kill(pid, 0);
      // After a kill -9 the number may belong to an unrelated process by now.
      if (alive && fs.existsSync(`/proc/${pid}/cmdline`)) {
        alive = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
      }
    } catch {
      alive = false;
    }
    if (alive)
      throw new Error(`Coffer is already running with the data directory ${dataDir} (pid ${pid}).`);
  }
  fs.writeFileSync(file, String(process.pid));
  return () => fs.rmSync(file, { force: true });
}
