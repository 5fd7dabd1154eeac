import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software WebAuthn authenticator for API tests, written from the specification rather
 * than with the server's library: an ES256 key pair, 'none' attestation, CBOR by hand.
 */

const b64url = (b: Buffer) => b.toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

/** A CBOR byte string header and body (RFC 8949 major type 2). */
function cborBytes(b: Buffer): Buffer {
  if (b.length < 24) return Buffer.concat([Buffer.from([0x40 + b.length]), b]);
  if (b.length < 256) return Buffer.concat([Buffer.from([0x58, b.length]), b]);
  const head = Buffer.alloc(3);
  head[0] = 0x59;
  head.writeUInt16BE(b.length, 1);
  return Buffer.concat([head, b]);
}

const cborText = (s: string) => Buffer.concat([Buffer.from([0x60 + s.length]), Buffer.from(s)]);

export type Ceremony = {
  origin?: string;
  rpId?: string;
  /** The signature counter to report; by default one more than the last. */
  signCount?: number;
  type?: string;
};

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly coseKey: Buffer;
  private count = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    const x = Buffer.from(String(jwk.x), 'base64url');
    const y = Buffer.from(String(jwk.y), 'base64url');
    // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
    this.coseKey = Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21]),
      cborBytes(x),
      Buffer.from([0x22]),
      cborBytes(y),
    ]);
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private authData(rpId: string, flags: number, signCount: number, attested: boolean): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount);
    const parts: Buffer[] = [sha256(rpId), Buffer.from([flags]), counter];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), len, this.credentialId, this.coseKey);
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() as JSON, for options the server gave. */
  create(options: { challenge: string; rp: { id?: string } }, c: Ceremony = {}) {
    const rpId = c.rpId ?? options.rp.id ?? 'localhost';
    const UP_UV_AT = 0x01 | 0x04 | 0x40;
    const authData = this.authData(rpId, UP_UV_AT, c.signCount ?? this.count, true);
    // {"fmt": "none", "attStmt": {}, "authData": …}
    const attestationObject = Buffer.concat([
      Buffer.from([0xa3]),
      cborText('fmt'),
      cborText('none'),
      cborText('attStmt'),
      Buffer.from([0xa0]),
      cborText('authData'),
      cborBytes(authData),
    ]);
    const clientDataJSON = this.clientData(
      c.type ?? 'webauthn.create',
      options.challenge,
      c.origin ?? 'http://localhost:3000',
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal' as const],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() as JSON: signs the challenge and moves the counter on. */
  get(options: { challenge: string; rpId?: string }, c: Ceremony = {}) {
    const rpId = c.rpId ?? options.rpId ?? 'localhost';
    const signCount = c.signCount ?? this.count + 1;
    if (c.signCount === undefined) this.count = signCount;
    const authData = this.authData(rpId, 0x01 | 0x04, signCount, false);
    const clientDataJSON = this.clientData(
      c.type ?? 'webauthn.get',
      options.challenge,
      c.origin ?? 'http://localhost:3000',
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      this.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
    };
  }
}
