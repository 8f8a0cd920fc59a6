// R2.3: specialist rows from the server into the local list and the conversation summaries. Pure.
import type { LocalSpecialist, LocalSpecialistSummary } from '../model/local-types.ts';
import type { RemoteSpecialist } from '../model/remote-types.ts';

export function specialistSummary(r: RemoteSpecialist): LocalSpecialistSummary {
  return { id: r.id, name: r.name, role: r.role, avatarUrl: r.avatar_url, seniority: r.seniority, isAi: r.is_ai };
}

export function summaryOfLocal(s: LocalSpecialist): LocalSpecialistSummary {
  return { id: s.id, name: s.name, role: s.role, avatarUrl: s.avatarUrl, seniority: s.seniority, isAi: s.isAi };
}

/** The account's specialist list: `activeIds` are the ones get_active_specialists returned. */
export function mergeSpecialists(remote: RemoteSpecialist[], activeIds: ReadonlySet<string>): LocalSpecialist[] {
  return remote.map((r) => ({
    ...specialistSummary(r),
    bio: r.bio ?? null,
    skills: r.skills ?? [],
    chatwootInboxId: r.chatwoot_inbox_id ?? null,
    active: activeIds.has(r.id) ? 1 : 0,
  }));
}
