import fs from 'node:fs';
import path from 'node:path';
import type { TPayoutChain } from '@coffer/shared';
import { AppError } from '../lib/app-error';
import { PAYOUT_MSG } from '../modules/payouts';
import {
  DEFAULT_BITCOIN_ACCOUNT,
  readMnemonic,
  signPayoutFile,
} from '../modules/payouts/offline-signer';
import { PayoutFileError } from '../modules/payouts/payout-file-error';
import {
  type CliCommand,
  CliError,
  fileProblem,
  type OfflineCliCommand,
  operatorPath,
  optionsOf,
} from './cli-support';

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
    const input = operatorPath(values.in);
    const out = operatorPath(values.out);
    const unsigned = readText('read the unsigned file', input);
    try {
      const signed = signPayoutFile(
        unsigned,
        readMnemonic(values.key === undefined ? undefined : operatorPath(values.key)),
        { bitcoinAccountPath: values.account ?? DEFAULT_BITCOIN_ACCOUNT.test },
      );
      writeText('write the signed file to', out, signed.content, { mode: 0o600 });
      return signed.kind === 'bitcoin'
        ? `Signed the Bitcoin batch: ${out}`
        : `Signed ${signed.count} Ethereum transaction(s): ${out}`;
    } catch (err) {
      if (err instanceof CliError) throw err;
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
    const out = operatorPath(values.out);
    // Written inside the build's transaction: a file that cannot be written keeps no batch,
    // and the payouts stay approved for the next build.
    const { batch } = await asPayoutOutcome(() =>
      s.payouts.build({ id: null, ip: null }, chain, (file) =>
        writeText('write the unsigned file to', out, file, {
          afterwards: ' Nothing was built: the payouts stay approved.',
        }),
      ),
    );
    const total = batch.payouts.length;
    return [
      `Built batch ${batch.id} (${chain}): ${total} payout(s), fee ${batch.fee ?? '?'} ${batch.feeAsset}${batch.feeRate ? ` at ${batch.feeRate} sat/vB` : ''}.`,
      ...batch.payouts.map((p) => `  ${p.amount} ${p.assetId} to ${p.address}`),
      `Unsigned file: ${out}`,
    ].join('\n');
  },
};

export const payoutsFile: CliCommand = {
  usage: "payouts-file --batch ID --out FILE   (a built batch's unsigned file, again)",
  /** The bytes the Payouts screen's download gives (the same service call, audited the same). */
  async run(s, args) {
    const { values } = optionsOf(
      args,
      { batch: { type: 'string' }, out: { type: 'string' } },
      { positionals: false },
    );
    const batchId = values.batch?.trim();
    if (!batchId)
      throw new CliError(
        'Name the batch: --batch ID (payouts-build and the Payouts screen show it)',
      );
    if (!values.out) throw new CliError('Say where to write the unsigned file: --out FILE');
    const out = operatorPath(values.out);
    // Asked before the download is recorded: a place that cannot take the file changes nothing.
    assertWritable(out);
    const { content } = await asPayoutOutcome(() =>
      s.payouts.file({ id: null, ip: null }, batchId),
    );
    writeText('write the unsigned file to', out, content);
    return `Unsigned file of batch ${batchId}: ${out}`;
  },
};

export const payoutsSubmit: CliCommand = {
  usage: 'payouts-submit --chain btc|eth --in FILE [--batch ID]',
  async run(s, args) {
    const { values } = optionsOf(args, {
      chain: { type: 'string' },
      in: { type: 'string' },
      batch: { type: 'string' },
    });
    const chain = chainOption(values.chain);
    if (!values.in) throw new CliError('Name the signed file: --in FILE');
    const text = readText('read the signed file', operatorPath(values.in));
    const batchId = values.batch?.trim() || null;
    const result = await asPayoutOutcome(() =>
      s.payouts.submit({ id: null, ip: null }, chain, text, batchId),
    ).catch((err: unknown) => {
      // Without --batch the file is matched to a batch by its transaction: a file that
      // differs from every batch matches none, and only naming the batch says how it differs.
      if (batchId === null && err instanceof CliError && err.message === PAYOUT_MSG.batchNotFound)
        throw new CliError(
          'No batch matches this file. Name the batch it was built for (--batch ID) to see how it differs.',
        );
      throw err;
    });
    return [
      `Batch ${result.batch.id} is ${result.batch.state}.`,
      ...result.sent.map((h) => `  sent ${h}`),
      ...result.alreadySent.map((h) => `  already sent before (not sent again) ${h}`),
    ].join('\n');
  },
};

function readText(what: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw fileProblem(what, file, err);
  }
}

function writeText(
  what: string,
  file: string,
  content: string,
  opts: { mode?: number; afterwards?: string } = {},
): void {
  try {
    fs.writeFileSync(file, content, opts.mode === undefined ? {} : { mode: opts.mode });
  } catch (err) {
    const problem = fileProblem(what, file, err);
    throw new CliError(`${problem.message}${opts.afterwards ?? ''}`);
  }
}

/** A file that could be written: its directory takes files, and it is no directory itself. */
function assertWritable(file: string): void {
  try {
    if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
    fs.accessSync(path.dirname(file), fs.constants.W_OK);
  } catch (err) {
    throw fileProblem('write the unsigned file to', file, err);
  }
}
