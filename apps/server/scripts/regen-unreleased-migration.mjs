// Development aid while the ledger migration (0001) has not been released: regenerates it
// from the schema files, then appends the wallet backfill. Delete this script once 0001 is
// released; from then on migrations are only ever added.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve(import.meta.dirname, '..');
const journalFile = path.join(dir, 'drizzle/meta/_journal.json');
const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
journal.entries = journal.entries.filter((e) => e.idx === 0);
fs.writeFileSync(journalFile, `${JSON.stringify(journal, null, 2)}\n`);
for (const f of ['drizzle/0001_ledger.sql', 'drizzle/meta/0001_snapshot.json'])
  fs.rmSync(path.join(dir, f), { force: true });
execFileSync('npx', ['drizzle-kit', 'generate', '--name', 'ledger'], {
  cwd: dir,
  stdio: 'inherit',
});
fs.appendFileSync(
  path.join(dir, 'drizzle/0001_ledger.sql'),
  fs.readFileSync(path.join(dir, 'scripts/0001-backfill.sql')),
);
