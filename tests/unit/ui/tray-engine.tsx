// The engine as a composer's tray sees it (R16.5): the real draft-file commands over a fake-indexeddb
// database, and the tray's hook rendered under it. For tests/unit/ui's tray tests.
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { SyncDb } from '../../../sync/db/schema.ts';
import type { SyncEngine } from '../../../sync/engine.ts';
import type { SyncCommands } from '../../../sync/commands/api.ts';
import { keepDraftFiles, loadDraftFiles, removeDraftFiles, updateDraftFile } from '../../../sync/commands/draft-files.ts';
import { SyncContext } from '../../../src/data/sync-context.ts';
import { useAttachmentDraft } from '../../../src/pages/chat/attachments/use-attachment-draft.ts';

/** The engine as the tray sees it: the real draft-file commands over a fake-indexeddb database. */
export function trayEngine(db: SyncDb, over: Partial<SyncCommands> = {}): SyncEngine {
  const ctx = { db };
  const commands: Partial<SyncCommands> = {
    keepDraftFiles: (files) => keepDraftFiles(ctx, files),
    updateDraftFile: (id, patch) => updateDraftFile(ctx, id, patch),
    removeDraftFiles: (ids) => removeDraftFiles(ctx, ids),
    loadDraftFiles: (conversationId) => loadDraftFiles(ctx, conversationId),
    ...over,
  };
  return { db, commands } as unknown as SyncEngine;
}

/** The hook of chat `conversationId` under an engine that can change (null: not loaded yet). */
export function tray(conversationId: string, engine: { current: SyncEngine | null }) {
  const wrapper = ({ children }: { children: ReactNode }) => <SyncContext.Provider value={engine.current}>{children}</SyncContext.Provider>;
  return renderHook(() => useAttachmentDraft(conversationId), { wrapper });
}

