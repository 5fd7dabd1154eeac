import { describe, expect, it } from 'vitest';
import { hasInvisible, revealInvisible, withoutInvisibleCharacters } from './customer-text';

describe('customer text as staff read it', () => {
  it('shows a right-to-left override as its code point, so the text reads as typed', () => {
    // Rendered raw, "exe.fdp<img" after U+202E reads backwards as a harmless ".pdf".
    expect(revealInvisible('invoice\u202Eexe.fdp<img')).toBe('invoice⟨U+202E⟩exe.fdp<img');
    expect(hasInvisible('invoice\u202Eexe.fdp')).toBe(true);
  });

  it('marks every other bidi, zero-width and control character too', () => {
    const cases: Array<[string, string]> = [
      ['\u202D', '⟨U+202D⟩'], // left-to-right override
      ['\u2066', '⟨U+2066⟩'], // left-to-right isolate
      ['\u2069', '⟨U+2069⟩'], // pop directional isolate
      ['\u200F', '⟨U+200F⟩'], // right-to-left mark
      ['\u200B', '⟨U+200B⟩'], // zero-width space
      ['\u200D', '⟨U+200D⟩'], // zero-width joiner
      ['\uFEFF', '⟨U+FEFF⟩'], // byte-order mark
      ['\u0000', '⟨U+0000⟩'], // NUL
      ['\u0007', '⟨U+0007⟩'], // bell
      ['\u0085', '⟨U+0085⟩'], // next line (C1)
      ['\u2028', '⟨U+2028⟩'], // line separator
      ['\u{E0041}', '⟨U+E0041⟩'], // tag character, outside the basic plane
    ];
    for (const [ch, shown] of cases) {
      expect(revealInvisible(`a${ch}b`), escape(ch)).toBe(`a${shown}b`);
    }
  });

  it('leaves ordinary text, accents and right-to-left scripts alone', () => {
    for (const text of ['Alice Nguyen', 'Zoë Müller', 'محمد', 'שלום', '李小龙', '1 Main St, #4']) {
      expect(revealInvisible(text)).toBe(text);
      expect(hasInvisible(text)).toBe(false);
    }
    // Even a joiner inside an emoji is shown: staff never miss a hidden character.
    expect(revealInvisible('👩\u200D💻')).toBe('👩⟨U+200D⟩💻');
  });

  it('keeps line breaks and tabs only where the text may have lines', () => {
    expect(revealInvisible('1 Main St\nSydney')).toBe('1 Main St⟨U+000A⟩Sydney');
    expect(revealInvisible('1 Main St\nSydney', { keepLines: true })).toBe('1 Main St\nSydney');
    expect(revealInvisible('a\r\nb', { keepLines: true })).toBe('a⟨U+000D⟩\nb');
  });

  it('drops the same characters from a name', () => {
    expect(withoutInvisibleCharacters('pass\u202Eport\u200B.png')).toBe('passport.png');
  });
});
