import type { TAppSetting } from '@coffer/shared';
import { useFieldMessage } from '@web/components/ui/form';
import { useFormContext } from 'react-hook-form';
import { SettingField } from './setting-field';
import type { TSettingsDraft } from './settings-draft';

/** One setting on the form layer: its value in the draft (else as stored) and its message. */
export function SettingFormField({
  setting,
  pendingValue,
}: {
  setting: TAppSetting;
  /** The value another admin has been asked to approve, if any. */
  pendingValue: string | null;
}) {
  const { watch, setValue } = useFormContext<TSettingsDraft>();
  const typed: string | undefined = watch(setting.key);
  const value = typed ?? setting.value;
  const error = useFieldMessage(setting.key) ?? null;
  return (
    <SettingField
      setting={setting}
      value={value}
      pendingValue={pendingValue}
      changed={value !== setting.value}
      error={error}
      onChange={(next) => setValue(setting.key, next)}
    />
  );
}
