import { describe, expect, it } from 'vitest';
import { countWords, normalizePhrase, ZRecoveryPhrase } from './recovery-phrase';

const TWELVE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';
const TWELVE_WORDS_MESSAGE = 'Recovery phrase must contain exactly 12 words separated by spaces.';

describe('normalizePhrase', () => {
  it('trims, lower-cases and collapses any whitespace to single spaces', () => {
    expect(normalizePhrase('  Abandon   ABILITY\table\n about  ')).toBe(
      'abandon ability able about',
    );
    expect(normalizePhrase('\n\t ')).toBe('');
  });

  it('leaves an already normal phrase as it is', () => {
    expect(normalizePhrase(TWELVE)).toBe(TWELVE);
  });
});

describe('countWords', () => {
  it('counts words however they are spaced, and none in blank input', () => {
    expect(countWords(` ${TWELVE.replaceAll(' ', '   ')} `)).toBe(12);
    expect(countWords('   ')).toBe(0);
  });
});

describe('recovery phrase field', () => {
  it('accepts twelve words and sends them normalized', () => {
    expect(ZRecoveryPhrase.parse(`  ${TWELVE.toUpperCase().replaceAll(' ', ' \t ')}\n`)).toBe(
      TWELVE,
    );
  });

  it.each([
    ['eleven words', TWELVE.split(' ').slice(0, 11).join(' ')],
    ['thirteen words', `${TWELVE} zoo`],
    ['nothing', '   '],
  ])('refuses %s with the 12-word message', (_what, phrase) => {
    expect(ZRecoveryPhrase.safeParse(phrase).error?.issues[0]?.message).toBe(TWELVE_WORDS_MESSAGE);
  });
});
