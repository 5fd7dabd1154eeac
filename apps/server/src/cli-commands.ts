import { createAdmin, resetAdmin2fa } from './cli/account-commands';
import { backup, restore } from './cli/backup-commands';
import { auditVerify, chainStatus, seedLoadCommand } from './cli/check-commands';
import {
  type BareCliCommand,
  type CliCommand,
  CliError,
  type OfflineCliCommand,
} from './cli/cli-support';
import { creditDeposit } from './cli/deposit-commands';
import { payoutsBuild, payoutsFile, payoutsSubmit, signPayouts } from './cli/payout-commands';

/**
 * The command tables of `npm run cli`: each command group is its own file under `cli/`,
 * sharing the error and option helpers of `cli/cli-support.ts`.
 */

export {
  type BareCliCommand,
  type CliCommand,
  CliError,
  type OfflineCliCommand,
} from './cli/cli-support';
// One source of truth for what `chain-status` prints: chain-status.ts (the Chains screen's too).
export { formatChainStatus } from './modules/chains/chain-status';

export const BARE_COMMANDS: Record<string, BareCliCommand> = { restore };

/**
 * Prints what a command says and gives the exit code: a refusal (CliError) is printed on
 * its own and exits 1; anything else is a fault and is thrown.
 */
export async function printOutcome(run: () => Promise<string>): Promise<number> {
  try {
    console.log(await run());
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

export const OFFLINE_COMMANDS: Record<string, OfflineCliCommand> = {
  'sign-payouts': signPayouts,
};

/** The operator tasks of `npm run cli`, apart from the process around them so tests can run them. */
export const COMMANDS: Record<string, CliCommand> = {
  'payouts-build': payoutsBuild,
  'payouts-file': payoutsFile,
  'payouts-submit': payoutsSubmit,
  'create-admin': createAdmin,
  'credit-deposit': creditDeposit,
  'reset-admin-2fa': resetAdmin2fa,
  'audit-verify': auditVerify,
  'chain-status': chainStatus,
  backup,
  'seed-load': seedLoadCommand,
};
