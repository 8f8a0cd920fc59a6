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
-- migrations; a missing one is created now, and a platform that refuses that makes this migration
-- fail with what to do. The local stack has no realtime.messages (its realtime asks
-- public.realtime_topic_allowed itself): nothing to check.
do $$
begin
  if to_regclass('realtime.messages') is null then
    return;
  end if;
  if to_regprocedure('realtime.topic()') is null then
    raise exception 'realtime.messages exists but realtime.topic() does not: this Realtime cannot authorise private channels'
      using hint = 'Poradňa''s device relay (user:<id>) needs Realtime Authorization; upgrade the project''s Realtime.';
  end if;
  begin
    if not exists (select 1 from pg_policies where schemaname = 'realtime' and tablename = 'messages' and policyname = 'poradna_topic_read') then
      execute $p$
        create policy poradna_topic_read on realtime.messages for select to authenticated
          using (extension in ('broadcast', 'presence') and public.realtime_topic_allowed(realtime.topic()))
      $p$;
    end if;
    if not exists (select 1 from pg_policies where schemaname = 'realtime' and tablename = 'messages' and policyname = 'poradna_topic_write') then
      execute $p$
        create policy poradna_topic_write on realtime.messages for insert to authenticated
          with check (extension in ('broadcast', 'presence') and public.realtime_topic_allowed(realtime.topic()))
      $p$;
    end if;
  exception when insufficient_privilege then
    raise exception 'the realtime.messages policies poradna_topic_read/poradna_topic_write could not be created: %', sqlerrm
      using hint = 'Run the migrations as the project''s postgres role (Supabase CLI `db push` or the SQL editor); '
                   'without these policies the private user:<id> relay between a user''s devices is refused.';
  end;
end $$;
