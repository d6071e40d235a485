import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors/index.js';

/** Secrets kept apart from Config so that Config can be logged whole. */
export interface Secrets {
  /** Root secret: keys API-key hashes (HMAC) and provider-token encryption (via HKDF). */
  skeinSecret: string;
  threadsAppSecret: string | null;
  /** X_CLIENT_SECRET: the user's own X app's (absent for a public client). */
  xClientSecret?: string | null;
  /** LINKEDIN_CLIENT_SECRET. */
  linkedinClientSecret?: string | null;
  /** SKEIN_SMTP_URL (it may carry the SMTP password): email notifications are off without it. */
  smtpUrl?: string | null;
}

/** SKEIN_SECRET from the environment, else the one generated into the data folder on first start. */
export function loadSecrets(dataDir: string, env: Record<string, string | undefined> = process.env): Secrets {
  let skeinSecret = env.SKEIN_SECRET;
  if (skeinSecret !== undefined && skeinSecret !== '') {
    if (skeinSecret.length < 32) throw new ConfigError('SKEIN_SECRET', 'must be at least 32 characters');
  } else {
    const file = join(dataDir, 'secret');
    try {
      skeinSecret = readFileSync(file, 'utf8').trim();
    } catch {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      skeinSecret = randomBytes(32).toString('base64url');
      try {
        writeFileSync(file, `${skeinSecret}\n`, { mode: 0o600, flag: 'wx' });
      } catch (err) {
        // Another process wrote it first: use that one, or the two would disagree.
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        skeinSecret = readFileSync(file, 'utf8').trim();
      }
    }
  }
  return {
    skeinSecret,
    threadsAppSecret: env.THREADS_APP_SECRET || null,
    xClientSecret: env.X_CLIENT_SECRET || null,
    linkedinClientSecret: env.LINKEDIN_CLIENT_SECRET || null,
    smtpUrl: smtpUrl(env.SKEIN_SMTP_URL),
  };
}

/** `smtp://` (STARTTLS when the server offers it) or `smtps://` (TLS from the start), as nodemailer reads it. */
function smtpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('SKEIN_SMTP_URL', 'is not a valid URL');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new ConfigError('SKEIN_SMTP_URL', 'must use smtp: or smtps:');
  if (!parsed.hostname) throw new ConfigError('SKEIN_SMTP_URL', 'needs a host');
  return raw;
}
