export const kycKeys = {
  status: () => ['kyc', 'status'] as const,
};
