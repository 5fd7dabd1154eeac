import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { StartupError } from './lib/startup-error';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-config-test-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

describe('configuration', () => {
  it('listens on loopback unless HOST says otherwise', () => {
    expect(load({}).host).toBe('127.0.0.1');
    expect(load({ DATABASE_URL: 'postgres://db.example/coffer' }).host).toBe('127.0.0.1');
    expect(load({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('refuses a PORT that is not a port number, with one line naming it', () => {
    for (const bad of ['abc', '0', '65536', '3000.5', '-1', ' ', '0x50', '1e3']) {
      expect(() => load({ PORT: bad })).toThrow(StartupError);
      expect(() => load({ PORT: bad })).toThrow(
        `PORT must be a whole number from 1 to 65535, got "${bad}"`,
      );
    }
    expect(load({ PORT: '8080' }).port).toBe(8080);
    expect(load({}).port).toBe(3000);
  });

  it('refuses a PUBLIC_URL that is not an http(s) address', () => {
    for (const bad of ['coffer.example.com', 'ftp://coffer.example.com', 'https://']) {
      expect(() => load({ PUBLIC_URL: bad })).toThrow(
        /PUBLIC_URL must be the http:\/\/ or https:\/\//,
      );
    }
    expect(load({ PUBLIC_URL: 'https://coffer.example.com/', TRUST_PROXY: '1' }).publicUrl).toBe(
      'https://coffer.example.com',
    );
  });

  it('warns once about an https PUBLIC_URL without TRUST_PROXY, and not otherwise', () => {
    const warned = load({ PUBLIC_URL: 'https://coffer.example.com' }).warnings;
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^PUBLIC_URL is https but TRUST_PROXY is not set/);
    expect(warned[0]).toContain('set TRUST_PROXY=1 behind that proxy');
    expect(warned[0]).not.toContain('\n');
    expect(load({ PUBLIC_URL: 'https://coffer.example.com', TRUST_PROXY: '1' }).warnings).toEqual(
      [],
    );
    expect(
      load({ PUBLIC_URL: 'https://coffer.example.com', TRUST_PROXY: '10.0.0.0/8' }).warnings,
    ).toEqual([]);
    expect(load({ PUBLIC_URL: 'http://coffer.lan:3000' }).warnings).toEqual([]);
  });

  it('takes TRUST_PROXY as a hop count or a list of proxy addresses, as Fastify does', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.5' }).trustProxy).toEqual(['10.0.0.5']);
    expect(load({ TRUST_PROXY: '10.0.0.5, 172.16.0.0/12,fd00::/8 ,loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '172.16.0.0/12',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses TRUST_PROXY=true with one line asking for the hop count', () => {
    expect(() => load({ TRUST_PROXY: 'true' })).toThrow(StartupError);
    expect(() => load({ TRUST_PROXY: 'true' })).toThrow(
      'TRUST_PROXY=true would take client addresses from X-Forwarded-For as the client wrote them; give the number of proxies in front of Coffer instead (TRUST_PROXY=1 for one reverse proxy), or their addresses',
    );
  });

  it('refuses a TRUST_PROXY that is neither a hop count nor proxy addresses, naming it', () => {
    for (const bad of [
      '0',
      '11',
      'yes',
      '1.5',
      '10.0.0.300',
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.1,',
      'proxy.lan',
    ]) {
      expect(() => load({ TRUST_PROXY: bad })).toThrow(StartupError);
      expect(() => load({ TRUST_PROXY: bad })).toThrow(
        `TRUST_PROXY must be false, the number of proxies in front of Coffer (1 to 10), or their addresses or CIDR ranges separated by commas (or loopback, linklocal, uniquelocal), got "${bad}"`,
      );
    }
  });

  it('refuses a malformed COFFER_SECRET_KEY while loading, before anything starts', () => {
    expect(() => load({ COFFER_SECRET_KEY: 'deadbeef' })).toThrow(StartupError);
  });
});

/** The server's own start, as an operator runs it: one line on stderr, exit 1, nothing made. */
function start(env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(dataDir, 'start-'));
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { ...run, dir };
}

describe('starting the server with a bad setting', () => {
  it('PORT=abc: exit 1 with one line and no stack trace', () => {
    const run = start({ PORT: 'abc' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      'Coffer cannot start: PORT must be a whole number from 1 to 65535, got "abc"',
    );
    expect(fs.readdirSync(run.dir)).toEqual([]);
  });

  it('TRUST_PROXY=true: exit 1 with one line saying to give the hop count', () => {
    const run = start({ TRUST_PROXY: 'true' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      'Coffer cannot start: TRUST_PROXY=true would take client addresses from X-Forwarded-For as the client wrote them; give the number of proxies in front of Coffer instead (TRUST_PROXY=1 for one reverse proxy), or their addresses',
    );
    expect(fs.readdirSync(run.dir)).toEqual([]);
  });

  it('a malformed key: exit 1 with one line, before the embedded database is created', () => {
    const run = start({ COFFER_SECRET_KEY: 'not-a-key' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('Coffer cannot start: COFFER_SECRET_KEY must be 64 hexadecimal');
    expect(fs.readdirSync(run.dir)).toEqual([]);
  });
});
