/** App settings: their front door (see ../README.md). */
export { withSettingsCache } from './settings.cache';
export { SETTING_DEFAULTS, type SettingDefault, type SettingType } from './settings.defaults';
export {
  SETTINGS_CHANNEL,
  type SettingRow,
  settingsWrites,
} from './settings.repository';
