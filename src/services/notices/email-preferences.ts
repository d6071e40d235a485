import type { AppContext } from '../../context.js';
import type { AccountRow, EmailDelivery, EmailKind } from '../../db/schema/index.js';
import { type EmailPreferences, findEmailPreferences, saveEmailPreferences } from '../../repos/email.js';

/** A user's email notifications: whether email is on at all (SKEIN_SMTP_URL), where it goes, and their choices. */
export interface EmailSettings extends EmailPreferences {
  email: { enabled: boolean; from: string | null; to: string };
  /** The digest's local time, in the account's time zone. */
  digestAt: '08:00';
  timezone: string;
}

function view(ctx: AppContext, account: AccountRow, prefs: EmailPreferences): EmailSettings {
  const enabled = ctx.smtpUrl !== null;
  return { email: { enabled, from: enabled ? ctx.config.email.from : null, to: account.email }, ...prefs, digestAt: '08:00', timezone: account.timezone };
}

export async function getEmailSettings(ctx: AppContext, account: AccountRow): Promise<EmailSettings> {
  return view(ctx, account, await findEmailPreferences(ctx.db, account.id));
}

/** Changes the kinds and the digest named in `change`, the others as they were (saved whether or not email is on, for when it is). */
export async function changeEmailSettings(
  ctx: AppContext,
  account: AccountRow,
  change: { kinds?: Partial<Record<EmailKind, EmailDelivery>>; digest?: boolean },
): Promise<EmailSettings> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await findEmailPreferences(trx, account.id);
    const next = { kinds: { ...current.kinds, ...change.kinds }, digest: change.digest ?? current.digest };
    await saveEmailPreferences(trx, account.id, next, ctx.clock.now());
    return view(ctx, account, next);
  });
}
