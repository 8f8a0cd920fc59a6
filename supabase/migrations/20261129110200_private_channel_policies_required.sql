-- Private channels need their realtime.messages policies; a deploy without them fails here instead
-- of going on quietly (issue 41 part 2).
-- 20261123001000_realtime_replica_identity_topics.sql creates poradna_topic_read / poradna_topic_write
-- on realtime.messages "only if the platform allows it": when the migration owner may not add them it
-- raises a WARNING and goes on, and its comment says "the app uses no private channels". That is no
-- longer true: every device relays its sends to the user's other devices on the private
-- `user:<id>` channel (20261127000100_realtime_user_topic.sql, sync/SPEC.md R6.8), which hosted
-- Realtime admits only through those policies (supabase/realtime lib/realtime/tenants/authorization.ex:
-- a join is a SELECT and a broadcast an INSERT on realtime.messages, as the joining user). Without
-- them the relay is refused at every join and nobody is told. (That migration is applied and
-- checksummed, so its comment stays; this one states the rule.)
-- Here, where realtime.messages exists (a Supabase project), both policies must exist after the
-- migrations, or this migration fails with what to do (creating them again would fail as the first
-- attempt did: the owner lacks the privilege). The local stack has no realtime.messages (its realtime
-- asks public.realtime_topic_allowed itself): nothing to check.
do $$
declare
  v_missing text;
begin
  if to_regclass('realtime.messages') is null then
    return;
  end if;
  select string_agg(p, ', ') into v_missing
    from unnest(array['poradna_topic_read', 'poradna_topic_write']) p
   where not exists (select 1 from pg_policies
                      where schemaname = 'realtime' and tablename = 'messages' and policyname = p);
  if v_missing is not null then
    raise exception 'the realtime.messages policies % are missing: private channels would be refused', v_missing
      using hint = 'Run the migrations as the project''s postgres role (Supabase CLI `db push`, or the policy '
                   'statements of 20261123001000_realtime_replica_identity_topics.sql in the SQL editor); '
                   'without them the private user:<id> relay between a user''s devices is refused.';
  end if;
end $$;
