-- What the test-runner function's "unit" suite inspects: the public tables with their RLS flag and
-- policy count, and the public functions. Super admins and server code only.
create function public.admin_schema_report() returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return jsonb_build_object(
    'tables', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'name', c.relname,
               'rls', c.relrowsecurity,
               'policies', (select count(*) from pg_catalog.pg_policy p where p.polrelid = c.oid))
             order by c.relname), '[]'::jsonb)
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'r'),
    'views', (
      select coalesce(jsonb_agg(c.relname order by c.relname), '[]'::jsonb)
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'v'),
    'functions', (
      select coalesce(jsonb_agg(distinct p.proname), '[]'::jsonb)
        from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public'));
end $$;
revoke all on function public.admin_schema_report() from public, anon;
grant execute on function public.admin_schema_report() to authenticated, service_role;
