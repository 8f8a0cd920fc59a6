// admin-chatwoot-diagnostics {} -> {success, conversation_id, inbox_id, created}: the Chatwoot
// conversation made for the admin's checks (_shared/chatwoot/diagnostics.ts), created or reused, so
// assign / status / attribute / send checks never touch a user's conversation (issue 21 admin item 3).
import { adminChatwootFunction } from '../_shared/chatwoot/admin-handler.ts';
import { ensureDiagnosticsConversation } from '../_shared/chatwoot/diagnostics.ts';

export default adminChatwootFunction(async ({ service, settings }) => ({ ...(await ensureDiagnosticsConversation(service, await settings())) }));
