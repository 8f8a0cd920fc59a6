// What a cluster is, as two stacks can be compared: its catalog (roles and memberships, schemas,
// relations, columns, constraints, indexes, functions, triggers, policies, grants, publications,
// extensions, settings) and its data, with what is random by nature in every fresh start masked: uuids
// made by gen_random_uuid (the seed's fixed ids, 00000000-…, are kept), bcrypt salts, and times, which
// are compared as their distance from the seed's now() (the moment a start's data is "as of").
import pg from 'pg';

const SYSTEM_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_(toast|temp)'`;

// One query per part; each returns text rows that are sorted before comparing.
const CATALOG: Record<string, string> = {
  roles: `select concat_ws(' ', rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication, rolbypassrls, rolconnlimit, rolconfig::text) from pg_roles`,
  members: `select concat_ws(' ', r.rolname, 'in', g.rolname, m.admin_option, m.inherit_option, m.set_option) from pg_auth_members m join pg_roles r on r.oid = m.member join pg_roles g on g.oid = m.roleid`,
  schemas: `select concat_ws(' ', n.nspname, pg_get_userbyid(n.nspowner), n.nspacl::text) from pg_namespace n where ${SYSTEM_SCHEMAS}`,
  relations: `select concat_ws(' ', n.nspname || '.' || c.relname, c.relkind::text, pg_get_userbyid(c.relowner), c.relacl::text, c.reloptions::text, c.relpersistence::text, c.relrowsecurity, c.relforcerowsecurity, c.relreplident::text, c.relispartition, pg_get_expr(c.relpartbound, c.oid))
                from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${SYSTEM_SCHEMAS}`,
  columns: `select concat_ws(' ', c.oid::regclass::text || '.' || a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid), a.attgenerated::text, a.attidentity::text, a.attacl::text, a.attnum)
              from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
              left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
             where ${SYSTEM_SCHEMAS} and a.attnum > 0 and not a.attisdropped`,
  constraints: `select concat_ws(' ', k.conrelid::regclass::text, k.conname, pg_get_constraintdef(k.oid)) from pg_constraint k join pg_namespace n on n.oid = k.connamespace where ${SYSTEM_SCHEMAS}`,
  indexes: `select pg_get_indexdef(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace where ${SYSTEM_SCHEMAS}`,
  functions: `select concat_ws(' ', p.oid::regprocedure::text, pg_get_userbyid(p.proowner), p.proacl::text, p.proconfig::text, p.prosecdef, p.provolatile::text, md5(case when p.prokind in ('f', 'p', 'w') then pg_get_functiondef(p.oid) else p.prosrc end))
                from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${SYSTEM_SCHEMAS}`,
  triggers: `select concat_ws(' ', pg_get_triggerdef(t.oid), t.tgenabled::text) from pg_trigger t where not t.tgisinternal`,
  policies: `select concat_ws(' ', schemaname, tablename, policyname, permissive, roles::text, cmd, qual, with_check) from pg_policies`,
  publications: `select concat_ws(' ', p.pubname, p.puballtables, p.pubinsert, p.pubupdate, p.pubdelete, p.pubtruncate) from pg_publication p
                 union all select concat_ws(' ', pubname, schemaname, tablename, attnames::text, rowfilter) from pg_publication_tables`,
  extensions: `select concat_ws(' ', e.extname, e.extversion, e.extnamespace::regnamespace::text) from pg_extension e`,
  defaultAcls: `select concat_ws(' ', pg_get_userbyid(d.defaclrole), d.defaclnamespace::regnamespace::text, d.defaclobjtype::text, d.defaclacl::text) from pg_default_acl d`,
  roleSettings: `select concat_ws(' ', s.setdatabase, s.setrole::regrole::text, s.setconfig::text) from pg_db_role_setting s`,
  types: `select concat_ws(' ', t.oid::regtype::text, t.typtype::text, pg_get_userbyid(t.typowner), format_type(t.typbasetype, t.typtypmod),
                 (select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid))
            from pg_type t join pg_namespace n on n.oid = t.typnamespace where ${SYSTEM_SCHEMAS} and t.typtype in ('e', 'd')`,
  sequences: `select concat_ws(' ', schemaname || '.' || sequencename, last_value) from pg_sequences`,
  databases: `select concat_ws(' ', datname, pg_get_userbyid(datdba), pg_encoding_to_char(encoding), datcollate, datctype, datacl::text) from pg_database`,
  // What the cluster's files say (initdb, postgresql.conf), not what this run was started with (fsync:
  // throwaway stacks turn it off on the command line, postgres.ts EmbeddedOptions.fsync, so a run
  // without that flag lists its default and one with it does not).
  settings: `select name || '=' || setting from pg_settings where source in ('default', 'configuration file', 'override')
               and name not in ('data_directory', 'config_file', 'hba_file', 'ident_file', 'fsync')`,
};

const RANDOM_UUID = /\b(?!00000000-)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const BCRYPT = /\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}/g;

export interface ClusterFingerprint {
  catalog: Record<string, string[]>;
  /** schema.table → its rows as masked text, sorted. */
  data: Record<string, string[]>;
}

export async function clusterFingerprint(databaseUrl: string): Promise<ClusterFingerprint> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const catalog: Record<string, string[]> = {};
    for (const [part, sql] of Object.entries(CATALOG)) catalog[part] = (await c.query<{ t: string }>(`select t from (${sql}) as q(t)`)).rows.map((r) => r.t).sort();
    const asOf = `(select seeded_at from local_stack.seeded)`;
    const tables = await c.query<{ tbl: string; cols: string }>(
      `select format('%I.%I', n.nspname, c.relname) as tbl,
              string_agg(case when a.atttypid in ('timestamptz'::regtype, 'timestamp'::regtype)
                              then format($$case when %1$I is null then null when abs(extract(epoch from ${asOf} - %1$I::timestamptz)) < 120 then 'now'
                                             else (round(extract(epoch from ${asOf} - %1$I::timestamptz) / 60))::text || ' min ago' end$$, a.attname)
                              else format('%I::text', a.attname) end, ', ' order by a.attnum) as cols
         from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid
        where c.relkind = 'r' and ${SYSTEM_SCHEMAS} and a.attnum > 0 and not a.attisdropped
        group by n.nspname, c.relname`,
    );
    const data: Record<string, string[]> = {};
    for (const t of tables.rows) {
      const r = await c.query<{ row: string }>(`select concat_ws(' | ', ${t.cols}) as row from ${t.tbl}`);
      data[t.tbl] = r.rows.map((x) => x.row.replace(RANDOM_UUID, '<uuid>').replace(BCRYPT, '<bcrypt>')).sort();
    }
    return { catalog, data };
  } finally {
    await c.end();
  }
}
