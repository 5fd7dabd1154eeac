/**
 * A signed or unsigned payout file that is not what Coffer built, or cannot be read: the
 * differences are listed one per entry, so staff (and the CLI) see exactly what was
 * changed. Nothing is broadcast when one is thrown. The service turns it into a 400.
 */
export class PayoutFileError extends Error {
  constructor(readonly differences: readonly string[]) {
    super(
      differences.length === 1
        ? `The signed file was refused: ${differences[0]}`
        : `The signed file was refused: ${differences.join('; ')}`,
    );
    this.name = 'PayoutFileError';
  }
}
