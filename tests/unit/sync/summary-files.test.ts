// R2.10: the summary's last message carries its files, so the list can say 'Fotka' or a file's name
// for a message without text; a change of files alone is a change of the summary.
import { describe, expect, it } from 'vitest';
import { filesSummary, lastMessageOf, sameSummary, summarize } from '../../../sync/merge/summary.ts';
import type { LocalConversation, LocalMessage } from '../../../sync/model/local-types.ts';

function message(key: string, text: string, payload: LocalMessage['payload']): LocalMessage {
  return {
    key, serverId: `id-${key}`, conversationId: 'c1', accountId: 'a1', text, type: 'text', direction: 'user', source: 'app',
    chatwootMessageId: null, createdAt: '2026-12-01T10:00:00.000000Z', orderKey: `2026-12-01T10:00:00.000000Z ${key}`, readAt: null,
    payload, correlationId: null, senderUserId: null, changeSeq: 1, state: 'sent', origin: 'server', error: null, confirmedAt: null,
  };
}

const photo = { id: 'p1', file_type: 'image', name: 'IMG_1.jpg', data_url: 'storage:attachments/a/c/p1/IMG_1.jpg' };
const pdf = { id: 'f1', file_type: 'file', name: 'zadanie.pdf', data_url: 'storage:attachments/a/c/f1/zadanie.pdf' };

describe('R2.10 files in the summary', () => {
  it('R2.10 counts the attachments, tells images apart and names the first; none without attachments', () => {
    expect(filesSummary({ attachments: [pdf, photo] })).toEqual({ count: 2, images: 1, name: 'zadanie.pdf' });
    expect(filesSummary({ attachments: [photo] })).toEqual({ count: 1, images: 1, name: 'IMG_1.jpg' });
    expect(filesSummary({ attachments: [{ id: 'x', file_type: 'file', name: '' }] })).toEqual({ count: 1, images: 0, name: null });
    expect(filesSummary({ attachments: [] })).toBeUndefined();
    expect(filesSummary({ attachments: ['not an object', null] })).toBeUndefined();
    expect(filesSummary({ attachments: 'x' })).toBeUndefined();
    expect(filesSummary(null)).toBeUndefined();
  });

  it('R2.10 the last message of a photo without text carries it; a text message carries no files field', () => {
    expect(lastMessageOf(message('m1', '', { attachments: [photo] }))).toMatchObject({ text: '', files: { count: 1, images: 1 } });
    expect('files' in lastMessageOf(message('m2', 'Ahoj', null))).toBe(false);
    const s = summarize({ lastMessageAt: null, createdAt: '2026-12-01T09:00:00.000000Z' }, [message('m1', '', { attachments: [pdf] })], '');
    expect(s.lastMessage?.files).toEqual({ count: 1, images: 0, name: 'zadanie.pdf' });
  });

  it('R2.10 a summary whose only difference is its files is not the same (it is stored again)', () => {
    const withFile = summarize({ lastMessageAt: null, createdAt: '2026-12-01T09:00:00.000000Z' }, [message('m1', '', { attachments: [pdf] })], '');
    const stored = { lastMessage: { ...withFile.lastMessage!, files: undefined }, unreadCount: withFile.unreadCount, sortAt: withFile.sortAt } as unknown as LocalConversation;
    expect(sameSummary(stored, withFile)).toBe(false);
    expect(sameSummary({ ...stored, lastMessage: withFile.lastMessage }, withFile)).toBe(true);
  });
});
