-- Issue 21 admin item 3: the admin's checks ('Spustiť všetky testy' on /admin/edge-functions and the
-- test runner's edge suite) used to pick the first linked Chatwoot conversation of a real user and
-- reopen it, post into it and overwrite its attributes. They now use one Chatwoot contact and
-- conversation made for checking (custom attribute poradna_diagnostics = true), created on first use
-- and reused; one row per Chatwoot (base URL + account) remembers where it is (recreated when Chatwoot
-- no longer has it). Written and read only by the functions (service role): no policy, nothing
-- granted to anon or authenticated.
create table public.chatwoot_diagnostics (
  id uuid primary key default gen_random_uuid(),
  api_base_url text not null,
  chatwoot_account_id bigint not null,
  inbox_id bigint not null,
  contact_source_id text not null,
  conversation_id bigint not null,
  created_at timestamptz not null default now(),
  unique (api_base_url, chatwoot_account_id)
);
alter table public.chatwoot_diagnostics enable row level security;
grant select, insert, update, delete on public.chatwoot_diagnostics to service_role;
