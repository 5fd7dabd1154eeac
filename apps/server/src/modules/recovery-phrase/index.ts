/** The recovery phrase: its front door (see ../README.md). */
export { recoveryPhraseRoutes } from './recovery-phrase.routes';
export { createRecoveryPhraseService, type RecoveryPhraseService } from './recovery-phrase.service';
