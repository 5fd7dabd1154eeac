import type { z } from 'zod';

/** The first message of each field, as a form shows them: one message under each input. */
export function firstErrorByField<F extends string>(
  issues: readonly z.core.$ZodIssue[],
): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0] as F | undefined;
    if (field !== undefined && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}
