-- Realtime: the account's chat tables are published, as on Supabase; the realtime service applies
-- each subscriber's RLS to every event. Guarded so that re-running it (or a project where a table
-- is already published) changes nothing.
do $$
declare
  t text;
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
  if (select puballtables from pg_publication where pubname = 'supabase_realtime') then
    return; -- FOR ALL TABLES already covers them
  end if;
  foreach t in array array['conversations', 'messages', 'read_cursors'] loop
    if not exists (select 1 from pg_publication_tables
                    where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = t) then
      execute format('alter publication supabase_realtime add table public.%I', t);
    end if;
  end loop;
end $$;
