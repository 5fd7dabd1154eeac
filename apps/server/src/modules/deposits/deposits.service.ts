import {
  ASSETS,
  fromMinor,
  mulPrice,
  normalizeTxHash,
  parseAmount,
  type TAssetId,
  type TDepositAddressesResponse,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import type pg from 'pg';
import {
  type ChainConfig,
  type ChainConfigs,
  chainDepositsRepository,
  chainOfAsset,
  configuredChains,
  derive,
} from '../chains';
import type { Ledger } from '../ledger';
import { MONEY_MSG, type MoneyControls } from '../money-controls';
import type { PriceService } from '../prices';
import { depositsRepository as repo } from './deposits.repository';

/** Which customer wallet an address pays into, by the symbol and network staff entered. */
const WALLET_OF_ADDRESS: Readonly<Record<string, TAssetId>> = {
  'BTC/bitcoin': 'BTC',
  'ETH/ethereum': 'ETH',
  'USDT/erc20': 'USDT-ERC20',
  'USDT/trc20': 'USDT-TRC20',
};

export function walletOfAddress(symbol: string, network: string): TAssetId | null {
  return (
    WALLET_OF_ADDRESS[`${symbol.trim().toUpperCase()}/${network.trim().toLowerCase()}`] ?? null
  );
}

/**
 * What a derived address is stored as: the chain's native asset, and USDT on TRON (the only
 * asset Coffer takes there). USDT-ERC20 is listed with the customer's Ethereum address.
 */
const DERIVED_AS: Readonly<Record<ChainConfig['chain'], { assetSymbol: string; network: string }>> =
  {
    bitcoin: { assetSymbol: 'BTC', network: 'bitcoin' },
    ethereum: { assetSymbol: 'ETH', network: 'ethereum' },
    tron: { assetSymbol: 'USDT', network: 'trc20' },
  };

/**
 * How many indexes one allocation may pass over because staff already entered the address
 * derived at them for someone: more means the key is not the operator's own.
 */
const MAX_TAKEN_ADDRESSES = 20;

/** What a credit did; `transactionHash` is the chain hash as it is kept (normalised). */
export type CreditResult =
  | { outcome: 'credited'; transactionId: string; transactionHash: string; balance: string }
  | {
      outcome: 'already-credited';
      transactionId: string;
      transactionHash: string;
      balance: string;
    }
  | { outcome: 'unknown-user' }
  | { outcome: 'invalid-hash'; message: string }
  | { outcome: 'hash-belongs-elsewhere'; transactionId: string; transactionHash: string }
  /** The chain watcher has seen this transaction: it credits it itself, once. */
  | { outcome: 'chain-watched'; status: string; transactionHash: string };

export function createDepositsService(deps: {
  pool: pg.Pool;
  ledger: Ledger;
  prices: Pick<PriceService, 'current'>;
  controls: MoneyControls;
  /** The configured chains: their addresses are derived on a customer's first request. */
  chains: ChainConfigs;
}) {
  /**
   * The customer's derived address on `config`'s chain, made now if they have none: the
   * chain's next index (never one handed out before), derived and stored in one transaction.
   */
  async function allocate(userId: string, config: ChainConfig): Promise<void> {
    await withTransaction(deps.pool, async (client) => {
      await repo.lockCustomerChain(client, userId, config.chain);
      if ((await repo.derivedChains(client, userId)).has(config.chain)) return;
      for (let tries = 0; tries < MAX_TAKEN_ADDRESSES; tries++) {
        const index = await repo.takeIndex(client, config.chain);
        const { address } = derive(config, index);
        const stored = await repo.insertDerived(client, userId, {
          chain: config.chain,
          index,
          address,
          ...DERIVED_AS[config.chain],
        });
        if (stored) return;
      }
      throw new Error(
        `${MAX_TAKEN_ADDRESSES} derived ${config.chain} addresses in a row were already entered by staff`,
      );
    });
  }

  return {
    /**
     * GET /api/deposit-addresses; none are shown while the operator has deposits paused.
     * On a configured chain the customer's address is derived on this first request (the
     * deposit page and the asset page both read it here).
     */
    async addresses(userId: string): Promise<TDepositAddressesResponse> {
      const settings = await deps.controls.current();
      if (!settings.depositsEnabled) {
        return { enabled: false, message: MONEY_MSG.depositsPaused, addresses: [] };
      }
      const chains = configuredChains(deps.chains);
      if (chains.length > 0) {
        const have = await repo.derivedChains(deps.pool, userId);
        for (const config of chains) {
          if (!have.has(config.chain)) await allocate(userId, config);
        }
      }
      const rows = await repo.activeAddresses(deps.pool, userId);
      return {
        enabled: true,
        message: null,
        addresses: rows.flatMap((r) => {
          const item = {
            id: r.id,
            assetSymbol: r.asset_symbol,
            network: r.network,
            address: r.address,
            assetId: walletOfAddress(r.asset_symbol, r.network),
            createdAt: r.created_at.toISOString(),
          };
          // USDT-ERC20 is paid to the customer's Ethereum address: the same row, listed
          // for that wallet too (its own id, for lists keyed by it).
          return r.chain === 'ethereum'
            ? [
                item,
                {
                  ...item,
                  id: `${r.id}:USDT-ERC20`,
                  assetSymbol: 'USDT',
                  network: 'erc20',
                  assetId: 'USDT-ERC20' as const,
                },
              ]
            : [item];
        }),
      };
    },

    /**
     * Credits a deposit seen on chain: a completed `deposit` credit carrying the chain
     * transaction hash, through the ledger. The hash is normalised for the asset's network
     * first (EVM: 0x + lower-case hex; Bitcoin and TRON: lower-case hex, no prefix), so one
     * chain transaction is one value, and it is credited once per asset: repeating the same
     * credit changes nothing and says so; the same hash with another customer or
     * amount is refused. Operators' switches do not apply: money that arrived is booked.
     */
    async credit(input: {
      email: string;
      assetId: TAssetId;
      amount: bigint;
      transactionHash: string;
    }): Promise<CreditResult> {
      const asset = ASSETS[input.assetId];
      const hash = normalizeTxHash(asset.id, input.transactionHash);
      if (!hash.ok) return { outcome: 'invalid-hash' as const, message: hash.message };
      const transactionHash = hash.value;
      return withTransaction(deps.pool, async (client) => {
        const userId = await repo.userIdByEmail(client, input.email);
        if (!userId) return { outcome: 'unknown-user' as const };
        await repo.lockChainTransaction(client, asset.id, transactionHash);
        // A transaction the watcher recorded is its to credit (or already credited, or gone
        // from the chain): a manual credit on top would count the same money twice.
        const chain = chainOfAsset(asset.id);
        const watched = chain
          ? (await chainDepositsRepository.depositsOfTx(client, chain, transactionHash)).find(
              (d) => d.asset_id === asset.id,
            )
          : undefined;
        if (watched) {
          return { outcome: 'chain-watched' as const, status: watched.status, transactionHash };
        }
        const earlier = await repo.findCredit(client, asset.id, transactionHash);
        if (earlier) {
          const same =
            earlier.user_id === userId &&
            parseAmount(earlier.crypto_amount, asset.decimals) === input.amount;
          if (!same)
            return {
              outcome: 'hash-belongs-elsewhere' as const,
              transactionId: earlier.id,
              transactionHash,
            };
          const balance = (await repo.balanceOf(client, userId, asset.id)) ?? '0';
          return {
            outcome: 'already-credited' as const,
            transactionId: earlier.id,
            transactionHash,
            balance: fromMinor(asset.id, parseAmount(balance, asset.decimals)),
          };
        }
        const row = await deps.ledger.post(client, {
          userId,
          assetId: asset.id,
          type: 'deposit',
          direction: 'credit',
          amount: input.amount,
          status: 'completed',
          usdAmount: mulPrice(
            input.amount,
            asset.decimals,
            deps.prices.current().quotes[asset.id].priceUsd,
          ),
          transactionHash,
          createdBy: null,
        });
        const balance = (await repo.balanceOf(client, userId, asset.id)) ?? '0';
        return {
          outcome: 'credited' as const,
          transactionId: row.id,
          transactionHash,
          balance: fromMinor(asset.id, parseAmount(balance, asset.decimals)),
        };
      });
    },
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;
