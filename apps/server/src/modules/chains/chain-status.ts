import type pg from 'pg';
import { SETTING_DEFAULTS } from '../settings';
import type { ChainAdapter, ChainName } from './chain-adapter';
import { CONFIRMATIONS_SETTING, symbolNetworksOf } from './chain-assets';
import type { ChainConfigs } from './chain-config';
import { chainCursorsRepository } from './chain-cursors.repository';
import { chainStatusRepository } from './chain-status.repository';
import { PAYOUT_PROBLEM_PREFIX } from './chain-watch-errors.repository';
import { watchedAddressesRepository } from './watched-addresses.repository';

/** Every chain Coffer can watch, in the order the screen and the CLI list them. */
export const CHAIN_NAMES: readonly ChainName[] = ['bitcoin', 'ethereum', 'tron'];

export const CHAIN_LABELS: Record<ChainName, string> = {
  bitcoin: 'Bitcoin',
  ethereum: 'Ethereum',
  tron: 'TRON',
};

/**
 * A watcher whose latest recorded event is a failure this recent is failing. The watcher's
 * backoff tops out at a minute, so a node that stays down keeps its last error younger than
 * this; an older last error with nothing since means the watcher went quiet (see STALE).
 */
export const FAILING_WINDOW_MS = 10 * 60_000;

/**
 * This many failures in the last hour is a failing node even when polls succeed in between:
 * about one failed poll in every two minutes means deposits are seen late and unreliably.
 */
export const PERSISTENT_ERRORS_PER_HOUR = 30;

/**
 * A watcher polls every few seconds (jobs.ts) and touches its cursor on every poll. No poll
 * for this long means no instance runs the chain's job (stopped, or its lock is stuck).
 */
export const STALE_AFTER_MS = 5 * 60_000;

export type ChainState = 'ok' | 'lagging' | 'failing' | 'not-started';

export type ChainStatus = {
  chain: ChainName;
  /** The node's tip as last seen, and the last block the watcher processed. */
  nodeTip: number | null;
  height: number | null;
  /** Blocks the watcher is behind the node. */
  lag: number | null;
  lastBlockAt: Date | null;
  /** When the watcher last touched its cursor: a poll, successful or not. */
  lastPollAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  /** The watcher's failures in the last hour. */
  errorsLastHour: number;
  watchedAddresses: number;
  /** Deposits seen and not yet credited, and credited ones that left the chain (for staff). */
  confirming: number;
  reversedOnChain: number;
  /**
   * Completed payouts whose transaction left the chain for good ('reversed-on-chain': never
   * paid again by Coffer alone, staff decide), and the first ten of them.
   */
  reversedPayouts: number;
  reversedPayoutIds: string[];
  /**
   * Payout problems of the last hour (a settlement that failed and was undone alone while
   * the watcher went on, a nonce gap, a typed hash that expired), and the latest.
   */
  payoutProblemsLastHour: number;
  lastPayoutProblem: string | null;
  lastPayoutProblemAt: Date | null;
  requiredConfirmations: number | null;
  state: ChainState;
  /** One line saying why the state is what it is, for staff. */
  reason: string;
};

function minutes(ms: number): string {
  const m = Math.max(1, Math.round(ms / 60_000));
  return `${m} minute${m === 1 ? '' : 's'}`;
}

function blocks(n: number): string {
  return `${n} block${n === 1 ? '' : 's'}`;
}

/** The state from the recorded figures; `now` is the database's clock, as the figures are. */
export function stateOf(
  c: Pick<
    ChainStatus,
    | 'height'
    | 'lag'
    | 'lastPollAt'
    | 'lastError'
    | 'lastErrorAt'
    | 'errorsLastHour'
    | 'requiredConfirmations'
  >,
  now: Date,
): { state: ChainState; reason: string } {
  const errorAge = c.lastErrorAt ? now.getTime() - c.lastErrorAt.getTime() : null;
  const recentError = errorAge !== null && errorAge <= FAILING_WINDOW_MS;
  if (c.height === null) {
    // No cursor: the watcher never got as far as the node's tip.
    if (recentError) {
      return {
        state: 'failing',
        reason: `The watcher cannot start: ${c.lastError ?? 'the node did not answer'}`,
      };
    }
    return {
      state: 'not-started',
      reason: "The watcher has not run yet: it starts with the server's background jobs.",
    };
  }
  // A failure writes the cursor's error time and its poll time together; any later poll that
  // reached the node moves the poll time on. So "no later poll" means the failure is current.
  const failedLast =
    c.lastErrorAt !== null &&
    c.lastPollAt !== null &&
    c.lastErrorAt.getTime() >= c.lastPollAt.getTime();
  if (failedLast && recentError) {
    return {
      state: 'failing',
      reason: `The last poll failed ${minutes(errorAge ?? 0)} ago: ${c.lastError ?? 'unknown error'}`,
    };
  }
  if (recentError && c.errorsLastHour >= PERSISTENT_ERRORS_PER_HOUR) {
    return {
      state: 'failing',
      reason: `${c.errorsLastHour} failed polls in the last hour: the node answers only some of the time.`,
    };
  }
  const silentFor = c.lastPollAt ? now.getTime() - c.lastPollAt.getTime() : null;
  if (silentFor !== null && silentFor > STALE_AFTER_MS) {
    return {
      state: 'lagging',
      reason: `No poll for ${minutes(silentFor)}: is the server running its background jobs?`,
    };
  }
  // A deposit needs this many blocks anyway; further behind than that, customers wait longer
  // than the setting says. A block or two behind between polls is normal.
  const allowed = Math.max(1, c.requiredConfirmations ?? 1);
  if (c.lag !== null && c.lag > allowed) {
    return {
      state: 'lagging',
      reason: `${blocks(c.lag)} behind the node, more than the ${blocks(allowed)} a deposit needs: deposits are credited late.`,
    };
  }
  return {
    state: 'ok',
    reason:
      c.lag === null || c.lag === 0
        ? 'Following the node: up to date.'
        : `Following the node: ${blocks(c.lag)} behind.`,
  };
}

/** How one watched chain stands, from its rows. */
async function statusOf(
  pool: pg.Pool,
  adapter: Pick<ChainAdapter, 'chain' | 'assets'>,
): Promise<ChainStatus> {
  const chain = adapter.chain;
  const c = await chainCursorsRepository.cursor(pool, chain);
  const k = await chainStatusRepository.statusCounts(pool, chain, CONFIRMATIONS_SETTING[chain]);
  // Counted in SQL by the match keys the watcher itself looks payees up by (migration 0011):
  // an address not in the chain's format has none, and ETH and USDT-ERC20 share one. A new
  // address counts once the watcher's next poll has keyed it.
  const watched = await watchedAddressesRepository.watchedCount(
    pool,
    symbolNetworksOf(adapter.assets),
  );
  const requiredText =
    k.required ?? SETTING_DEFAULTS.find((d) => d.key === CONFIRMATIONS_SETTING[chain])?.value;
  const required = requiredText === undefined ? null : Number(requiredText);
  const height = c ? c.height : null;
  const nodeTip = c ? c.node_tip : null;
  const figures = {
    chain,
    nodeTip,
    height,
    lag: height !== null && nodeTip !== null ? Math.max(0, nodeTip - height) : null,
    lastBlockAt: c?.last_block_at ?? null,
    lastPollAt: c?.updated_at ?? null,
    // Without a cursor the failures are only in the error log (a node never reached).
    lastError: c ? c.last_error : k.latest_error,
    lastErrorAt: c ? c.last_error_at : k.latest_error_at,
    errorsLastHour: k.errors,
    watchedAddresses: watched,
    confirming: k.confirming,
    reversedOnChain: k.reversed,
    reversedPayouts: k.payouts_reversed,
    reversedPayoutIds: k.payouts_reversed_ids,
    payoutProblemsLastHour: k.payout_problems,
    lastPayoutProblem: k.payout_problem?.slice(PAYOUT_PROBLEM_PREFIX.length) ?? null,
    lastPayoutProblemAt: k.payout_problem_at,
    requiredConfirmations: required !== null && Number.isFinite(required) ? required : null,
  };
  return { ...figures, ...stateOf(figures, k.db_now) };
}

/** How each watched chain stands, for `chain-status`, the Chains screen and the dashboard. */
export async function chainStatus(
  pool: pg.Pool,
  adapters: readonly Pick<ChainAdapter, 'chain' | 'assets'>[],
): Promise<ChainStatus[]> {
  const out: ChainStatus[] = [];
  for (const adapter of adapters) out.push(await statusOf(pool, adapter));
  return out;
}

/** One environment variable as staff may see it: never a secret. */
export type ConfigItem = { name: string; value: string | null };

/**
 * A node URL without what may be a secret: the user and password, the query string (API
 * keys) and the path (providers put keys there too, e.g. `/v3/<key>`) are left out.
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const hidden: string[] = [];
    if (u.username || u.password) hidden.push('credentials');
    if (u.pathname !== '/' && u.pathname !== '') hidden.push('path');
    if (u.search) hidden.push('query');
    return `${u.protocol}//${u.host}${hidden.length > 0 ? ` (${hidden.join(', ')} hidden)` : ''}`;
  } catch {
    return '(not a URL)';
  }
}

/** An extended public key's start and end: enough to tell which key it is. */
export function shortKey(key: string): string {
  return key.length <= 20 ? key : `${key.slice(0, 8)}…${key.slice(-6)}`;
}

/** Which variables configure a chain, as set (redacted) or not. */
export function chainConfiguration(configs: ChainConfigs, chain: ChainName): ConfigItem[] {
  if (chain === 'bitcoin') {
    const c = configs.bitcoin;
    return [
      { name: 'BTC_RPC_URL', value: c ? redactUrl(c.rpcUrl) : null },
      { name: 'BTC_XPUB', value: c ? shortKey(c.xpub) : null },
      { name: 'BTC_NETWORK', value: configs.bitcoinNetwork },
    ];
  }
  if (chain === 'ethereum') {
    const c = configs.ethereum;
    return [
      { name: 'ETH_RPC_URL', value: c ? redactUrl(c.rpcUrl) : null },
      { name: 'ETH_XPUB', value: c ? shortKey(c.xpub) : null },
      { name: 'USDT_ERC20_CONTRACT', value: c ? c.usdtContract : null },
    ];
  }
  const c = configs.tron;
  return [
    { name: 'TRON_API_URL', value: c ? redactUrl(c.apiUrl) : null },
    { name: 'TRON_XPUB', value: c ? shortKey(c.xpub) : null },
    { name: 'USDT_TRC20_CONTRACT', value: c ? c.usdtContract : null },
    // A secret: only whether it is there.
    { name: 'TRON_API_KEY', value: c?.apiKey ? 'set' : null },
  ];
}

export type ChainOverview =
  | (ChainStatus & { configured: true; configuration: ConfigItem[] })
  | {
      chain: ChainName;
      configured: false;
      state: 'not-configured';
      reason: string;
      configuration: ConfigItem[];
    };

export const NOT_CONFIGURED_REASON = 'Not configured: deposits are credited by staff.';

/** Every chain: the watched ones with their status, the others as not configured. */
export async function chainsOverview(
  pool: pg.Pool,
  adapters: readonly Pick<ChainAdapter, 'chain' | 'assets'>[],
  configs: ChainConfigs,
): Promise<ChainOverview[]> {
  const statuses = await chainStatus(pool, adapters);
  return CHAIN_NAMES.map((chain): ChainOverview => {
    const configuration = chainConfiguration(configs, chain);
    const status = statuses.find((s) => s.chain === chain);
    return status
      ? { ...status, configured: true, configuration }
      : {
          chain,
          configured: false,
          state: 'not-configured',
          reason: NOT_CONFIGURED_REASON,
          configuration,
        };
  });
}

/** One chain's lines of `chain-status`. */
export function formatChainStatus(c: ChainStatus): string {
  const at = (d: Date | null) => (d ? d.toISOString() : 'never');
  const n = (v: number | null) => (v === null ? 'unknown' : String(v));
  return [
    `${c.chain}: ${c.state.toUpperCase()}: ${c.reason}`,
    `  node tip:           ${n(c.nodeTip)}`,
    `  watcher height:     ${c.height === null ? 'not started' : c.height}`,
    `  lag:                ${c.lag === null ? 'unknown' : `${c.lag} block(s)`}`,
    `  last block time:    ${at(c.lastBlockAt)}`,
    `  last poll:          ${at(c.lastPollAt)}`,
    `  errors, last hour:  ${c.errorsLastHour}${c.errorsLastHour > 0 ? ` (last at ${at(c.lastErrorAt)}: ${c.lastError})` : ''}`,
    `  watched addresses:  ${c.watchedAddresses}`,
    `  awaiting confirmations: ${c.confirming} deposit(s) (${n(c.requiredConfirmations)} needed)`,
    ...(c.reversedOnChain > 0
      ? [`  ALERT: ${c.reversedOnChain} credited deposit(s) left the chain; see the audit log`]
      : []),
    ...(c.reversedPayouts > 0
      ? [
          `  ALERT: ${c.reversedPayouts} completed payout(s) reversed on chain (their transaction left the chain; not paid again until staff re-send or return them on the Payouts screen): ${c.reversedPayoutIds.join(', ')}${c.reversedPayouts > c.reversedPayoutIds.length ? ', …' : ''}`,
        ]
      : []),
    ...(c.payoutProblemsLastHour > 0
      ? [
          `  ALERT: ${c.payoutProblemsLastHour} payout problem(s) in the last hour (last at ${at(c.lastPayoutProblemAt)}: ${c.lastPayoutProblem})`,
        ]
      : []),
  ].join('\n');
}

function formatConfiguration(items: ConfigItem[]): string[] {
  return items.map((i) => `  ${`${i.name}:`.padEnd(20)}${i.value ?? 'not set'}`);
}

/** `chain-status` as printed: every chain, watched or not, with its configuration. */
export function formatChainsOverview(chains: ChainOverview[]): string {
  const parts = chains.map((c) =>
    c.configured
      ? [formatChainStatus(c), '  configuration:', ...formatConfiguration(c.configuration)].join(
          '\n',
        )
      : [`${c.chain}: ${c.reason}`, ...formatConfiguration(c.configuration)].join('\n'),
  );
  const head = chains.some((c) => c.configured)
    ? []
    : [
        'No chain is watched: none is configured (see "Watching chains" in the README). Deposits are credited by hand.',
      ];
  return [...head, ...parts].join('\n\n');
}

/**
 * What the admin dashboard's health lists about the chains: each lagging or failing watcher,
 * payout problems of the last hour, completed payouts that left their chain, and the
 * credited deposits that left their chain (of any chain, watched now or not). Each
 * line starts with "Chain", which the dashboard links to the Chains screen.
 */
export async function chainProblems(
  pool: pg.Pool,
  adapters: readonly Pick<ChainAdapter, 'chain' | 'assets'>[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const c of await chainStatus(pool, adapters)) {
    if (c.state === 'lagging' || c.state === 'failing') {
      problems.push(`Chain ${CHAIN_LABELS[c.chain]} ${c.state}: ${c.reason}`);
    }
    if (c.payoutProblemsLastHour > 0) {
      problems.push(
        `Chain ${CHAIN_LABELS[c.chain]} payouts: ${c.payoutProblemsLastHour} problem${c.payoutProblemsLastHour === 1 ? '' : 's'} in the last hour: ${c.lastPayoutProblem}`,
      );
    }
  }
  const reversedPayouts = await chainStatusRepository.reversedPayoutCount(pool);
  if (reversedPayouts > 0) {
    problems.push(
      `Chain payouts: ${reversedPayouts} completed payout${reversedPayouts === 1 ? '' : 's'} left the blockchain; not paid again, staff must re-send or return ${reversedPayouts === 1 ? 'it' : 'them'} on the Payouts screen`,
    );
  }
  const reversed = await chainStatusRepository.reversedCount(pool);
  if (reversed > 0) {
    problems.push(
      `Chain deposits: ${reversed} credited deposit${reversed === 1 ? '' : 's'} left the blockchain; not debited, staff must resolve ${reversed === 1 ? 'it' : 'them'}`,
    );
  }
  return problems;
}
