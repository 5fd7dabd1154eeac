/**
 * The address in what a QR code (or the clipboard) holds: a bare address, or a payment URI
 * as wallets show them, `bitcoin:<address>?amount=…` or `ethereum:<address>@<chain>?value=…`.
 */
export type TCodeAddress = {
  address: string;
  /**
   * The code also asked for an amount. It is never filled in: the customer types what they
   * mean to send, so a code cannot choose it for them.
   */
  namedAmount: boolean;
};

const SCHEME = /^(bitcoin|ethereum):/i;

/** Query parameters that carry an amount in a Bitcoin or Ethereum payment URI. */
const AMOUNT_PARAMS = ['amount', 'value', 'uint256'];

function namesAmount(query: URLSearchParams): boolean {
  return AMOUNT_PARAMS.some((name) => (query.get(name) ?? '') !== '');
}

/**
 * An Ethereum URI's receiver. A token transfer (`ethereum:<token>/transfer?address=<to>`)
 * pays the `address` parameter: the part after the scheme is then the token's contract, and
 * sending there would lose the coins. Any other contract call is no address to pay.
 */
function ethereumReceiver(path: string, query: URLSearchParams): string | null {
  const [target = '', fn] = path.replace(/^pay-/i, '').split('/');
  if (fn === undefined) return target.split('@')[0] ?? '';
  if (fn.toLowerCase() === 'transfer') return query.get('address');
  return null;
}

/**
 * The address a scanned or pasted text names, or null when it names none (an empty code, a
 * contract call that is no payment). A text that is no URI is returned trimmed, for the
 * address check to judge.
 */
export function addressFromCode(text: string): TCodeAddress | null {
  const trimmed = text.trim();
  const scheme = SCHEME.exec(trimmed)?.[1]?.toLowerCase();
  // Some wallets write `bitcoin://<address>`, as if the scheme were a web address's.
  const rest = scheme ? trimmed.slice(scheme.length + 1).replace(/^\/\//, '') : trimmed;
  const queryAt = rest.indexOf('?');
  const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : rest.slice(queryAt + 1));

  const address = scheme === 'ethereum' ? ethereumReceiver(path, query) : path;
  const cleaned = address?.trim() ?? '';
  if (cleaned === '') return null;
  return { address: cleaned, namedAmount: namesAmount(query) };
}
