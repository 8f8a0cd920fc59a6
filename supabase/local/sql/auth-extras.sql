-- GoTrue columns the local auth service needs beyond bootstrap.sql's auth schema. Idempotent: it runs
-- on every start right after bootstrap.sql (migrate.ts). Names follow supabase/auth's own migrations,
-- so data moves to hosted Supabase unchanged.

-- Secure e-mail change (GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED): 0 = no link of the pending change
-- opened yet, 1 = one of the two (old address, new address) opened; the address changes on the second.
alter table auth.users add column if not exists email_change_confirm_status smallint not null default 0;
alter table auth.users add column if not exists email_change_sent_at timestamptz;
-- Reauthentication (GET /reauthenticate): when the last nonce was mailed. The nonce itself is a
-- one_time_tokens row of type 'reauthentication' (only its hash is stored).
alter table auth.users add column if not exists reauthentication_sent_at timestamptz;

-- Wrong 6-digit guesses against a user's live codes; a code dies after a few (one-time-tokens.ts).
alter table auth.one_time_tokens add column if not exists failed_attempts integer not null default 0;
