// R2.1–R2.3: a server conversation merged into the stored one. Pure.
import type { LocalConversation, LocalSpecialistSummary, OwnerState } from '../model/local-types.ts';
import { laterOf } from '../model/ordering.ts';
import type { RemoteConversation } from '../model/remote-types.ts';
import { normalizeTimestamp, requireTimestamp } from '../model/timestamps.ts';
import { specialistSummary } from './specialist.ts';

/**
 * Returns the row to store, or null when the stored row is as new or newer (R2.1).
 * `known` is the specialist the local list knows for remote.specialist_id (realtime records carry none).
 */
export function mergeConversation(
  remote: RemoteConversation,
  local: LocalConversation | undefined,
  known: LocalSpecialistSummary | null,
): LocalConversation | null {
  if (local && local.changeSeq > remote.change_seq) return null;
  if (local && local.changeSeq === remote.change_seq) {
    // R2.3: the same version again, now with the specialist a realtime record lacked (apply.ts then
    // kept the cursor so the pull would bring it): only the specialist is filled in.
    if (local.specialist || !remote.specialist) return null;
    return { ...local, specialist: specialistSummary(remote.specialist) };
  }
  const serverArchivedAt = remote.archived_at === null ? null : normalizeTimestamp(remote.archived_at);
  // R2.2: an archive the user made here and that is still queued wins over the server until pushed.
  const archivedAt = local?.pendingArchive ? local.archivedAt : serverArchivedAt;
  let specialist: LocalSpecialistSummary | null;
  if (remote.specialist !== undefined) specialist = remote.specialist ? specialistSummary(remote.specialist) : null;
  else if (local && local.specialistId === remote.specialist_id && local.specialist) specialist = local.specialist;
  else specialist = known;
  const createdAt = requireTimestamp(remote.created_at);
  const lastMessageAt = remote.last_message_at === null ? null : normalizeTimestamp(remote.last_message_at);
  const lastMessage = local?.lastMessage ?? null;
  return {
    id: remote.id,
    accountId: remote.account_id,
    specialistId: remote.specialist_id,
    status: remote.status,
    lastMessageAt,
    archivedAt,
    serverArchivedAt,
    pendingArchive: local?.pendingArchive ?? 0,
    archived: archivedAt === null ? 0 : 1,
    chatwootConversationId: remote.chatwoot_conversation_id,
    ...ownerOf(remote),
    createdAt,
    updatedAt: remote.updated_at === null ? null : normalizeTimestamp(remote.updated_at),
    changeSeq: remote.change_seq,
    specialist,
    lastMessage,
    unreadCount: local?.unreadCount ?? 0,
    sortAt: laterOf(lastMessageAt, lastMessage?.createdAt ?? null) ?? createdAt,
  };
}

/** R14.1: the server's owner state as stored; an unknown state counts as 'waiting' (the AI is
 *  silent in every state but 'ai', so a device never claims the AI answers when it may not). */
function ownerOf(remote: RemoteConversation): Pick<LocalConversation, 'ownerState' | 'ownerRequestedAt' | 'ownerAgentName'> {
  const given = remote.owner_state ?? 'ai';
  const state: OwnerState = given === 'ai' || given === 'human' ? given : 'waiting';
  const requested = remote.owner_requested_at ?? null;
  return {
    ownerState: state,
    ownerRequestedAt: requested === null ? null : normalizeTimestamp(requested),
    ownerAgentName: remote.owner_agent_name ?? null,
  };
}

/** The stored row with the user's archive choice applied (pending until pushed). */
export function withLocalArchive(local: LocalConversation, archivedAt: string | null): LocalConversation {
  return { ...local, archivedAt, archived: archivedAt === null ? 0 : 1, pendingArchive: 1 };
}

/** R1.6: the server refused the archive change for good; show its value again. */
export function revertArchive(local: LocalConversation): LocalConversation {
  return { ...local, archivedAt: local.serverArchivedAt, archived: local.serverArchivedAt === null ? 0 : 1, pendingArchive: 0 };
}
