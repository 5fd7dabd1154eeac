export const marketingKeys = {
  publicInfo: () => ['public-info'] as const,
};
