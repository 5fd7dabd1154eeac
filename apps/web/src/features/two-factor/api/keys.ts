export const twoFactorKeys = {
  status: () => ['two-factor-status'] as const,
};
