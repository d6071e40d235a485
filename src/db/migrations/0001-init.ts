import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
const UP = `
    CREATE TABLE accounts (
      id text PRIMARY KEY,
      email text NOT NULL,
      password_hash text,
      timezone text NOT NULL,
      active_team_id text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

    CREATE TABLE teams (
      id text PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE accounts ADD CONSTRAINT accounts_active_team_fk
      FOREIGN KEY (active_team_id) REFERENCES teams (id) ON DELETE SET NULL;

    CREATE TABLE memberships (
      team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'member')),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (team_id, account_id)
    );
    CREATE INDEX memberships_account_idx ON memberships (account_id);

    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      name text NOT NULL,
      key_hash text NOT NULL UNIQUE,
      last4 text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    CREATE INDEX api_keys_account_idx ON api_keys (account_id);

    CREATE TABLE providers (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      team_id text REFERENCES teams (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('THREADS', 'BLUESKY')),
      provider_user_id text NOT NULL,
      username text NOT NULL,
      status text NOT NULL CHECK (status IN ('ACTIVE', 'EXPIRED', 'REVOKED')),
      access_token_enc text,
      refresh_token_enc text,
      token_expires_at timestamptz,
      service_url text,
      session_enc text,
      connected_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX providers_workspace_idx ON providers (team_id, account_id);

    CREATE TABLE threads (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      team_id text REFERENCES teams (id) ON DELETE CASCADE,
      provider_id text NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('READY', 'PUBLISHING', 'PUBLISHED', 'FAILED')),
      scheduled_at timestamptz,
      auto_repost_delay_hours integer,
      auto_plug_text text,
      auto_plug_min_likes integer,
      version integer NOT NULL DEFAULT 1,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      locked_by text,
      locked_until timestamptz,
      last_error text,
      published_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX threads_workspace_schedule_idx ON threads (team_id, account_id, scheduled_at, id);
    -- The publisher's claim scans only threads that can still become due.
    CREATE INDEX threads_due_idx ON threads (scheduled_at) WHERE status IN ('READY', 'PUBLISHING') AND scheduled_at IS NOT NULL;

    CREATE TABLE posts (
      id text PRIMARY KEY,
      thread_id text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      post_order integer NOT NULL CHECK (post_order >= 0),
      content text NOT NULL,
      topic text,
      is_spoiler_media boolean NOT NULL DEFAULT false,
      status text NOT NULL CHECK (status IN ('READY', 'PUBLISHING', 'PUBLISHED', 'FAILED')),
      network_container_id text,
      network_post_id text,
      network_cid text,
      permalink text,
      published_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      error_code text,
      error_message text,
      analytics jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- Deferred so that Edit Entire Thread can renumber posts inside one transaction.
      CONSTRAINT posts_thread_order_key UNIQUE (thread_id, post_order) DEFERRABLE INITIALLY DEFERRED
    );

    CREATE TABLE media (
      id text PRIMARY KEY,
      post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      position integer NOT NULL,
      url text NOT NULL,
      alt_text text,
      type text NOT NULL DEFAULT 'IMAGE',
      UNIQUE (post_id, position)
    );

    CREATE TABLE spoiler_ranges (
      post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      position integer NOT NULL,
      "offset" integer NOT NULL CHECK ("offset" >= 0),
      length integer NOT NULL CHECK (length >= 1),
      PRIMARY KEY (post_id, position)
    );

    CREATE TABLE tags (
      id text PRIMARY KEY,
      scope text NOT NULL,
      team_id text REFERENCES teams (id) ON DELETE CASCADE,
      name text NOT NULL,
      name_key text NOT NULL,
      color text NOT NULL,
      created_by text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (scope, name_key)
    );

    CREATE TABLE thread_tags (
      thread_id text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      tag_id text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
      PRIMARY KEY (thread_id, tag_id)
    );
    CREATE INDEX thread_tags_tag_idx ON thread_tags (tag_id);

    CREATE TABLE workspace_settings (
      scope text PRIMARY KEY,
      auto_plug_enabled boolean NOT NULL DEFAULT false,
      auto_plug_text text NOT NULL DEFAULT '',
      auto_plug_min_likes integer NOT NULL DEFAULT 10,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE idempotency_records (
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      key text NOT NULL,
      request_hash text NOT NULL,
      response_status integer NOT NULL,
      response_body jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, key)
    );
`;

const DOWN = `
    DROP TABLE idempotency_records, workspace_settings, thread_tags, tags, spoiler_ranges, media,
      posts, threads, providers, api_keys, memberships;
    ALTER TABLE accounts DROP CONSTRAINT accounts_active_team_fk;
    DROP TABLE teams, accounts;
`;

// One statement per call: PGlite's extended protocol takes a single statement at a time.
async function run(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<any>) => run(db, UP);
export const down = (db: Kysely<any>) => run(db, DOWN);
