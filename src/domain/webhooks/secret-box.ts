// Webhook signing secrets at rest. They must be usable for signing, so they cannot be hashed like
// keys: they are encrypted with AES-256-GCM under the installation's key, HAMLET_WEBHOOK_SECRET_KEY
// (any string of 32+ characters; its SHA-256 is the key). Without it a random key is generated once
// and kept in the database's keyring, which protects against a leaked log or row dump but not
// against a copy of the whole database: set the variable in production and keep it outside the
// database. Stored form: "v1:<key name>:<base64 iv | tag | ciphertext>".
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../errors.ts';

export type KeySource =
  { name: 'env'; secret: string } | { name: 'db'; load: () => Promise<string> };

export class SecretBox {
  private key?: Promise<Buffer>;

  constructor(private readonly source: KeySource) {}

  /** A fresh key for the database keyring (base64 of 32 random bytes). */
  static newKey(): string {
    return randomBytes(32).toString('base64');
  }

  private async material(): Promise<Buffer> {
    const s = this.source;
    this.key ??=
      s.name === 'env'
        ? Promise.resolve(createHash('sha256').update(s.secret).digest())
        : s.load().then((k) => Buffer.from(k, 'base64'));
    return this.key;
  }

  async seal(plain: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.material(), iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1:${this.source.name}:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`;
  }

  async open(sealed: string): Promise<string> {
    const [version, name, blob] = sealed.split(':');
    if (version !== 'v1' || !blob)
      throw new DomainError('internal', 'A webhook secret is stored in an unknown format.');
    if (name !== this.source.name) {
      throw new DomainError(
        'unavailable',
        `This webhook secret was encrypted with the ${name === 'env' ? 'HAMLET_WEBHOOK_SECRET_KEY' : 'database keyring'} key, which is not configured now. Restore it, or rotate the endpoint's secret.`,
      );
    }
    const raw = Buffer.from(blob, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', await this.material(), raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new DomainError(
        'unavailable',
        "A webhook secret cannot be decrypted: HAMLET_WEBHOOK_SECRET_KEY changed since it was stored. Restore the old value, or rotate the endpoint's secret.",
      );
    }
  }
}
