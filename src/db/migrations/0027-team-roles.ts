import { type Kysely, sql } from 'kysely';

// Frozen. Team roles (decisions.md "Teams: roles, approvals, review links, comments"): the two
// roles become five, and every `member` an `editor` (the rights a member had in practice, short
// of the accounts, webhooks and members an admin manages).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE memberships DROP CONSTRAINT memberships_role_check`.execute(db);
  await sql`UPDATE memberships SET role = 'editor' WHERE role = 'member'`.execute(db);
  await sql`ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('owner', 'admin', 'editor', 'writer', 'viewer'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE memberships DROP CONSTRAINT memberships_role_check`.execute(db);
  await sql`UPDATE memberships SET role = 'member' WHERE role <> 'owner'`.execute(db);
  await sql`ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('owner', 'member'))`.execute(db);
}
