import path from 'node:path';
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

type OptionSpec = Record<string, { type: 'string' } | { type: 'boolean' }>;

/**
 * `--email -2+3abc@example.com` glued into `--email=-2+3abc@example.com`: Node's parser reads
 * a value that starts with a dash as the next option, yet an e-mail, an amount or a hash
 * may begin with one. The word after a string option is its value unless it names one of
 * the command's own options (`--email --password P` still asks for the missing e-mail).
 */
function joinDashedValues(args: string[], options: OptionSpec): string[] {
  const isOwnOption = (word: string) =>
    word === '--' ||
    (word.startsWith('--') && Object.hasOwn(options, word.slice(2).split('=')[0] ?? ''));
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    const next = args[i + 1];
    // After `--` every word is a positional, as Node reads it.
    if (word === '--') return [...joined, ...args.slice(i)];
    const name = word.startsWith('--') && !word.includes('=') ? word.slice(2) : null;
    if (
      name !== null &&
      options[name]?.type === 'string' &&
      next?.startsWith('-') &&
      !isOwnOption(next)
    ) {
      joined.push(`${word}=${next}`);
      i++;
    } else joined.push(word);
  }
  return joined;
}

/**
 * Parsed options; a bad one is a refusal with Node's own explanation. `positionals`: whether
 * bare words are allowed beside the options (a file name); otherwise one is refused.
 */
export function optionsOf<T extends OptionSpec>(
  args: string[],
  options: T,
  { positionals = true }: { positionals?: boolean } = {},
) {
  try {
    return parseArgs({
      args: joinDashedValues(args, options),
      options,
      allowPositionals: positionals,
    });
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * A file the operator named, as an absolute path: relative to the directory they ran the
 * command in. `npm run cli` runs the CLI from the repository root, and says where it was
 * called from in INIT_CWD; run directly (node, tsx), the process's own directory is that.
 */
export function operatorPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.INIT_CWD || process.cwd(), file);
}

/** A file that cannot be read or written, in one line naming it and the system's reason. */
export function fileProblem(what: string, file: string, err: unknown): CliError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const reasons: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'it is a directory',
    ENOTDIR: 'a part of the path is not a directory',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
  };
  const reason = (code && reasons[code]) || (err instanceof Error ? err.message : String(err));
  return new CliError(`Cannot ${what} ${file}: ${reason}.`);
}
