// Send-message validation (admin-area.md section 5), in the spec's order.
import { admin } from '../../text/admin.ts';

export interface SendInput {
  specialist: { chatwoot_inbox_id: number | null } | null;
  message: string;
  accountId: string | null;
}

export type SendCheck = { ok: true; inboxId: number; content: string; accountId: string } | { ok: false; error: string };

export function validateSend({ specialist, message, accountId }: SendInput): SendCheck {
  if (!specialist) return { ok: false, error: admin.chatwoot.needSpecialist };
  if (specialist.chatwoot_inbox_id === null) return { ok: false, error: admin.chatwoot.needInbox };
  const content = message.trim();
  if (content === '') return { ok: false, error: admin.chatwoot.needMessage };
  if (!accountId) return { ok: false, error: admin.chatwoot.needAccount };
  return { ok: true, inboxId: specialist.chatwoot_inbox_id, content, accountId };
}
