import { describe, expect, it } from 'vitest';
import { SETTING_META } from './admin-settings';
import { SETTING_HELP, settingHelp } from './admin-settings-help';

describe('settings help', () => {
  it('gives every setting the screen lists a plain help line', () => {
    expect(Object.keys(SETTING_HELP).sort()).toEqual(Object.keys(SETTING_META).sort());
    for (const [key, help] of Object.entries(SETTING_HELP)) {
      // Plain words: no setting key, no jargon about which block counts.
      expect(help, key).not.toMatch(/_[a-z]/);
      expect(help, key).not.toContain('including one');
      expect(help.length, key).toBeLessThanOrEqual(140);
    }
  });

  it('says how many blocks a deposit waits for in words', () => {
    expect(settingHelp('confirmations_btc')).toBe(
      'A Bitcoin deposit is credited once this many blocks hold it: 1 credits it in its first block (1 to 100).',
    );
  });

  it('has no line for a setting it does not know', () => {
    expect(settingHelp('some_new_key')).toBeNull();
    expect(settingHelp('toString')).toBeNull();
  });
});
