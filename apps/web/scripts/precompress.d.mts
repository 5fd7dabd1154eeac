/** Files of this many bytes or more are compressed. */
export const MIN_BYTES: number;

/** Writes `.br` and `.gz` copies beside the compressible files of `dir`. */
export function precompress(dir: string): Promise<{ files: number; before: number; after: number }>;
