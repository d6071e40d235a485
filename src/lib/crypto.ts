import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys derived from SKEIN_SECRET: one for API-key hashes, one for token encryption, so that
 * neither use can be turned against the other.
 */
export class SecretBox {
  readonly #hmacKey: Buffer;
  readonly #aesKey: Buffer;
  readonly #webKey: Buffer;
  readonly #csrfKey: Buffer;

  constructor(rootSecret: string) {
    this.#hmacKey = Buffer.from(hkdfSync('sha256', rootSecret, 'skein', 'api-key-hmac', 32));
    this.#webKey = Buffer.from(hkdfSync('sha256', rootSecret, 'skein', 'web-token-hmac', 32));
    this.#csrfKey = Buffer.from(hkdfSync('sha256', rootSecret, 'skein', 'web-csrf-hmac', 32));
    this.#aesKey = Buffer.from(hkdfSync('sha256', rootSecret, 'skein', 'token-aes-256-gcm', 32));
  }

  hashApiKey(key: string): string {
    return createHmac('sha256', this.#hmacKey).update(key).digest('hex');
  }

  /** Session cookies and sign-in links: stored only as this HMAC (hex). */
  hashWebToken(token: string): string {
    return createHmac('sha256', this.#webKey).update(token).digest('hex');
  }

  /**
   * The CSRF token of a session, derived from its cookie token: nothing to store, and a page
   * of another origin can neither read the cookie nor compute this (base64url).
   */
  csrfToken(sessionToken: string): string {
    return createHmac('sha256', this.#csrfKey).update(sessionToken).digest('base64url');
  }

  /** Constant-time comparison of two strings (tokens of the same alphabet). */
  static sameText(a: string, b: string): boolean {
    const x = Buffer.from(a, 'utf8');
    const y = Buffer.from(b, 'utf8');
    return x.length === y.length && timingSafeEqual(x, y);
  }

  /** Constant-time comparison of two hex digests. */
  static sameHash(a: string, b: string): boolean {
    const x = Buffer.from(a, 'hex');
    const y = Buffer.from(b, 'hex');
    return x.length === y.length && timingSafeEqual(x, y);
  }

  /** AES-256-GCM; output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#aesKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(envelope: string): string {
    const [version, iv, tag, body] = envelope.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown token envelope');
    const decipher = createDecipheriv('aes-256-gcm', this.#aesKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** `skein_` + 43 URL-safe characters (256 random bits). */
export function generateApiKey(): string {
  return `skein_${randomBytes(32).toString('base64url')}`;
}

/** A session or sign-in-link token: 256 random bits, base64url. */
export function generateWebToken(): string {
  return randomBytes(32).toString('base64url');
}

export const WEB_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const API_KEY_PATTERN = /^skein_[A-Za-z0-9_-]{32,128}$/;
