import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { OFFLINE_COMMANDS } from '@server/cli-commands';
import { describe, expect, it } from 'vitest';
import { parseAccountKey } from '../chains';
import { buildEthereumEntry } from './ethereum-payout-build';
import { checkSignedEthereum } from './ethereum-payout-check';
import { type EthPayoutFile, payoutAddressOf } from './ethereum-payout-tx';

/**
 * `sign-payouts`, Coffer's offline signer: it reads the mnemonic from a file or standard
 * input, never an argument, and runs with no configuration, database or network.
 */

const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const account = parseAccountKey(
  'ETH_XPUB',
  HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).derive("m/44'/60'/0'").publicExtendedKey,
  'plain',
).account;
const from = payoutAddressOf(account);

function unsignedFile(): EthPayoutFile {
  return {
    kind: 'coffer-ethereum-payouts',
    version: 1,
    batchId: 'test',
    entries: [
      buildEthereumEntry({
        payoutId: 'p1',
        assetId: 'ETH',
        recipient: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        amount: 10n ** 16n,
        usdtContract: '0xdac17f958d2ee523a2206206994597c13d831ec7',
        from,
        nonce: 7,
        gas: 21_000n,
        fees: { maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
        chainId: 31337,
      }),
    ],
  };
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-sign-'));
}

describe('sign-payouts', () => {
  it('signs with the mnemonic of a --key file; the signature passes Coffer’s check', async () => {
    const dir = tempDir();
    const unsigned = unsignedFile();
    fs.writeFileSync(path.join(dir, 'in.json'), JSON.stringify(unsigned));
    fs.writeFileSync(path.join(dir, 'key.txt'), `${MNEMONIC}\n`);
    const command = OFFLINE_COMMANDS['sign-payouts'];
    if (!command) throw new Error('no sign-payouts command');
    const said = await command.run([
      '--in',
      path.join(dir, 'in.json'),
      '--out',
      path.join(dir, 'out.json'),
      '--key',
      path.join(dir, 'key.txt'),
    ]);
    expect(said).toBe(`Signed 1 Ethereum transaction(s): ${path.join(dir, 'out.json')}`);
    const signed = JSON.parse(fs.readFileSync(path.join(dir, 'out.json'), 'utf8')) as EthPayoutFile;
    const entry = unsigned.entries[0];
    const signedHex = signed.entries[0]?.signed;
    if (!entry || !signedHex) throw new Error('nothing signed');
    await expect(
      checkSignedEthereum(entry, signedHex as `0x${string}`, from),
    ).resolves.toMatchObject({
      raw: signedHex,
    });
    // Only its owner may read the signed file.
    expect(fs.statSync(path.join(dir, 'out.json')).mode & 0o077).toBe(0);
  });

  it('runs as its own process with no configuration, reading the mnemonic from standard input', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'in.json'), JSON.stringify(unsignedFile()));
    const child = execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        path.resolve(__dirname, '../../cli.ts'),
        'sign-payouts',
        '--in',
        path.join(dir, 'in.json'),
        '--out',
        path.join(dir, 'out.json'),
      ],
      // No database, no data directory, no key: only what a bare machine has.
      { env: { PATH: process.env.PATH ?? '' }, cwd: process.cwd() },
    );
    child.stdin?.end(`${MNEMONIC}\n`);
    const output = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        let stdout = '';
        let stderr = '';
        child.stdout?.on('data', (d) => {
          stdout += String(d);
        });
        child.stderr?.on('data', (d) => {
          stderr += String(d);
        });
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      },
    );
    expect(output).toEqual({
      code: 0,
      stdout: `Signed 1 Ethereum transaction(s): ${path.join(dir, 'out.json')}\n`,
      stderr: '',
    });
    expect(fs.readdirSync(dir).sort()).toEqual(['in.json', 'out.json']);
  });

  it('refuses a mnemonic that does not hold the payout address, and writes nothing', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'in.json'), JSON.stringify(unsignedFile()));
    fs.writeFileSync(
      path.join(dir, 'key.txt'),
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
    );
    const command = OFFLINE_COMMANDS['sign-payouts'];
    if (!command) throw new Error('no sign-payouts command');
    await expect(
      command.run([
        '--in',
        path.join(dir, 'in.json'),
        '--out',
        path.join(dir, 'out.json'),
        '--key',
        path.join(dir, 'key.txt'),
      ]),
    ).rejects.toThrow(/Not signed/);
    expect(fs.existsSync(path.join(dir, 'out.json'))).toBe(false);
  });
});
