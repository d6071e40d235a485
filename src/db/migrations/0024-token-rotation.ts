import { type Kysely, sql } from 'kysely';

// Frozen. Networks whose refresh tokens rotate (X): token_refresh_until is the claim of the one
// process refreshing a provider's tokens right now (a refresh token works once, so two refreshes
// at a time would strand the account); status_reason says why a provider is not ACTIVE when
// Skein knows more than "the network refused the token" (a refresh refused after a lost answer).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE providers ADD COLUMN token_refresh_until timestamptz, ADD COLUMN status_reason text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE providers DROP COLUMN token_refresh_until, DROP COLUMN status_reason`.execute(db);
}
