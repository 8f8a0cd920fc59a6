// What a reply job is answered from: the specialist, the conversation's recent history up to the
// user message of the job, the text an earlier run of the same job already stored (continuations
// and retries continue the same row, R13.3/R13.4), and the account's specialists for suggestions.
import type { Db } from '../clients.ts';
import { HISTORY_LIMIT } from './prompt.ts';
import type { HistoryMessage, PlanSpecialist, ReplyRequest, SpecialistProfile } from './types.ts';

export interface AiJob {
  id: string;
  message_id: string;
  conversation_id: string;
  account_id?: string;
  specialist_id: string;
  attempts: number;
}

interface SpecialistRow {
  name: string;
  role: string | null;
  skills: string[] | null;
  is_ai: boolean;
  is_assistant: boolean;
}

/** The account's specialists as private.active_specialist_ids lists them (its plan's in DEFAULT
 *  mode, its own assignments in CUSTOM mode), read with the service role. Best effort: suggestions
 *  are an extra, a failed read leaves them out. */
async function accountSpecialists(db: Db, accountId: string | undefined): Promise<PlanSpecialist[]> {
  if (!accountId) return [];
  const acc = await db.from('accounts').select('plan_id, specialists_mode').eq('id', accountId).maybeSingle();
  const a: { plan_id: string | null; specialists_mode: string } | null = acc.data;
  if (acc.error || !a) return [];
  const embed = 'specialists(name, role, skills, is_ai, is_assistant)';
  const res =
    a.specialists_mode === 'CUSTOM'
      ? await db.from('account_specialists').select(embed).eq('account_id', accountId)
      : a.plan_id
        ? await db.from('plan_specialists').select(embed).eq('plan_id', a.plan_id)
        : { data: [], error: null };
  if (res.error) return [];
  return ((res.data ?? []) as unknown as { specialists: SpecialistRow | null }[])
    .map((r) => r.specialists)
    .filter((s): s is SpecialistRow => !!s && !s.is_assistant)
    .map((s) => ({ name: s.name, role: s.role, skills: s.skills ?? [] }));
}

export async function loadContext(db: Db, job: AiJob): Promise<ReplyRequest> {
  const sp = await db.from('specialists').select('id, name, role, seniority, bio, skills').eq('id', job.specialist_id).single();
  if (sp.error) throw new Error(`specialist ${job.specialist_id}: ${sp.error.message}`);
  const anchor = await db.from('messages').select('created_at').eq('id', job.message_id).single();
  if (anchor.error) throw new Error(`message ${job.message_id}: ${anchor.error.message}`);
  const hist = await db
    .from('messages')
    .select('direction, text, created_at')
    .eq('conversation_id', job.conversation_id)
    .lte('created_at', anchor.data.created_at as string)
    .order('created_at', { ascending: false })
    .limit(HISTORY_LIMIT);
  if (hist.error) throw new Error(`history: ${hist.error.message}`);
  const own = await db
    .from('messages')
    .select('text')
    .eq('conversation_id', job.conversation_id)
    .eq('client_correlation_id', job.id)
    .maybeSingle();
  if (own.error) throw new Error(`reply so far: ${own.error.message}`);
  const rows = (hist.data as { direction: HistoryMessage['direction']; text: string | null }[]).reverse();
  const s = sp.data as SpecialistProfile & { skills: string[] | null };
  const stored: { text: string | null } | null = own.data;
  const continueFrom = stored?.text ?? '';
  return {
    specialist: { ...s, skills: s.skills ?? [] },
    history: rows.map((r) => ({ direction: r.direction, text: r.text ?? '' })),
    ...(continueFrom ? { continueFrom } : {}),
    planSpecialists: await accountSpecialists(db, job.account_id),
  };
}
