/** The recovery phrase: its front door (see ../README.md). */
export { createSeedPhrasesRepository } from './recovery-phrase.repository';
export { recoveryPhraseRoutes } from './recovery-phrase.routes';
export { createRecoveryPhraseService, type RecoveryPhraseService } from './recovery-phrase.service';
