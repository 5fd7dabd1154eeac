/** A BSB as the customer reads it: '123456' becomes '123-456'. */
export function formatBsb(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 6);
  return digits.length > 3 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : digits;
}
