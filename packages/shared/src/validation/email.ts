import { z } from 'zod';
import { MSG } from '../messages';

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, MSG.invalidEmail)
  .pipe(z.email(MSG.invalidEmail));
