import fs from 'node:fs';
import type { TPayoutChain } from '@coffer/shared';
import { AppError } from '../lib/app-error';
import {
  DEFAULT_BITCOIN_ACCOUNT,
  readMnemonic,
  signPayoutFile,
} from '../modules/payouts/offline-signer';
import { PayoutFileError } from '../modules/payouts/payout-file-error';
import { type CliCommand, CliError, type OfflineCliCommand, optionsOf } from './cli-support';

export const signPayouts: OfflineCliCommand = {
  usage:
    "sign-payouts --in FILE --out FILE [--key MNEMONIC_FILE] [--account \"m/84'/1'/0'\"]   (mnemonic from --key or standard input)",
  async run(args) {
    const { values } = optionsOf(args, {
      in: { type: 'string' },
      out: { type: 'string' },
      key: { type: 'string' },
      account: { type: 'string' },
    });
    if (!values.in || !values.out)
      throw new CliError(
        'Name the unsigned file and where to write the signed one: --in FILE --out FILE',
      );
    const unsigned = fs.readFileSync(values.in, 'utf8');
    try {
      const signed = signPayoutFile(unsigned, readMnemonic(values.key), {
        bitcoinAccountPath: values.account ?? DEFAULT_BITCOIN_ACCOUNT.test,
      });
      fs.writeFileSync(values.out, signed.content, { mode: 0o600 });
      return signed.kind === 'bitcoin'
        ? `Signed the Bitcoin batch: ${values.out}`
        : `Signed ${signed.count} Ethereum transaction(s): ${values.out}`;
    } catch (err) {
      if (err instanceof PayoutFileError)
        throw new CliError(err.message.replace('The signed file was refused', 'Not signed'));
      throw new CliError(err instanceof Error ? err.message : String(err));
    }
  },
};

/** A payouts refusal (an AppError) is the operator's to act on: printed on its own. */
async function asPayoutOutcome<T>(act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message);
    throw err;
  }
}

function chainOption(value: string | undefined): TPayoutChain {
  const chain = value === 'btc' ? 'bitcoin' : value === 'eth' ? 'ethereum' : null;
  if (!chain) throw new CliError('Say which chain: --chain btc or --chain eth');
  return chain;
}

export const payoutsBuild: CliCommand = {
  usage: 'payouts-build --chain btc|eth --out FILE',
  async run(s, args) {
    const { values } = optionsOf(args, { chain: { type: 'string' }, out: { type: 'string' } });
    const chain = chainOption(values.chain);
    if (!values.out) throw new CliError('Say where to write the unsigned file: --out FILE');
    const out = values.out;
    const { batch, file } = await asPayoutOutcome(() =>
      s.payouts.build({ id: null, ip: null }, chain),
    );
    fs.writeFileSync(out, file);
    const total = batch.payouts.length;
    return [
      `Built batch ${batch.id} (${chain}): ${total} payout(s), fee ${batch.fee ?? '?'}${batch.feeRate ? ` at ${batch.feeRate} sat/vB` : ''}.`,
      ...batch.payouts.map((p) => `  ${p.amount} ${p.assetId} to ${p.address}`),
      `Unsigned file: ${out}`,
    ].join('\n');
  },
};

export const payoutsSubmit: CliCommand = {
  usage: 'payouts-submit --chain btc|eth --in FILE',
  async run(s, args) {
    const { values } = optionsOf(args, { chain: { type: 'string' }, in: { type: 'string' } });
    const chain = chainOption(values.chain);
    if (!values.in) throw new CliError('Name the signed file: --in FILE');
    const text = fs.readFileSync(values.in, 'utf8');
    const result = await asPayoutOutcome(() =>
      s.payouts.submit({ id: null, ip: null }, chain, text, null),
    );
    return [
      `Batch ${result.batch.id} is ${result.batch.state}.`,
      ...result.sent.map((h) => `  sent ${h}`),
      ...result.alreadySent.map((h) => `  already sent before (not sent again) ${h}`),
    ].join('\n');
  },
};
