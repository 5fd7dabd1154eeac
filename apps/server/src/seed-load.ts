import type pg from 'pg';
import { hashPassword } from './lib/password';

export type SeedLoadOptions = { customers: number; transactions: number; heavy: number };

export const LOAD_EMAIL_DOMAIN = 'load.coffer.test';
/** The customer who gets `heavy` of the transactions (the history benchmark reads theirs). */
const FIRST_NAMES = [
  'Ava',
  'Liam',
  'Olivia',
  'Noah',
  'Emma',
  'Oliver',
  'Charlotte',
  'Elijah',
  'Amelia',
  'James',
  'Sophia',
  'William',
  'Isabella',
  'Benjamin',
  'Mia',
  'Lucas',
  'Evelyn',
  'Henry',
  'Harper',
  'Theodore',
  'Aiko',
  'Hiroshi',
  'Mei',
  'Wei',
  'Priya',
  'Arjun',
  'Ananya',
  'Rohan',
  'Fatima',
  'Omar',
  'Layla',
  'Yusuf',
  'Zara',
  'Ibrahim',
  'Amara',
  'Kwame',
  'Chloe',
  'Jack',
  'Ruby',
  'Thomas',
  'Matilda',
  'Lachlan',
  'Isla',
  'Cooper',
  'Sienna',
  'Harrison',
  'Grace',
  'Archie',
  'Ivy',
  'Hamish',
  'Lucia',
  'Mateo',
  'Valentina',
  'Santiago',
  'Camila',
  'Diego',
  'Sofia',
  'Javier',
  'Elena',
  'Pablo',
  'Anna',
  'Lukas',
  'Lena',
  'Felix',
  'Marie',
  'Jonas',
  'Clara',
  'Paul',
  'Greta',
  'Emil',
  'Freya',
  'Magnus',
  'Astrid',
  'Erik',
  'Ingrid',
  'Nils',
  'Sanna',
  'Oskar',
  'Linnea',
  'Axel',
  'Chiara',
  'Luca',
  'Giulia',
  'Marco',
  'Aurora',
  'Matteo',
  'Nadia',
  'Dmitri',
  'Katya',
  'Ivan',
  'Zoe',
  'Leo',
  'Nora',
  'Hugo',
  'Alice',
  'Louis',
  'Iris',
  'Jules',
  'Maya',
  'Eli',
];
const LAST_NAMES = [
  'Smith',
  'Nguyen',
  'Williams',
  'Brown',
  'Wilson',
  'Taylor',
  'Johnson',
  'White',
  'Martin',
  'Anderson',
  'Thompson',
  'Tran',
  'Walker',
  'Harris',
  'Lee',
  'Ryan',
  'Robinson',
  'Kelly',
  'King',
  'Davis',
  'Wright',
  'Evans',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Patel',
  'Khan',
  'Singh',
  'Sharma',
  'Chen',
  'Wang',
  'Li',
  'Zhang',
  'Liu',
  'Kim',
  'Park',
  'Choi',
  'Tanaka',
  'Suzuki',
  'Sato',
  'Watanabe',
  'Garcia',
  'Rodriguez',
  'Martinez',
  'Lopez',
  'Gonzalez',
  'Perez',
  'Sanchez',
  'Ramirez',
  'Torres',
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Bianchi',
  'Romano',
  'Colombo',
  'Muller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Johansson',
  'Andersson',
  'Karlsson',
  'Nilsson',
  'Eriksson',
  'Larsson',
  'Olsen',
  'Hansen',
  'Jensen',
  'Nielsen',
  'Novak',
  'Kowalski',
  'Nowak',
  'Horvat',
  'Ivanov',
  'Petrov',
  'Popescu',
  'Papadopoulos',
  'Yilmaz',
  'Kaya',
  'Okafor',
  'Mensah',
  'Haddad',
  'Nasser',
  'Cohen',
  'Levi',
  'Murphy',
  'Byrne',
  'Dubois',
  'Moreau',
];

export const HEAVY_EMAIL = `heavy@${LOAD_EMAIL_DOMAIN}`;

/**
 * Fills the database for the benchmarks: `customers` verified accounts with their four
 * wallets and `transactions` ledger rows, `heavy` of them for one customer. Rows are made
 * by PostgreSQL itself (generate_series), and the wallet balances are then set to the sums
 * of their rows, so the ledger reconciles exactly as real data would.
 */
export async function seedLoad(pool: pg.Pool, opts: SeedLoadOptions): Promise<string> {
  const existing = await pool.query('SELECT 1 FROM users WHERE email = $1', [HEAVY_EMAIL]);
  if (existing.rowCount) return 'The load data is already there.';
  const passwordHash = await hashPassword('Load-test-1');
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO users (email, password_hash, email_verified_at)
       SELECT CASE WHEN i = 1 THEN $2 ELSE 'customer' || i || '@' || $3 END, $1, now()
         FROM generate_series(1, $4::int) AS i`,
      [passwordHash, HEAVY_EMAIL, LOAD_EMAIL_DOMAIN, opts.customers],
    );
    await client.query(
      // Names as varied as a real customer base's (100 first × 100 last names, each pair
      // once in 10,000), so the admin screens' text search meets realistic data.
      `INSERT INTO user_profiles (id, full_name, username, registration_date, created_at)
       SELECT id, first || ' ' || last, lower(first || '.' || last),
              now() - (random() * interval '400 days'), now()
         FROM (SELECT id, ($2::text[])[1 + n % 100] AS first, ($3::text[])[1 + (n / 100) % 100] AS last
                 FROM (SELECT id, coalesce(nullif(regexp_replace(split_part(email, '@', 1), '[^0-9]', '', 'g'), '')::int, 0) AS n
                         FROM users WHERE email LIKE '%@' || $1) numbered) named`,
      [LOAD_EMAIL_DOMAIN, FIRST_NAMES, LAST_NAMES],
    );
    await client.query(
      `INSERT INTO user_wallets (user_id, asset_id, network)
       SELECT u.id, a.asset_id, a.network FROM users u
        CROSS JOIN (VALUES ('BTC', 'bitcoin'), ('ETH', 'ethereum'), ('USDT-ERC20', 'erc20'), ('USDT-TRC20', 'trc20')) AS a(asset_id, network)
        WHERE u.email LIKE '%@' || $1`,
      [LOAD_EMAIL_DOMAIN],
    );
    // Numbered customers, so generated rows can pick one by arithmetic.
    await client.query(
      `CREATE TEMP TABLE load_users ON COMMIT DROP AS
       SELECT row_number() OVER (ORDER BY (email = $2) DESC, email) AS n, id FROM users WHERE email LIKE '%@' || $1`,
      [LOAD_EMAIL_DOMAIN, HEAVY_EMAIL],
    );
    await client.query('CREATE INDEX ON load_users (n)');
    // Mostly completed deposits, some staking rewards, some failed withdrawals (no effect).
    await client.query(
      `INSERT INTO transactions (user_id, wallet_id, transaction_type, direction, asset_id, network, crypto_amount,
         fee, usd_amount, currency, status, transaction_date, completed_at, transaction_hash)
       SELECT u.id, w.id,
              CASE WHEN g % 10 = 0 THEN 'withdrawal' WHEN g % 10 = 1 AND w.asset_id = 'ETH' THEN 'staking_reward' ELSE 'deposit' END,
              CASE WHEN g % 10 = 0 THEN 'debit' ELSE 'credit' END,
              w.asset_id, w.network,
              round((random() * 2)::numeric, 6), CASE WHEN g % 10 = 0 THEN 0.0001 ELSE 0 END,
              round((random() * 5000)::numeric, 2), 'USD',
              CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'completed' END,
              now() - (g * interval '37 seconds'), now() - (g * interval '37 seconds'),
              md5(g::text)
         FROM generate_series(1, $1::int) AS g
         JOIN load_users u ON u.n = CASE WHEN g <= $2 THEN 1 ELSE 2 + (g % ($3 - 1)) END
         JOIN user_wallets w ON w.user_id = u.id
          AND w.asset_id = (ARRAY['BTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20'])[1 + g % 4]`,
      [opts.transactions, opts.heavy, opts.customers],
    );
    await client.query(
      `UPDATE user_wallets w SET balance_crypto = s.balance
         FROM (SELECT wallet_id, SUM(crypto_amount) AS balance FROM transactions
                WHERE direction = 'credit' AND status = 'completed' GROUP BY wallet_id) s
        WHERE s.wallet_id = w.id AND w.user_id IN (SELECT id FROM load_users)`,
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  await pool.query('ANALYZE');
  return `Loaded ${opts.customers} customers and ${opts.transactions} transactions (${opts.heavy} for ${HEAVY_EMAIL}).`;
}
