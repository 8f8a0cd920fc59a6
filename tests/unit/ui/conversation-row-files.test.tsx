// @vitest-environment jsdom
// R2.10 / R16.5: a row whose last message (or draft) has files and no text names them — 'Fotka', the
// file's name, '3 fotky', '5 príloh' — instead of 'No messages yet', which stays for a conversation
// with no message at all.
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationRow } from '../../../src/pages/chats/ConversationRow.tsx';
import { filesSnippet } from '../../../src/pages/chats/files-snippet.ts';
import type { FilesSummary, LocalConversation } from '../../../sync/model/local-types.ts';

afterEach(cleanup);

const at = '2026-12-01T10:00:00.000000Z';
function conversation(lastMessage: LocalConversation['lastMessage']): LocalConversation {
  return {
    id: 'c1', accountId: 'a1', specialistId: 's1', status: 'active', lastMessageAt: at, archivedAt: null, serverArchivedAt: null,
    pendingArchive: 0, archived: 0, chatwootConversationId: null, createdAt: at, updatedAt: null, changeSeq: 1,
    specialist: { id: 's1', name: 'Eva Nováková', avatarUrl: null }, lastMessage, unreadCount: 0, sortAt: at,
  } as LocalConversation;
}
const last = (text: string, files?: FilesSummary) => ({ key: 'k', id: 'm', text, direction: 'specialist', createdAt: at, ...(files ? { files } : {}) });

function snippet(c: LocalConversation, draft?: string, draftFiles?: FilesSummary): string {
  render(
    <MemoryRouter>
      <ConversationRow conversation={c} archived={false} onToggleArchive={() => undefined} draft={draft} draftFiles={draftFiles} />
    </MemoryRouter>,
  );
  const text = screen.getByTestId('row-snippet').textContent ?? '';
  cleanup();
  return text;
}

describe('R2.10 the row names files', () => {
  it('R2.10 one photo, one file, several photos, several files; the Slovak counts', () => {
    expect(filesSnippet({ count: 1, images: 1, name: 'IMG_1.jpg' })).toBe('Fotka');
    expect(filesSnippet({ count: 1, images: 0, name: 'zadanie.pdf' })).toBe('zadanie.pdf');
    expect(filesSnippet({ count: 1, images: 0, name: null })).toBe('Súbor');
    expect(filesSnippet({ count: 3, images: 3, name: 'a.jpg' })).toBe('3 fotky');
    expect(filesSnippet({ count: 5, images: 5, name: 'a.jpg' })).toBe('5 fotiek');
    expect(filesSnippet({ count: 2, images: 1, name: 'a.pdf' })).toBe('2 prílohy');
    expect(filesSnippet({ count: 6, images: 0, name: 'a.pdf' })).toBe('6 príloh');
    expect(filesSnippet(undefined)).toBe('');
  });

  it("R2.10 a message of files without text is named; text wins; 'No messages yet' only without a message", () => {
    expect(snippet(conversation(last('', { count: 1, images: 0, name: 'zadanie.pdf' })))).toBe('zadanie.pdf');
    expect(snippet(conversation(last('', { count: 2, images: 2, name: 'a.jpg' })))).toBe('2 fotky');
    expect(snippet(conversation(last('Posielam **brief**', { count: 1, images: 0, name: 'brief.pdf' })))).toBe('Posielam brief');
    expect(snippet(conversation(last('')))).toBe('No messages yet');
    expect(snippet(conversation(null))).toBe('No messages yet');
  });

  it("R16.5 'Koncept:' names a tray's files when the draft has no text; the draft's text wins", () => {
    const c = conversation(last('Ahoj'));
    expect(snippet(c, undefined, { count: 1, images: 1, name: 'IMG_1.jpg' })).toBe('Koncept: Fotka');
    expect(snippet(c, '', { count: 1, images: 0, name: 'zadanie.pdf' })).toBe('Koncept: zadanie.pdf');
    expect(snippet(c, 'Rozpísané', { count: 1, images: 0, name: 'zadanie.pdf' })).toBe('Koncept: Rozpísané');
    expect(snippet(c)).toBe('Ahoj');
  });
});
