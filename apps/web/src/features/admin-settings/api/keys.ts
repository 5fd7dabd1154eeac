export const adminSettingsKeys = {
  settings: () => ['admin', 'settings'] as const,
  priceSync: () => ['admin', 'price-sync'] as const,
};
