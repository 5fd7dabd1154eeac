import { ASSETS, WITHDRAWAL_MSG } from '@coffer/shared';
import { describe, expect, it } from 'vitest';
import {
  checkWithdrawal,
  feeOf,
  insufficientBalanceMessage,
  maxAmountText,
  maxWithdrawable,
} from '../src/features/withdraw/components/check-withdrawal';

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const BTC_ADDRESS_BAD_CHECKSUM = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** 1 BTC available, nothing staking. */
const ONE_BTC = { available: 100_000_000n, pendingStaking: 0n };

describe('checkWithdrawal', () => {
  it('passes a valid Bitcoin withdrawal and gives the exact request, amount and fee', () => {
    const check = checkWithdrawal(
      { assetId: 'BTC', amount: '0.5', address: ` ${BTC_ADDRESS} ` },
      ONE_BTC,
    );
    expect(check.first).toBeNull();
    expect(check.errors).toEqual({});
    expect(check.amountMinor).toBe(50_000_000n);
    expect(check.feeMinor).toBe(10_000n);
    expect(check.request).toEqual({ assetId: 'BTC', amount: '0.5', address: BTC_ADDRESS });
  });

  it('asks for an asset first, and refuses one only staff may move', () => {
    const none = checkWithdrawal({ assetId: '', amount: '1', address: '' }, ONE_BTC);
    expect(none.first).toBe(WITHDRAWAL_MSG.selectAsset);
    expect(none.asset).toBeUndefined();
    expect(none.request).toBeNull();

    const staffOnly = checkWithdrawal(
      { assetId: 'USDC', amount: '1', address: ETH_ADDRESS },
      { available: 10_000_000n, pendingStaking: 0n },
    );
    expect(staffOnly.errors.assetId).toBe(WITHDRAWAL_MSG.selectAsset);
  });

  it('says what is wrong with the amount before the missing address', () => {
    const check = checkWithdrawal({ assetId: 'BTC', amount: '0', address: '' }, ONE_BTC);
    expect(check.errors.amount).toBe(WITHDRAWAL_MSG.amountPositive);
    expect(check.errors.address).toBe(WITHDRAWAL_MSG.addressRequired);
    expect(check.first).toBe(WITHDRAWAL_MSG.amountPositive);
    expect(check.request).toBeNull();
  });

  it('accepts 0.00000001 and refuses more decimals than the asset has', () => {
    const smallest = checkWithdrawal(
      { assetId: 'BTC', amount: '0.00000001', address: BTC_ADDRESS },
      ONE_BTC,
    );
    expect(smallest.first).toBeNull();
    expect(smallest.amountMinor).toBe(1n);

    const tooPrecise = checkWithdrawal(
      { assetId: 'BTC', amount: '0.000000001', address: BTC_ADDRESS },
      ONE_BTC,
    );
    expect(tooPrecise.first).toBe('Amount can have at most 8 decimal places for BTC');
  });

  it('refuses an amount that with the network fee is more than is available', () => {
    // 0.9999 + 0.0001 fee is exactly 1 BTC: allowed; one satoshi more is not.
    const exact = checkWithdrawal(
      { assetId: 'BTC', amount: '0.9999', address: BTC_ADDRESS },
      ONE_BTC,
    );
    expect(exact.first).toBeNull();

    const over = checkWithdrawal(
      { assetId: 'BTC', amount: '0.99990001', address: BTC_ADDRESS },
      ONE_BTC,
    );
    expect(over.first).toBe(
      'Insufficient balance. Available: 1.00000000 BTC (Wallet: 1.00000000, Staking: 0.00000000)',
    );
    expect(over.errors.amount).toBe(over.first);
    expect(over.request).toBeNull();
  });

  it('checks the address format and checksum after the balance', () => {
    const badChecksum = checkWithdrawal(
      { assetId: 'BTC', amount: '0.1', address: BTC_ADDRESS_BAD_CHECKSUM },
      ONE_BTC,
    );
    expect(badChecksum.errors.address).toBe(
      'Invalid Bitcoin address checksum. Check the address and try again.',
    );

    const ethForBtc = checkWithdrawal(
      { assetId: 'BTC', amount: '2', address: ETH_ADDRESS },
      ONE_BTC,
    );
    expect(ethForBtc.first).toMatch(/^Insufficient balance/);
    expect(ethForBtc.errors.address).toBe('Invalid Bitcoin address format');
  });

  it('leaves a Bitcoin address unjudged until the server network is known', () => {
    const check = checkWithdrawal(
      { assetId: 'BTC', amount: '0.1', address: 'not-an-address' },
      ONE_BTC,
      false,
    );
    expect(check.errors.address).toBeUndefined();
    expect(check.first).toBeNull();
    // Nothing is sent while the address could not be checked.
    expect(check.request).toBeNull();
  });

  it('sends nothing while the balance is still loading', () => {
    const check = checkWithdrawal({ assetId: 'BTC', amount: '0.1', address: BTC_ADDRESS }, null);
    expect(check.first).toBeNull();
    expect(check.request).toBeNull();
  });

  it('keeps a memo, trimmed, and drops an empty one', () => {
    const usdt = { available: 100_000_000n, pendingStaking: 0n };
    const withMemo = checkWithdrawal(
      { assetId: 'USDT-ERC20', amount: '10', address: ETH_ADDRESS, memo: ' rent ' },
      usdt,
    );
    expect(withMemo.request).toEqual({
      assetId: 'USDT-ERC20',
      amount: '10',
      address: ETH_ADDRESS,
      memo: 'rent',
    });
    const blank = checkWithdrawal(
      { assetId: 'USDT-ERC20', amount: '10', address: ETH_ADDRESS, memo: '  ' },
      usdt,
    );
    expect(blank.request).toEqual({ assetId: 'USDT-ERC20', amount: '10', address: ETH_ADDRESS });
  });
});

describe('insufficientBalanceMessage and feeOf', () => {
  it('quotes the wallet and the staking accrual with 8 decimals', () => {
    expect(
      insufficientBalanceMessage(ASSETS.ETH, {
        available: 1_500_000_000_000_000_000n,
        pendingStaking: 20_000_000_000_000_000n,
      }),
    ).toBe(
      'Insufficient balance. Available: 1.50000000 ETH (Wallet: 1.50000000, Staking: 0.02000000)',
    );
  });

  it("is each asset's network fee in its minor units", () => {
    expect(feeOf(ASSETS.BTC)).toBe(10_000n);
    expect(feeOf(ASSETS.ETH)).toBe(2_000_000_000_000_000n);
    expect(feeOf(ASSETS['USDT-TRC20'])).toBe(2_000n);
  });
});

describe('Max', () => {
  it('is the available balance less the network fee, exact to the last unit', () => {
    // 1 BTC less the 0.0001 BTC fee.
    expect(maxWithdrawable(ASSETS.BTC, ONE_BTC)).toBe(99_990_000n);
    expect(maxAmountText(ASSETS.BTC, ONE_BTC)).toBe('0.9999');
    // 1.234567890123456789 ETH less 0.002: every wei is kept, none is lost to a float.
    const eth = { available: 1_234_567_890_123_456_789n, pendingStaking: 5n };
    expect(maxWithdrawable(ASSETS.ETH, eth)).toBe(1_232_567_890_123_456_789n);
    expect(maxAmountText(ASSETS.ETH, eth)).toBe('1.232567890123456789');
    // A balance beyond 2^53 minor units, as a whale's ETH is.
    const whale = { available: 12_345_678_000_000_000_000_000n, pendingStaking: 0n };
    expect(maxAmountText(ASSETS.ETH, whale)).toBe('12345.676');
    expect(
      maxAmountText(ASSETS['USDT-TRC20'], { available: 10_000_000n, pendingStaking: 0n }),
    ).toBe('9.998');
  });

  it('fills what passes the balance check: amount + fee is exactly the balance', () => {
    const amount = maxAmountText(ASSETS.BTC, ONE_BTC);
    const check = checkWithdrawal(
      { assetId: 'BTC', amount, address: BTC_ADDRESS, amountFromMax: true },
      ONE_BTC,
    );
    expect(check.first).toBeNull();
    expect((check.amountMinor ?? 0n) + (check.feeMinor ?? 0n)).toBe(ONE_BTC.available);
    expect(check.request).toEqual({ assetId: 'BTC', amount: '0.9999', address: BTC_ADDRESS });
  });

  it('is 0 when the balance does not cover the fee, and says the balance is short', () => {
    const dust = { available: 10_000n, pendingStaking: 0n };
    expect(maxWithdrawable(ASSETS.BTC, dust)).toBe(0n);
    expect(maxWithdrawable(ASSETS.BTC, { available: 9_999n, pendingStaking: 0n })).toBe(0n);
    expect(maxAmountText(ASSETS.BTC, { available: 0n, pendingStaking: 0n })).toBe('0');

    const fromMax = checkWithdrawal(
      { assetId: 'BTC', amount: '0', address: BTC_ADDRESS, amountFromMax: true },
      dust,
    );
    expect(fromMax.errors.amount).toBe(
      'Insufficient balance. Available: 0.00010000 BTC (Wallet: 0.00010000, Staking: 0.00000000)',
    );
    expect(fromMax.first).toBe(fromMax.errors.amount);
    expect(fromMax.request).toBeNull();

    // A 0 typed by hand keeps its own message.
    const typed = checkWithdrawal({ assetId: 'BTC', amount: '0', address: BTC_ADDRESS }, dust);
    expect(typed.first).toBe(WITHDRAWAL_MSG.amountPositive);
  });
});
