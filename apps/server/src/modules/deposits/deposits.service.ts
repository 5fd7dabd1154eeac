import {
  ASSETS,
  fromMinor,
  mulPrice,
  normalizeTxHash,
  parseAmount,
  type TAssetId,
  type TDepositAddressesResponse,
} from '@coffer/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/tx';
import { chainOfAsset, chainsRepository } from '../chains';
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
  /** The chain watcher has seen this transaction: it credits it itself, once (issue 14). */
  | { outcome: 'chain-watched'; status: string; transactionHash: string };

export function createDepositsService(deps: {
  pool: pg.Pool;
  ledger: Ledger;
  prices: Pick<PriceService, 'current'>;
  controls: MoneyControls;
}) {
  return {
    /** GET /api/deposit-addresses; none are shown while the operator has deposits paused. */
    async addresses(userId: string): Promise<TDepositAddressesResponse> {
      const settings = await deps.controls.current();
      if (!settings.depositsEnabled) {
        return { enabled: false, message: MONEY_MSG.depositsPaused, addresses: [] };
      }
      const rows = await repo.activeAddresses(deps.pool, userId);
      return {
        enabled: true,
        message: null,
        addresses: rows.map((r) => ({
          id: r.id,
          assetSymbol: r.asset_symbol,
          network: r.network,
          address: r.address,
          assetId: walletOfAddress(r.asset_symbol, r.network),
          createdAt: r.created_at.toISOString(),
        })),
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
          ? (await chainsRepository.depositsOfTx(client, chain, transactionHash)).find(
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
