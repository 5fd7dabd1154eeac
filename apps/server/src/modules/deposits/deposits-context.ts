import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { ChainConfigs } from '../chains';
import type { Ledger } from '../ledger';
import type { MoneyControls } from '../money-controls';
import type { Outbox } from '../outbox';
import type { PriceService } from '../prices';
import type { RealtimeHub } from '../realtime';

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
  /** The mail telling a customer the address they asked for is ready, sent after the commit. */
  outbox: Pick<Outbox, 'mail' | 'deliver'>;
  /** The audit row of a request staff fulfilled. */
  audit: Pick<AuditLog, 'record'>;
  /** Announces a customer's new address request, and staff's changes to their addresses. */
  realtime: Pick<RealtimeHub, 'publish'>;
  /** Where the mail's link to the deposit page points. */
  publicUrl: string;
};
