import {
  ACTIVE_NAMES,
  type Dict,
  MAX_DEPTH,
  PdfRefusal,
  type PdfValue,
  unreadable,
} from './pdf-values';

/**
 * The PDF check's tokenizer and value parser: bytes to names, numbers, strings, keywords,
 * arrays, dictionaries and references, read the way a reader would (`pdf-scan.ts`).
 */

// ── Tokens ────────────────────────────────────────────────────────────────────────────

export const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isRegular = (c: number) => !WHITESPACE.has(c) && !DELIMITERS.has(c);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const INTEGER = /^[+-]?\d+$/;

export function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** A name's characters after the slash, `#xx` escapes decoded, and where it ends. */
export function readName(b: Uint8Array, from: number): { name: string; end: number } {
  let i = from;
  let name = '';
  while (i < b.length && isRegular(b[i] as number)) {
    const c = b[i] as number;
    if (c === 0x23 && i + 2 < b.length) {
      const hi = hexValue(b[i + 1] ?? -1);
      const lo = hexValue(b[i + 2] ?? -1);
      if (hi >= 0 && lo >= 0) {
        name += String.fromCharCode(hi * 16 + lo);
        i += 3;
        continue;
      }
    }
    name += String.fromCharCode(c);
    i++;
  }
  return { name, end: i };
}

export function checkName(name: string): void {
  if (ACTIVE_NAMES.has(name)) throw new PdfRefusal('active', `/${name}`);
  // Strings and streams of an encrypted file cannot be read without its key.
  if (name === 'Encrypt') throw new PdfRefusal('encrypted', '/Encrypt');
}

type Token =
  | { t: 'open-dict' | 'close-dict' | 'open-arr' | 'close-arr'; at: number }
  | { t: 'value'; value: PdfValue; at: number };

export class Lexer {
  i: number;
  constructor(
    readonly b: Uint8Array,
    from = 0,
  ) {
    this.i = from;
  }

  private skipSpaceAndComments(): void {
    const b = this.b;
    while (this.i < b.length) {
      const c = b[this.i] as number;
      if (WHITESPACE.has(c)) {
        this.i++;
      } else if (c === 0x25) {
        while (this.i < b.length && b[this.i] !== 0x0a && b[this.i] !== 0x0d) this.i++;
      } else {
        return;
      }
    }
  }

  next(): Token | null {
    this.skipSpaceAndComments();
    const b = this.b;
    if (this.i >= b.length) return null;
    const at = this.i;
    const c = b[at] as number;
    if (c === 0x3c) {
      if (b[at + 1] === 0x3c) {
        this.i += 2;
        return { t: 'open-dict', at };
      }
      return this.hexString(at);
    }
    if (c === 0x3e) {
      if (b[at + 1] === 0x3e) {
        this.i += 2;
        return { t: 'close-dict', at };
      }
      throw unreadable(`a stray ">" at byte ${at}`);
    }
    if (c === 0x5b) {
      this.i++;
      return { t: 'open-arr', at };
    }
    if (c === 0x5d) {
      this.i++;
      return { t: 'close-arr', at };
    }
    if (c === 0x28) return this.literalString(at);
    if (c === 0x29) throw unreadable(`a stray ")" at byte ${at}`);
    if (c === 0x7b || c === 0x7d) throw unreadable(`a brace outside a function at byte ${at}`);
    if (c === 0x2f) {
      const { name, end } = readName(b, at + 1);
      checkName(name);
      this.i = end;
      return { t: 'value', value: { k: 'name', v: name }, at };
    }
    let end = at;
    while (end < b.length && isRegular(b[end] as number)) end++;
    const word = Buffer.from(b.subarray(at, end)).toString('latin1');
    this.i = end;
    if (NUMBER.test(word)) {
      return { t: 'value', value: { k: 'num', v: Number(word), int: INTEGER.test(word) }, at };
    }
    return { t: 'value', value: { k: 'kw', v: word }, at };
  }

  private literalString(at: number): Token {
    const b = this.b;
    let depth = 0;
    let i = at;
    for (; i < b.length; i++) {
      const c = b[i];
      if (c === 0x5c) {
        i++; // the escaped character, whatever it is
      } else if (c === 0x28) {
        depth++;
      } else if (c === 0x29) {
        depth--;
        if (depth === 0) {
          this.i = i + 1;
          return { t: 'value', value: { k: 'str' }, at };
        }
      }
    }
    throw unreadable(`an unterminated string at byte ${at}`);
  }

  private hexString(at: number): Token {
    const b = this.b;
    for (let i = at + 1; i < b.length; i++) {
      const c = b[i] as number;
      if (c === 0x3e) {
        this.i = i + 1;
        return { t: 'value', value: { k: 'str' }, at };
      }
      if (hexValue(c) < 0 && !WHITESPACE.has(c)) {
        throw unreadable(`a hex string with a non-hex character at byte ${i}`);
      }
    }
    throw unreadable(`an unterminated hex string at byte ${at}`);
  }
}

// ── Parser ────────────────────────────────────────────────────────────────────────────

type Frame = { kind: 'dict' | 'arr'; items: PdfValue[]; at: number };

/** Appends a value, folding `num gen R` into a reference as readers do. */
function pushValue(items: PdfValue[], value: PdfValue): void {
  if (value.k === 'kw' && value.v === 'R') {
    const gen = items.at(-1);
    const num = items.at(-2);
    if (num?.k === 'num' && num.int && gen?.k === 'num' && gen.int) {
      items.splice(-2, 2, { k: 'ref', num: num.v, gen: gen.v });
      return;
    }
  }
  items.push(value);
}

function closeDict(frame: Frame): PdfValue {
  if (frame.items.length % 2 !== 0) {
    throw unreadable(`a dictionary with a key and no value at byte ${frame.at}`);
  }
  const map: Dict = new Map();
  for (let j = 0; j < frame.items.length; j += 2) {
    const key = frame.items[j] as PdfValue;
    if (key.k !== 'name')
      throw unreadable(`a dictionary key that is not a name at byte ${frame.at}`);
    map.set(key.v, frame.items[j + 1] as PdfValue);
  }
  return { k: 'dict', v: map };
}

/**
 * Reads values at the outermost level one after the other, handing each complete value
 * (with where it started) to `onValue`. Nesting is kept on an explicit stack, so a file of
 * a million `[` fails on the depth limit, not on the call stack.
 */
export function readValues(lexer: Lexer, onValue: (value: PdfValue, at: number) => void): void {
  const stack: Frame[] = [];
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    if (token.t === 'open-dict' || token.t === 'open-arr') {
      if (stack.length >= MAX_DEPTH) throw unreadable(`nesting deeper than ${MAX_DEPTH} levels`);
      stack.push({ kind: token.t === 'open-dict' ? 'dict' : 'arr', items: [], at: token.at });
      continue;
    }
    let done: PdfValue;
    let at = token.at;
    if (token.t === 'value') {
      done = token.value;
    } else {
      const frame = stack.pop();
      const kind = token.t === 'close-dict' ? 'dict' : 'arr';
      if (!frame || frame.kind !== kind) throw unreadable(`an unmatched close at byte ${token.at}`);
      done = kind === 'dict' ? closeDict(frame) : { k: 'arr', v: frame.items };
      at = frame.at;
    }
    const parent = stack.at(-1);
    if (parent) {
      if (done.k === 'kw' && !['R', 'true', 'false', 'null'].includes(done.v)) {
        throw unreadable(`the keyword "${done.v.slice(0, 20)}" inside a value at byte ${at}`);
      }
      pushValue(parent.items, done);
    } else {
      onValue(done, at);
    }
  }
  if (stack.length > 0) throw unreadable('the file ends inside a dictionary or array');
}
