// The keys that sign access tokens (ES256 JWTs, through jose). They live in the database, so tokens
// survive a restart and every instance over the same database verifies what another signed. The
// first instance that needs a key makes one; if two race, both keys are kept, each signs with the
// oldest it knows, and a token signed with a key not yet known here makes us re-read the keys.
import { exportJWK, generateKeyPair, importJWK, calculateJwkThumbprint, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { Store } from '../../store/repositories.ts';
import { UniqueViolation } from '../../store/errors.ts';

const ALG = 'ES256';
/** A token whose key is unknown makes us re-read the keys at most this often. */
const RELOAD_INTERVAL_MS = 10_000;

type KeySet = { signing: { kid: string; key: CryptoKey }; verifying: Map<string, CryptoKey>; jwks: JWK[] };

export class SigningKeys {
  private keys?: Promise<KeySet>;
  private reloadedAt = 0;

  constructor(private readonly store: Store, private readonly now: () => Date) {}

  /** Signs `claims` as an access token (JWT type "at+jwt", RFC 9068) valid for `seconds`. */
  async sign(claims: JWTPayload, seconds: number): Promise<string> {
    const { signing } = await this.loaded();
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: signing.kid, typ: 'at+jwt' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + seconds)
      .sign(signing.key);
  }

  /** The verified claims of an access token for `audience` from `issuer`; throws (jose errors) otherwise. */
  async verify(token: string, expect: { issuer: string; audience: string }): Promise<JWTPayload> {
    const { payload } = await jwtVerify(token, (header) => this.verifyingKey(header.kid), {
      algorithms: [ALG],
      typ: 'at+jwt',
      issuer: expect.issuer,
      audience: expect.audience,
      currentDate: this.now(),
      clockTolerance: 5,
      requiredClaims: ['sub', 'exp', 'iat', 'jti', 'client_id'],
    });
    return payload;
  }

  /** The public keys (JWKS) for anyone verifying tokens. */
  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: (await this.loaded()).jwks };
  }

  private async verifyingKey(kid: string | undefined): Promise<CryptoKey> {
    let set = await this.loaded();
    let key = kid ? set.verifying.get(kid) : undefined;
    if (!key && kid && Date.now() - this.reloadedAt > RELOAD_INTERVAL_MS) {
      this.keys = undefined;
      set = await this.loaded();
      key = set.verifying.get(kid);
    }
    if (!key) throw new Error('unknown signing key');
    return key;
  }

  private loaded(): Promise<KeySet> {
    this.keys ??= this.load().catch((err: unknown) => {
      this.keys = undefined;
      throw err;
    });
    return this.keys;
  }

  private async load(): Promise<KeySet> {
    this.reloadedAt = Date.now();
    let rows = await this.store.oauth.listSigningKeys();
    if (rows.length === 0) {
      const pair = await generateKeyPair(ALG, { extractable: true });
      const publicJwk = await exportJWK(pair.publicKey);
      const kid = await calculateJwkThumbprint(publicJwk);
      try {
        await this.store.oauth.addSigningKey({
          kid,
          alg: ALG,
          privateJwk: JSON.stringify(await exportJWK(pair.privateKey)),
          publicJwk: JSON.stringify({ ...publicJwk, kid, alg: ALG, use: 'sig' }),
          createdAt: this.now().toISOString(),
        });
      } catch (err) {
        if (!(err instanceof UniqueViolation)) throw err;
      }
      rows = await this.store.oauth.listSigningKeys();
    }
    const verifying = new Map<string, CryptoKey>();
    for (const row of rows) verifying.set(row.kid, (await importJWK(JSON.parse(row.publicJwk) as JWK, row.alg)) as CryptoKey);
    const oldest = rows[0]!;
    const signing = { kid: oldest.kid, key: (await importJWK(JSON.parse(oldest.privateJwk) as JWK, oldest.alg)) as CryptoKey };
    return { signing, verifying, jwks: rows.map((r) => JSON.parse(r.publicJwk) as JWK) };
  }
}
