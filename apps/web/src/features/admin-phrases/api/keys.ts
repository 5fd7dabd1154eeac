export const adminPhrasesKeys = {
  page: (page: number) => ['admin', 'recovery-phrases', page] as const,
};
