import type { TBankDetails, TCreateBankTransferRequest, TTransaction } from '@coffer/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/tx';
import type { Secrets } from '../../lib/crypto';
import { presentTransaction } from '../ledger';
import { requestHash, runOnce } from '../ledger/idempotency';
import { ledgerRepository } from '../ledger/ledger.repository';
import type { MoneyControls } from '../money-controls/money-controls.service';
import type { PriceService } from '../prices/price-book';
import { bankRepository as repo } from './bank.repository';

const CREATE_ROUTE = 'POST /api/bank-transfers';

type Deps = {
  pool: pg.Pool;
  secrets: Secrets;
  prices: Pick<PriceService, 'current'>;
  controls: MoneyControls;
};

export function createBankService(deps: Deps) {
  return {
    /**
     * A bank transfer request: the pending `bank_transfer` row exactly as customer.md §3
     * writes it (asset AUD, crypto amount 0, usd_amount = the AUD amount), plus the AUD
     * amount and the AUD→USD rate of the moment in their own columns so that staff see what
     * the figure really is; and its bank_transfers row with the account encrypted at rest.
     * It moves no crypto (direction none), so it touches no wallet.
     */
    async requestTransfer(
      userId: string,
      body: TCreateBankTransferRequest,
      idempotencyKey: string | undefined,
    ): Promise<TTransaction> {
      const settings = await deps.controls.current();
      const hash = requestHash(CREATE_ROUTE, body);
      const answer = await withTransaction(deps.pool, (client) =>
        runOnce(client, { userId, key: idempotencyKey, hash }, async () => {
          deps.controls.assertCustomerPayoutsOpen(settings);
          const row = await ledgerRepository.insertTransaction(client, {
            userId,
            walletId: null,
            transactionType: 'bank_transfer',
            direction: 'none',
            assetId: 'AUD',
            network: null,
            cryptoAmount: '0',
            fee: '0',
            usdAmount: body.amountAud,
            audAmount: body.amountAud,
            currency: 'AUD',
            exchangeRate: deps.prices.current().audUsd.rate,
            withdrawalAddress: null,
            memo: null,
            transactionHash: null,
            status: 'pending',
            reason: null,
            createdBy: userId,
            stakingCycleStart: null,
            transactionDate: null,
          });
          await repo.insertTransfer(client, {
            transactionId: row.id,
            accountNameEncrypted: deps.secrets.encrypt(body.accountName),
            accountNumberEncrypted: deps.secrets.encrypt(body.accountNumber),
            bsbNumberEncrypted: deps.secrets.encrypt(body.bsbNumber),
            amountAud: body.amountAud,
          });
          return { status: 200, body: presentTransaction(row) };
        }),
      );
      return answer.body;
    },

    /** The owner's saved details, decrypted; nobody else's request ever reaches them. */
    async details(userId: string): Promise<TBankDetails | null> {
      const row = await repo.findDetails(deps.pool, userId);
      if (!row) return null;
      return {
        fullName: deps.secrets.decrypt(row.fullNameEncrypted),
        bsb: deps.secrets.decrypt(row.bsbEncrypted),
        accountNumber: deps.secrets.decrypt(row.accountNumberEncrypted),
      };
    },

    /** Saves the details (DEVIATIONS M9), encrypted at rest, replacing earlier ones. */
    async saveDetails(userId: string, details: TBankDetails): Promise<TBankDetails> {
      await repo.saveDetails(deps.pool, userId, {
        fullNameEncrypted: deps.secrets.encrypt(details.fullName),
        bsbEncrypted: deps.secrets.encrypt(details.bsb),
        accountNumberEncrypted: deps.secrets.encrypt(details.accountNumber),
      });
      return details;
    },
  };
}

export type BankService = ReturnType<typeof createBankService>;
