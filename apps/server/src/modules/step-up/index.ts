/** Step-up: a fresh second factor with each request that moves money or changes a factor. */
export { createStepUp, type StepUp, type StepUpSubject } from './step-up.service';
