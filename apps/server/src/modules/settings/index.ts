/** App settings: their front door (see ../README.md). */
export { SETTINGS_CHANNEL, withSettingsCache } from './settings.cache';
export { SETTING_DEFAULTS, type SettingDefault, type SettingType } from './settings.defaults';
export { createSettingsRepository } from './settings.repository';
export { type SettingRow, settingsWrites } from './settings.writes';
