export const adminDashboardKeys = {
  overview: () => ['admin', 'overview'] as const,
};
