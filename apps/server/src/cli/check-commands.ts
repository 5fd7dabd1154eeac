import { chainsOverview, formatChainsOverview } from '../modules/chains/chain-status';
import { seedLoad } from '../seed-load';
import { type CliCommand, CliError, optionsOf } from './cli-support';

export const auditVerify: CliCommand = {
  usage: 'audit-verify',
  async run(s, args) {
    optionsOf(args, {}, { positionals: false });
    const result = await s.audit.verify(s.pool);
    if (!result.ok) {
      throw new CliError(`Audit log broken at row ${result.firstBrokenId}: ${result.reason}.`);
    }
    return `Audit log intact: ${result.rows} rows.`;
  },
};

export const chainStatus: CliCommand = {
  usage: 'chain-status',
  /** Each configured chain's watcher: how far it is, whether its node answers, what waits. */
  async run(s, args) {
    optionsOf(args, {}, { positionals: false });
    return formatChainsOverview(await chainsOverview(s.pool, s.chainAdapters, s.config.chains));
  },
};

export const seedLoadCommand: CliCommand = {
  usage: 'seed-load [--customers 10000] [--transactions 1000000] [--heavy 100000]',
  async run(s, args) {
    const { values } = optionsOf(
      args,
      {
        customers: { type: 'string' },
        transactions: { type: 'string' },
        heavy: { type: 'string' },
      },
      { positionals: false },
    );
    const opts = {
      customers: Number(values.customers ?? '10000'),
      transactions: Number(values.transactions ?? '1000000'),
      heavy: Number(values.heavy ?? '100000'),
    };
    for (const [name, n] of Object.entries(opts)) {
      if (!Number.isInteger(n) || n < 2)
        throw new CliError(`--${name} must be a whole number of at least 2.`);
    }
    if (opts.heavy > opts.transactions)
      throw new CliError('--heavy cannot be more than --transactions.');
    return seedLoad(s.pool, opts);
  },
};
