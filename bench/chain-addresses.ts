import type { Address } from 'viem';

/**
 * The chain benchmark's watched addresses, the same in its two processes: the i-th paid
 * one, and the i-th one nobody pays. Lower case, so each is its own match key.
 */
export const paidAddress = (i: number): Address => `0xc0ffee${i.toString(16).padStart(34, '0')}`;
export const unpaidAddress = (i: number): Address => `0xdecade${i.toString(16).padStart(34, '0')}`;
/** An address nobody watches: the chain's other traffic. */
export const strangerAddress = (i: number): Address =>
  `0x5ea1ed${i.toString(16).padStart(34, '0')}`;
