import type { TDepositAddress, TDepositAddressesResponse } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { type ChainConfig, configuredChains, derive } from '../chains';
import { MONEY_MSG } from '../money-controls';
import { requestableAssets } from './address-requests';
import { type DepositAddressRow, depositsRepository as repo } from './deposits.repository';
import type { DepositsContext } from './deposits-context';
import { walletOfAddress, walletsServed } from './wallet-of-address';

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

/**
 * The customer's derived address on `config`'s chain, made now if they have none: the
 * chain's next index (never one handed out before), derived and stored in one transaction.
 */
async function allocate(ctx: DepositsContext, userId: string, config: ChainConfig): Promise<void> {
  await withTransaction(ctx.pool, async (client) => {
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

/**
 * GET /api/deposit-addresses; none are shown while the operator has deposits paused.
 * On a configured chain the customer's address is derived on this first request (the
 * deposit page and the asset page both read it here).
 */
export async function depositAddresses(
  ctx: DepositsContext,
  userId: string,
): Promise<TDepositAddressesResponse> {
  const settings = await ctx.controls.current();
  if (!settings.depositsEnabled) {
    return { enabled: false, message: MONEY_MSG.depositsPaused, addresses: [], requestable: [] };
  }
  const chains = configuredChains(ctx.chains);
  if (chains.length > 0) {
    const have = await repo.derivedChains(ctx.pool, userId);
    for (const config of chains) {
      if (!have.has(config.chain)) await allocate(ctx, userId, config);
    }
  }
  const rows = await repo.activeAddresses(ctx.pool, userId);
  return {
    enabled: true,
    message: null,
    addresses: rows.flatMap(listed),
    requestable: await requestableAssets(ctx, userId, walletsServed(rows)),
  };
}

/**
 * An address as the customer sees it. USDT-ERC20 is paid to the customer's Ethereum address:
 * the same row, listed for that wallet too (its own id, for lists keyed by it).
 */
function listed(r: DepositAddressRow): TDepositAddress[] {
  const item = {
    id: r.id,
    assetSymbol: r.asset_symbol,
    network: r.network,
    address: r.address,
    assetId: walletOfAddress(r.asset_symbol, r.network),
    createdAt: r.created_at.toISOString(),
  };
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
}
