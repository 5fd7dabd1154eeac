export const bankKeys = {
  details: () => ['bank-details'] as const,
};
