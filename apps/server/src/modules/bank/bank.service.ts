import {
  ASSETS,
  payoutFunding,
  roundDecimal,
  type TBankDetails,
  type TCreateBankTransferRequest,
  type TSaveBankDetailsRequest,
  type TTransaction,
  withoutStepUp,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import type { Client } from '@server/lib/client-of';
import type { Secrets } from '@server/lib/crypto';
import type pg from 'pg';
import {
  insufficientBalance,
  type Ledger,
  presentTransaction,
  requestHash,
  runOnce,
} from '../ledger';
import type { MoneyControls } from '../money-controls';
import type { PriceService } from '../prices';
import type { SecurityHold } from '../security-hold';
import type { StepUp, StepUpSubject } from '../step-up';
import { bankRepository as repo } from './bank.repository';

const CREATE_ROUTE = 'POST /api/bank-transfers';
/** What exchange_rate and price_usd keep: numeric(20, 10). */
const RATE_PLACES = 10;

type Deps = {
  pool: pg.Pool;
  ledger: Ledger;
  secrets: Secrets;
  prices: Pick<PriceService, 'current'>;
  controls: MoneyControls;
  securityHold: Pick<SecurityHold, 'assertClear'>;
  stepUp: Pick<StepUp, 'confirm'>;
};

export function createBankService(deps: Deps) {
  return {
    /**
     * A bank payout: a withdrawal in AUD funded from one of the customer's assets
     * (product.md M11, docs/decisions/0010). The AUD amount is converted to USD at the
     * price service's AUD rate and to the asset at its USD price (never a rate the client
     * sent), and that crypto amount is held in the same database transaction that writes
     * the request, with the customer and the wallet locked, exactly as a withdrawal: staff
     * completing it debit the hold, rejecting it releases it. It counts towards the daily
     * withdrawal limit. The row keeps the AUD and USD figures and both rates beside it; the
     * account it pays goes to bank_transfers, encrypted at rest. As with a withdrawal, the
     * fresh second factor (step-up) is checked last and used up only if the request commits.
     */
    async requestTransfer(
      s: StepUpSubject,
      body: TCreateBankTransferRequest,
      idempotencyKey: string | undefined,
      who: Client,
    ): Promise<TTransaction> {
      const { userId } = s;
      // Read before the transaction, as a withdrawal does (see withdrawals.service).
      const settings = await deps.controls.current();
      const quote = deps.prices.current();
      const hash = requestHash(CREATE_ROUTE, withoutStepUp(body));
      const answer = await withTransaction(deps.pool, (client) =>
        runOnce(client, { userId, key: idempotencyKey, hash }, async () => {
          deps.controls.assertCustomerPayoutsOpen(settings);
          await deps.securityHold.assertClear(client, userId);
          const asset = ASSETS[body.assetId];
          const audUsdRate = roundDecimal(quote.audUsd.rate, RATE_PLACES);
          const priceUsd = roundDecimal(quote.quotes[asset.id].priceUsd, RATE_PLACES);
          const funding = payoutFunding(body.amountAud, audUsdRate, priceUsd, asset.decimals);

          await deps.controls.lockCustomer(client, userId);
          const wallet = await deps.ledger.lockWallet(client, userId, asset.id);
          if (funding.amount > wallet.available) {
            throw insufficientBalance(asset.id, wallet.available);
          }
          await deps.controls.assertWithinDailyLimit(client, settings, userId, funding.usdAmount);
          await deps.stepUp.confirm(client, s, body.stepUp, who);

          const row = await deps.ledger.post(
            client,
            {
              userId,
              assetId: asset.id,
              type: 'bank_transfer',
              direction: 'debit',
              amount: funding.amount,
              status: 'pending',
              usdAmount: funding.usdAmount,
              audAmount: body.amountAud,
              currency: 'AUD',
              exchangeRate: audUsdRate,
              priceUsd,
              createdBy: userId,
            },
            { wallet },
          );
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

    /**
     * Saves the details (product.md M9), encrypted at rest, replacing earlier ones, with a
     * fresh second factor used up in the same transaction.
     */
    async saveDetails(
      s: StepUpSubject,
      input: TSaveBankDetailsRequest,
      who: Client,
    ): Promise<TBankDetails> {
      const details = withoutStepUp(input);
      // Where payouts go is what a takeover would change first: it waits out a hold.
      await deps.securityHold.assertClear(deps.pool, s.userId);
      await withTransaction(deps.pool, async (client) => {
        await deps.stepUp.confirm(client, s, input.stepUp, who);
        await repo.saveDetails(client, s.userId, {
          fullNameEncrypted: deps.secrets.encrypt(details.fullName),
          bsbEncrypted: deps.secrets.encrypt(details.bsb),
          accountNumberEncrypted: deps.secrets.encrypt(details.accountNumber),
        });
      });
      return details;
    },
  };
}

export type BankService = ReturnType<typeof createBankService>;
