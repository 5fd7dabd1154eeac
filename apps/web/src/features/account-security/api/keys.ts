export const accountSecurityKeys = {
  sessions: () => ['account-sessions'] as const,
  securityActivity: () => ['security-activity'] as const,
};
