import type pg from 'pg';
import type { ChainConfigs } from '../chains';
import type { Ledger } from '../ledger';
import type { MoneyControls } from '../money-controls';
import type { PriceService } from '../prices';

/**
 * What the parts of the deposits service share, built once by `createDepositsService`.
 */
export type DepositsContext = {
  pool: pg.Pool;
  ledger: Ledger;
  prices: Pick<PriceService, 'current'>;
  controls: MoneyControls;
  /** The configured chains: their addresses are derived on a customer's first request. */
  chains: ChainConfigs;
};
