export const recoveryPhraseKeys = {
  phrase: () => ['recovery-phrase'] as const,
};
