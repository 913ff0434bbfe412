// The keys that sign access tokens (ES256 JWTs, through jose). They live in the database, so tokens
// survive a restart and every instance over the same database verifies what another signed. The
// newest key signs. The first instance that needs a key makes one; if two race, both keys are kept
// and both instances sign with the newer. A token signed with a key not yet known here makes us
// re-read the keys, and every instance re-reads them each minute, so a rotation reaches all of them.
// A rotation adds a key and keeps the one before it (tokens it signed verify until they expire);
// older keys are forgotten, and with `revokePrevious` every other key at once (a leaked key).
import {
  exportJWK,
  generateKeyPair,
  importJWK,
  calculateJwkThumbprint,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { Store } from '../../store/repositories.ts';
import { UniqueViolation } from '../../store/errors.ts';

const ALG = 'ES256';
/** A token whose key is unknown makes us re-read the keys at most this often. */
const RELOAD_INTERVAL_MS = 10_000;
/** Every instance re-reads the keys this often (a rotation elsewhere starts signing here by then). */
const REFRESH_MS = 60_000;

export type Rotation = { kid: string; kept: string[]; forgotten: string[] };

type KeySet = {
  signing: { kid: string; key: CryptoKey };
  verifying: Map<string, CryptoKey>;
  jwks: JWK[];
};

export class SigningKeys {
  private keys?: Promise<KeySet>;
  private reloadedAt = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => Date,
    /** How long an access token lives: a rotation must not forget a key whose tokens may still be valid. */
    private readonly tokenSeconds = 600,
  ) {}

  /**
   * Adds a new signing key. The key it replaces is kept, so its tokens verify until they expire;
   * keys before it are forgotten. Refused while that would forget a key whose tokens may still be
   * valid (the current key is younger than a token's lifetime plus a minute for every instance to
   * switch), unless `revokePrevious`: then every other key is forgotten now, and every access token
   * they signed stops working (apps refresh and get one signed with the new key).
   */
  async rotate(options: { revokePrevious?: boolean } = {}): Promise<Rotation> {
    const before = await this.store.oauth.listSigningKeys();
    const current = before[before.length - 1];
    const settleMs = (this.tokenSeconds + REFRESH_MS / 1000) * 1000;
    if (
      !options.revokePrevious &&
      current &&
      before.length > 1 &&
      this.now().getTime() - Date.parse(current.createdAt) < settleMs
    ) {
      const wait = Math.ceil(
        (settleMs - (this.now().getTime() - Date.parse(current.createdAt))) / 1000,
      );
      throw new Error(
        `The current signing key is too new to replace: the key before it still verifies tokens that may be valid. Try again in ${wait} s, or pass --revoke-previous to forget every other key now.`,
      );
    }
    const kid = await this.addKey(current?.createdAt);
    const kept = options.revokePrevious || !current ? [] : [current.kid];
    const forgotten = before.map((k) => k.kid).filter((k) => !kept.includes(k));
    await this.store.oauth.deleteSigningKeys(forgotten);
    this.keys = undefined;
    return { kid, kept, forgotten };
  }

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

  private async loaded(): Promise<KeySet> {
    if (this.keys && Date.now() - this.reloadedAt > REFRESH_MS) this.keys = undefined;
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
      await this.addKey();
      rows = await this.store.oauth.listSigningKeys();
    }
    const verifying = new Map<string, CryptoKey>();
    for (const row of rows)
      verifying.set(
        row.kid,
        (await importJWK(JSON.parse(row.publicJwk) as JWK, row.alg)) as CryptoKey,
      );
    const newest = rows[rows.length - 1]!;
    const signing = {
      kid: newest.kid,
      key: (await importJWK(JSON.parse(newest.privateJwk) as JWK, newest.alg)) as CryptoKey,
    };
    return { signing, verifying, jwks: rows.map((r) => JSON.parse(r.publicJwk) as JWK) };
  }

  /**
   * A new key pair stored (its thumbprint is its kid); a key another instance stored first is fine.
   * It is dated after `after` (the key it replaces), so that it sorts as the newest.
   */
  private async addKey(after?: string): Promise<string> {
    const pair = await generateKeyPair(ALG, { extractable: true });
    const publicJwk = await exportJWK(pair.publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    try {
      await this.store.oauth.addSigningKey({
        kid,
        alg: ALG,
        privateJwk: JSON.stringify(await exportJWK(pair.privateKey)),
        publicJwk: JSON.stringify({ ...publicJwk, kid, alg: ALG, use: 'sig' }),
        createdAt: new Date(
          Math.max(this.now().getTime(), after ? Date.parse(after) + 1 : 0),
        ).toISOString(),
      });
    } catch (err) {
      if (!(err instanceof UniqueViolation)) throw err;
    }
    return kid;
  }
}
