// The demo data of supabase/seed.sql (over the reference data the migrations ship) as a user meets it:
// logins that work through the auth service,
// Slovak specialists with shipped avatars, plans with their specialists, and demo's chats (markdown,
// a rich message with images and a file, a specialist card, a system notice, a completed and an
// archived conversation, unread messages), separate from the second account.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../supabase/local/migrate.ts';
import { anonClient } from '../helpers/clients.ts';
import { ASSISTANT_ID, closeDb, ok, rest, rows, rpc, stack, userJwt, type Caller } from './helpers.ts';

const DEMO = { id: '00000000-0000-4000-a000-000000000001', email: 'demo@poradna.test' };
const ADMIN = { id: '00000000-0000-4000-a000-000000000002', email: 'admin@poradna.test' };
const DRUHY = { id: '00000000-0000-4000-a000-000000000003', email: 'druhy@poradna.test' };

const publicFile = (url: string) => access(join(repoRoot, 'public', url.replace(/^\//, '')));

async function callerFor(u: { id: string; email: string }): Promise<Caller> {
  return { kind: 'user', token: await userJwt(u) };
}

afterAll(closeDb);

describe('seed', () => {
  it('the three logins work with poradna123 through the auth service', async () => {
    for (const email of [DEMO.email, ADMIN.email, DRUHY.email]) {
      const res = await anonClient(stack).auth.signInWithPassword({ email, password: 'poradna123' });
      expect(res.error, email).toBeNull();
      expect(res.data.session?.access_token, email).toBeTruthy();
    }
    const identities = await rows<{ provider: string; email: string }>(
      `select provider, email from auth.identities where user_id = any($1) order by email`,
      [[DEMO.id, ADMIN.id, DRUHY.id]],
    );
    expect(identities).toEqual([
      { provider: 'email', email: ADMIN.email },
      { provider: 'email', email: DEMO.email },
      { provider: 'email', email: DRUHY.email },
    ]);
    expect(await rows(`select 1 from public.app_users where user_id = $1 and role = 'super_admin'`, [ADMIN.id])).toHaveLength(1);
    expect(await rows(`select 1 from public.app_users where user_id = $1`, [DEMO.id])).toHaveLength(0);
  });

  it('specialists: at least 8, AI and human, Slovak, with bios, skills and shipped avatars, plus the assistant', async () => {
    const list = await rows<{ id: string; name: string; role: string; seniority: string; bio: string; skills: string[]; is_ai: boolean; avatar_url: string; is_assistant: boolean }>(
      `select id, name, role, seniority, bio, skills, is_ai, avatar_url, is_assistant from public.specialists
        where id::text like '00000000-0000-4000-8000-%' order by id`,
    );
    const regular = list.filter((s) => !s.is_assistant);
    expect(regular.length).toBeGreaterThanOrEqual(8);
    expect(regular.some((s) => s.is_ai) && regular.some((s) => !s.is_ai)).toBe(true);
    expect(regular.some((s) => /[áäčďéíľĺňóôŕšťúýž]/i.test(s.name))).toBe(true);
    for (const s of list) {
      expect(s.role && s.seniority && s.bio, s.name).toBeTruthy();
      expect(s.skills.length, s.name).toBeGreaterThan(0);
      expect(s.avatar_url, s.name).toMatch(/^\/avatars\/[a-z-]+\.svg$/);
      await publicFile(s.avatar_url);
    }
    expect(list.find((s) => s.is_assistant)?.id).toBe(ASSISTANT_ID);
  });

  it('plans FREE, PRO and ENTERPRISE each include specialists, each one more than the last', async () => {
    const counts = await rows<{ code: string; n: string }>(
      `select p.code, count(ps.*) as n from public.plans p left join public.plan_specialists ps on ps.plan_id = p.id
        where p.code in ('FREE', 'PRO', 'ENTERPRISE') group by p.code order by 2`,
    );
    expect(counts.map((c) => c.code)).toEqual(['FREE', 'PRO', 'ENTERPRISE']);
    expect(Number(counts[0]!.n)).toBeGreaterThan(0);
  });

  it("demo's chats: markdown, rich attachments, a card, a system notice, completed, archived, unread", async () => {
    const demo = await callerFor(DEMO);
    const convs = ok<{ id: string; status: string; archived_at: string | null; specialist_id: string }[]>(
      await rest(demo, 'GET', 'conversations?select=id,status,archived_at,specialist_id'),
    );
    expect(convs.length).toBeGreaterThanOrEqual(5);
    expect(convs.filter((c) => c.status === 'completed')).toHaveLength(1);
    expect(convs.filter((c) => c.archived_at !== null)).toHaveLength(1);
    expect(convs.some((c) => c.specialist_id === ASSISTANT_ID)).toBe(true);

    const msgs = ok<{ type: string; direction: string; text: string | null; payload: Record<string, unknown> | null }[]>(
      await rest(demo, 'GET', 'messages?select=type,direction,text,payload'),
    );
    expect(msgs.some((m) => m.text?.includes('**') && m.text.includes('## '))).toBe(true);

    const rich = msgs.find((m) => m.type === 'rich');
    const attachments = rich?.payload?.attachments as { file_type: string; data_url: string; thumb_url: string | null; file_size: number }[];
    expect(attachments.filter((a) => a.file_type === 'image').length).toBeGreaterThanOrEqual(2);
    expect(attachments.filter((a) => a.file_type === 'document')).toHaveLength(1);
    for (const a of attachments) {
      await publicFile(a.data_url);
      if (a.thumb_url) await publicFile(a.thumb_url);
      expect(a.file_size).toBeGreaterThan(0);
    }

    const card = msgs.find((m) => m.type === 'json' && m.payload?.kind === 'rich_content');
    expect(card?.payload).toMatchObject({ specialist_id: expect.any(String) as string, allocated_credits: expect.any(Number) as number, welcome_text: expect.any(String) as string });
    expect(await rows('select 1 from public.specialists where id = $1', [card!.payload!.specialist_id])).toHaveLength(1);

    const system = msgs.filter((m) => m.direction === 'system');
    expect(system.map((m) => m.payload?.system_type)).toContain('status_completed');

    const unread = ok<{ unread_count: number }[]>(await rpc(demo, 'get_unread_counts'));
    expect(unread.some((u) => u.unread_count > 0)).toBe(true);
    expect(unread.some((u) => u.unread_count === 0)).toBe(true);
  });

  it('the second account has its own member and chat, invisible to demo', async () => {
    const druhy = await callerFor(DRUHY);
    const theirs = ok<{ id: string; account_id: string }[]>(await rest(druhy, 'GET', 'conversations?select=id,account_id'));
    expect(theirs.length).toBeGreaterThan(0);
    const demoSees = ok<{ id: string }[]>(await rest(await callerFor(DEMO), 'GET', `conversations?select=id&id=in.(${theirs.map((c) => c.id).join(',')})`));
    expect(demoSees).toEqual([]);
    expect(new Set(theirs.map((c) => c.account_id)).size).toBe(1);
  });

  it('seeded questions leave no AI reply jobs behind', async () => {
    expect(
      await rows(
        `select 1 from public.ai_reply_jobs j join public.account_users au on au.account_id = j.account_id where au.user_id = any($1)`,
        [[DEMO.id, ADMIN.id, DRUHY.id]],
      ),
    ).toHaveLength(0);
  });
});
