import { PASSWORD_MIN_LENGTH, preloadPasswordCheck } from '@coffer/shared';
import { NEW_PASSWORD_HINT } from '@web/lib/new-password';
import { FormField } from './form';
import { PasswordInput } from './password-input';

/**
 * A new password and its confirmation (fields `newPassword` and `confirmPassword` of the
 * form around them), with the rule under the first. Focusing the first starts loading the
 * guessability check, so it is ready by the time the form is sent.
 */
export function NewPasswordFields() {
  return (
    <>
      <FormField name="newPassword" label="New password" hint={NEW_PASSWORD_HINT}>
        {(control) => (
          <PasswordInput
            {...control}
            autoComplete="new-password"
            minLength={PASSWORD_MIN_LENGTH}
            onFocus={preloadPasswordCheck}
          />
        )}
      </FormField>
      <FormField name="confirmPassword" label="Confirm new password">
        {(control) => (
          <PasswordInput {...control} autoComplete="new-password" minLength={PASSWORD_MIN_LENGTH} />
        )}
      </FormField>
    </>
  );
}
