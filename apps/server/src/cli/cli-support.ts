import { parseArgs } from 'node:util';
import type { Services } from '../app-services';
import type { Config } from '../config';

/** A refusal the operator can act on: printed as it is, without a stack trace. */
export class CliError extends Error {}

export type CliCommand = { usage: string; run(s: Services, args: string[]): Promise<string> };

/**
 * A command that must find the database as it is: no key check, migrations or default
 * settings first (a restore needs an empty database, and brings its own key).
 */
export type BareCliCommand = {
  usage: string;
  run(target: { config: Config; databaseUrl: string }, args: string[]): Promise<string>;
};

/**
 * Commands that need neither the configuration nor a database nor a network: the offline
 * signer, run on a machine that holds the keys and nothing else.
 */
export type OfflineCliCommand = { usage: string; run(args: string[]): Promise<string> };

/** Parsed options; a bad one is a refusal with Node's own explanation. */
export function optionsOf<T extends Record<string, { type: 'string' } | { type: 'boolean' }>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true });
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
}
