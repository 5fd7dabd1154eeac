import { describe, expect, it } from 'vitest';
import { addressFromCode } from '../src/features/withdraw/components/address-code';

const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const ETH = '0x52908400098527886E0F7030069857D2E4169EE7';
const TOKEN = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

describe('addressFromCode', () => {
  it('takes a bare address as it is, trimmed', () => {
    expect(addressFromCode(`  ${BTC}\n`)).toEqual({ address: BTC, namedAmount: false });
    expect(addressFromCode(ETH)).toEqual({ address: ETH, namedAmount: false });
  });

  it('strips a bitcoin: URI to its address, and never takes its amount', () => {
    expect(addressFromCode(`bitcoin:${BTC}`)).toEqual({ address: BTC, namedAmount: false });
    expect(addressFromCode(`bitcoin:${BTC}?amount=0.5&label=Rent`)).toEqual({
      address: BTC,
      namedAmount: true,
    });
    expect(addressFromCode(`bitcoin:${BTC}?label=Rent`)).toEqual({
      address: BTC,
      namedAmount: false,
    });
    // Upper case, as QR codes write it to stay small, and the web-address form some use.
    expect(addressFromCode(`BITCOIN:${BTC.toUpperCase()}?AMOUNT=1`)).toEqual({
      address: BTC.toUpperCase(),
      namedAmount: false,
    });
    expect(addressFromCode(`bitcoin://${BTC}`)).toEqual({ address: BTC, namedAmount: false });
  });

  it('strips an ethereum: URI to its address, its chain and its value', () => {
    expect(addressFromCode(`ethereum:${ETH}`)).toEqual({ address: ETH, namedAmount: false });
    expect(addressFromCode(`ethereum:${ETH}@1?value=2.014e18`)).toEqual({
      address: ETH,
      namedAmount: true,
    });
    expect(addressFromCode(`ethereum:pay-${ETH}@1`)).toEqual({ address: ETH, namedAmount: false });
  });

  it('pays a token transfer to its receiver, never to the token contract', () => {
    expect(addressFromCode(`ethereum:${TOKEN}@1/transfer?address=${ETH}&uint256=1000000`)).toEqual({
      address: ETH,
      namedAmount: true,
    });
    expect(addressFromCode(`ethereum:${TOKEN}/transfer?address=${ETH}`)).toEqual({
      address: ETH,
      namedAmount: false,
    });
  });

  it('finds no address in an empty code or a contract call that pays no one', () => {
    expect(addressFromCode('')).toBeNull();
    expect(addressFromCode('   ')).toBeNull();
    expect(addressFromCode('bitcoin:?lightning=lnbc1')).toBeNull();
    expect(addressFromCode(`ethereum:${TOKEN}/approve?address=${ETH}&uint256=1`)).toBeNull();
    expect(addressFromCode(`ethereum:${TOKEN}/transfer?uint256=1`)).toBeNull();
  });

  it('leaves any other text whole, without its query, for the address check to judge', () => {
    expect(addressFromCode('litecoin:ltc1qxyz?amount=1')).toEqual({
      address: 'litecoin:ltc1qxyz',
      namedAmount: true,
    });
    expect(addressFromCode('bitcoincash:qq123')).toEqual({
      address: 'bitcoincash:qq123',
      namedAmount: false,
    });
  });
});
