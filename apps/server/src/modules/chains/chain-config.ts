import type { HDKey } from '@scure/bip32';
import { StartupError } from '@server/lib/startup-error';
import type { ChainAdapter, ChainName } from './chain-adapter';
import { type BitcoinNetwork, parseAccountKey } from './derive';
import { type KeyOrigin, parseKeyOrigin } from './key-origin';

export type { BitcoinNetwork } from './derive';

/**
 * Per-chain configuration from the environment (docs/decisions/0021): the node or
 * API to read the chain from, and the account-level extended **public** key addresses are
 * derived from (`…/0/i`). A chain is configured when its node URL or key is set; then both
 * are needed. Unset, the chain keeps today's behaviour (admin-assigned addresses, manual
 * credits).
 */
export type BitcoinChainConfig = {
  chain: 'bitcoin';
  /** Bitcoin Core JSON-RPC; credentials may be in the URL. */
  rpcUrl: string;
  /** The address format (bc1 / tb1 / bcrt1). */
  network: BitcoinNetwork;
  /** The account key (BIP-84 `m/84'/0'/0'` or `m/84'/1'/0'`); addresses are `…/0/i`. */
  account: HDKey;
  /** BTC_XPUB as the operator gave it (xpub, zpub, tpub or vpub), for the admin screen. */
  xpub: string;
  /**
   * BTC_KEY_ORIGIN (optional): the master key's fingerprint and the account's path
   * (`d34db33f/84'/1'/0'`), written into payout PSBTs so a hardware wallet finds its keys.
   * Without it the paths are the account's own (`1/5`) under the account key's fingerprint.
   */
  keyOrigin: KeyOrigin | null;
};

export type EthereumChainConfig = {
  chain: 'ethereum';
  rpcUrl: string;
  /** The USDT ERC-20 contract, lower-case 0x form. */
  usdtContract: string;
  /** The account key `m/44'/60'/0'`. */
  account: HDKey;
  /** ETH_XPUB as the operator gave it, for the admin screen. */
  xpub: string;
};

export type TronChainConfig = {
  chain: 'tron';
  /** A TronGrid-compatible HTTP API. */
  apiUrl: string;
  /** The USDT TRC-20 contract, base58 (T…). */
  usdtContract: string;
  /** TRON_API_KEY, sent as TRON-PRO-API-KEY (TronGrid asks for one). */
  apiKey: string | null;
  /** The account key `m/44'/195'/0'`. */
  account: HDKey;
  /** TRON_XPUB as the operator gave it, for the admin screen. */
  xpub: string;
};

export type ChainConfig = BitcoinChainConfig | EthereumChainConfig | TronChainConfig;

export type ChainConfigs = {
  bitcoin: BitcoinChainConfig | null;
  ethereum: EthereumChainConfig | null;
  tron: TronChainConfig | null;
  /**
   * BTC_NETWORK, also when Bitcoin is not watched: withdrawal and admin address checks
   * follow it (a `bcrt1…` address is valid on regtest).
   */
  bitcoinNetwork: BitcoinNetwork;
  /** Settings that work but are probably not what the operator meant. */
  warnings: string[];
};

/** Tether's USDT contracts on the main networks, the defaults. */
export const MAINNET_USDT_ERC20 = '0xdac17f958d2ee523a2206206994597c13d831ec7';
export const MAINNET_USDT_TRC20 = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const BITCOIN_NETWORKS: readonly BitcoinNetwork[] = ['mainnet', 'testnet', 'regtest'];

type Env = Record<string, string | undefined>;

/** The value of a variable, trimmed; unset and empty are the same. */
function setting(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function urlOf(env: Env, name: string, kind: string): string {
  const value = setting(env, name) ?? '';
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // Not a URL at all: the message below says what is expected.
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    // Not echoed: the URL may carry the node's credentials.
    throw new StartupError(`${name} must be the http:// or https:// address of ${kind}`);
  }
  return value;
}

/** Both variables of a chain, or neither: one alone is a half-done configuration. */
function bothOrNeither(env: Env, url: string, key: string): boolean {
  const hasUrl = setting(env, url) !== null;
  const hasKey = setting(env, key) !== null;
  if (hasUrl !== hasKey) {
    const missing = hasUrl ? key : url;
    throw new StartupError(
      `${missing} is not set, but ${hasUrl ? url : key} is: a chain is watched with both (or neither)`,
    );
  }
  return hasUrl;
}

/** A contract variable given for a chain that is not configured is a mistake worth stopping. */
function contractWithoutChain(env: Env, contract: string, chainVars: string): void {
  if (setting(env, contract) !== null) {
    throw new StartupError(`${contract} is set but ${chainVars} are not`);
  }
}

function bitcoinNetworkOf(env: Env): BitcoinNetwork {
  const value = setting(env, 'BTC_NETWORK') ?? 'mainnet';
  if (!(BITCOIN_NETWORKS as readonly string[]).includes(value)) {
    throw new StartupError(`BTC_NETWORK must be mainnet, testnet or regtest, got "${value}"`);
  }
  return value as BitcoinNetwork;
}

const EVM_CONTRACT = /^0x[0-9a-fA-F]{40}$/;
const TRON_CONTRACT = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/**
 * Reads every chain's configuration. Throws a StartupError naming the variable when one does
 * not parse; never echoes a key or a URL (a private key pasted by mistake, credentials).
 */
export function loadChainConfig(env: Env = process.env): ChainConfigs {
  const warnings: string[] = [];
  const bitcoinNetwork = bitcoinNetworkOf(env);

  let bitcoin: BitcoinChainConfig | null = null;
  if (bothOrNeither(env, 'BTC_RPC_URL', 'BTC_XPUB')) {
    const rpcUrl = urlOf(env, 'BTC_RPC_URL', 'a Bitcoin Core JSON-RPC server');
    const xpub = setting(env, 'BTC_XPUB') ?? '';
    const key = parseAccountKey('BTC_XPUB', xpub, 'bitcoin');
    if ((key.network === 'mainnet') !== (bitcoinNetwork === 'mainnet')) {
      // Decision 0021: the key data decides the addresses and BTC_NETWORK their format, so
      // this works; it is still most likely a key from the other network.
      warnings.push(
        `BTC_XPUB is a ${key.network === 'mainnet' ? 'mainnet' : 'test network'} key (${key.prefix}) but BTC_NETWORK is ${bitcoinNetwork}: addresses are derived from the key and written in the ${bitcoinNetwork} format`,
      );
    }
    const origin = setting(env, 'BTC_KEY_ORIGIN');
    let keyOrigin: KeyOrigin | null = null;
    if (origin) {
      try {
        keyOrigin = parseKeyOrigin(origin);
      } catch (err) {
        throw new StartupError(
          `BTC_KEY_ORIGIN: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    bitcoin = {
      chain: 'bitcoin',
      rpcUrl,
      network: bitcoinNetwork,
      account: key.account,
      xpub,
      keyOrigin,
    };
  }

  let ethereum: EthereumChainConfig | null = null;
  if (bothOrNeither(env, 'ETH_RPC_URL', 'ETH_XPUB')) {
    const rpcUrl = urlOf(env, 'ETH_RPC_URL', 'an Ethereum JSON-RPC node');
    const xpub = setting(env, 'ETH_XPUB') ?? '';
    const key = parseAccountKey('ETH_XPUB', xpub, 'plain');
    const contract = setting(env, 'USDT_ERC20_CONTRACT') ?? MAINNET_USDT_ERC20;
    if (!EVM_CONTRACT.test(contract)) {
      throw new StartupError(
        `USDT_ERC20_CONTRACT must be a contract address, 0x and 40 hex digits, got "${contract}"`,
      );
    }
    ethereum = {
      chain: 'ethereum',
      rpcUrl,
      usdtContract: contract.toLowerCase(),
      account: key.account,
      xpub,
    };
  } else {
    contractWithoutChain(env, 'USDT_ERC20_CONTRACT', 'ETH_RPC_URL and ETH_XPUB');
  }

  let tron: TronChainConfig | null = null;
  if (bothOrNeither(env, 'TRON_API_URL', 'TRON_XPUB')) {
    const apiUrl = urlOf(env, 'TRON_API_URL', 'a TronGrid-compatible API');
    const xpub = setting(env, 'TRON_XPUB') ?? '';
    const key = parseAccountKey('TRON_XPUB', xpub, 'plain');
    const contract = setting(env, 'USDT_TRC20_CONTRACT') ?? MAINNET_USDT_TRC20;
    if (!TRON_CONTRACT.test(contract)) {
      throw new StartupError(
        `USDT_TRC20_CONTRACT must be a TRON contract address (T and 33 characters), got "${contract}"`,
      );
    }
    tron = {
      chain: 'tron',
      apiUrl,
      usdtContract: contract,
      apiKey: setting(env, 'TRON_API_KEY') ?? null,
      account: key.account,
      xpub,
    };
  } else {
    contractWithoutChain(env, 'USDT_TRC20_CONTRACT', 'TRON_API_URL and TRON_XPUB');
  }

  return { bitcoin, ethereum, tron, bitcoinNetwork, warnings };
}

/** The configured chains, in a fixed order. */
export function configuredChains(configs: ChainConfigs): ChainConfig[] {
  return [configs.bitcoin, configs.ethereum, configs.tron].filter(
    (c): c is ChainConfig => c !== null,
  );
}

/** The configuration of one chain, or null when it is not configured. */
export function chainConfigOf(configs: ChainConfigs, chain: ChainName): ChainConfig | null {
  return configs[chain];
}

/**
 * A start-up check that needs the node (e.g. the token contract's `decimals()` against the
 * asset's): each adapter may carry one; it throws a StartupError naming the variable.
 */
export type VerifiableAdapter = ChainAdapter & { verifyConfig?: () => Promise<void> };

/**
 * How long a start-up check may wait for its node. A node that hangs (accepts, never answers)
 * would otherwise hold the whole start for its RPC timeout: the instance serves customers
 * without the chain, and the chain is checked again before its watcher's next poll.
 */
export const CHAIN_CHECK_TIMEOUT_MS = 5_000;

/** The variable naming each chain's node, for a message about it. */
const NODE_SETTING: Record<ChainName, string> = {
  bitcoin: 'BTC_RPC_URL',
  ethereum: 'ETH_RPC_URL',
  tron: 'TRON_API_URL',
};

/** Adapters whose start-up check passed: asked once per process, not before every poll. */
const checked = new WeakSet<object>();

/** One adapter's check, given at most `timeoutMs`; remembered once it passes. */
async function checkWithin(adapter: VerifiableAdapter, timeoutMs: number): Promise<void> {
  if (checked.has(adapter)) return;
  if (adapter.verifyConfig) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `${NODE_SETTING[adapter.chain]}: the node did not answer the start-up check within ${timeoutMs / 1000} s`,
            ),
          ),
        timeoutMs,
      );
      timer.unref?.();
    });
    try {
      await Promise.race([adapter.verifyConfig(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  checked.add(adapter);
}

/**
 * Runs every adapter's own start-up check (the hook the chain adapters fill in), all at once,
 * each for at most `timeoutMs`: a configuration that parses but does not fit the node (a
 * StartupError) stops start-up too. A node that does not answer, or not in time, is no
 * reason to stay down: `unreachable` hears of it, and `ensureChainChecked` runs the check
 * again before that chain's watcher polls (a failure there is the poll's: recorded, shown
 * as failing by chain-status and the dashboard, retried with the watcher's backoff).
 */
export async function verifyChainConfig(
  adapters: readonly VerifiableAdapter[],
  unreachable: (chain: ChainName, err: unknown) => void = () => {},
  { timeoutMs = CHAIN_CHECK_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<void> {
  await Promise.all(
    adapters.map(async (adapter) => {
      try {
        await checkWithin(adapter, timeoutMs);
      } catch (err) {
        if (err instanceof StartupError) throw err;
        unreachable(adapter.chain, err);
      }
    }),
  );
}

/**
 * The watcher's gate: a chain whose start-up check has not passed in this process (its node
 * did not answer at the start) is checked before each poll, so nothing is read or credited
 * under a configuration that was never checked (a token with other decimals). Throws the
 * check's error, a StartupError's message included, for the poll to record.
 */
export function ensureChainChecked(
  adapter: VerifiableAdapter,
  timeoutMs = CHAIN_CHECK_TIMEOUT_MS,
): Promise<void> {
  return checkWithin(adapter, timeoutMs);
}
