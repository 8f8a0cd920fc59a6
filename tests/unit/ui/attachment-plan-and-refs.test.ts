// Issue 38: how the composer's text and files become messages, and which attachment addresses an own
// bubble resolves itself (a blob on this device, a stored object) while anything else still goes
// through the web-address rule (attachment-url.ts).
import { describe, expect, it } from 'vitest';
import { parseAttachmentRef } from '../../../src/pages/chat/attachments/attachment-ref.ts';
import { planMessages } from '../../../src/pages/chat/attachments/plan-messages.ts';
import { attachmentsOf } from '../../../src/pages/chat/message-kinds.ts';

const item = (id: string, caption = '') => ({ id, caption });

describe('planMessages (issue 38)', () => {
  it('files without captions go together with the typed text', () => {
    expect(planMessages('Pozrite', [item('a'), item('b')])).toEqual([{ text: 'Pozrite', files: [item('a'), item('b')] }]);
  });

  it('a captioned file is its own message; the others and the text close the batch', () => {
    expect(planMessages('Zvyšok', [item('a', ' Logo '), item('b'), item('c', 'Brief')])).toEqual([
      { text: 'Logo', files: [item('a', ' Logo ')] },
      { text: 'Brief', files: [item('c', 'Brief')] },
      { text: 'Zvyšok', files: [item('b')] },
    ]);
  });

  it('every file captioned: the typed text is a last text-only message; blank text adds none', () => {
    expect(planMessages('Ahoj', [item('a', 'Logo')])).toEqual([
      { text: 'Logo', files: [item('a', 'Logo')] },
      { text: 'Ahoj', files: [] },
    ]);
    expect(planMessages('  ', [item('a', 'Logo')])).toEqual([{ text: 'Logo', files: [item('a', 'Logo')] }]);
  });
});

describe('attachment references (issue 38)', () => {
  it('reads the engine\'s local references and stored object paths', () => {
    expect(parseAttachmentRef('local-attachment:0b1c-2d')).toEqual({ kind: 'local', id: '0b1c-2d', thumb: false });
    expect(parseAttachmentRef('local-attachment:0b1c-2d#thumb')).toEqual({ kind: 'local', id: '0b1c-2d', thumb: true });
    expect(parseAttachmentRef('storage:attachments/acc/conv/att/Plán 1.pdf')).toEqual({ kind: 'storage', bucket: 'attachments', path: 'acc/conv/att/Plán 1.pdf' });
  });

  it('refuses forged or escaping ones', () => {
    for (const raw of [
      'local-attachment:',
      'local-attachment:../x',
      'local-attachment:a#full',
      'storage:attachments/../other/x',
      'storage:attachments//x',
      'storage:attachments/a/./b',
      'storage:Attachments/x',
      'storage:attachments/a\nb',
      'storage:attachments/a\\b',
      'javascript:alert(1)',
    ]) {
      expect(parseAttachmentRef(raw), raw).toBeNull();
    }
  });

  it('a rich payload keeps own references for the bubble to resolve, and still drops script addresses', () => {
    const list = attachmentsOf({
      attachments: [
        { id: 'a', file_type: 'image', data_url: 'local-attachment:a', thumb_url: 'local-attachment:a#thumb', name: 'foto.jpg', width: 2048, height: 1536, file_size: 1000 },
        { id: 'b', file_type: 'file', data_url: 'storage:attachments/acc/conv/b/plan.pdf', thumb_url: null, name: 'plan.pdf', file_size: 5 },
        { id: 'c', file_type: 'file', data_url: 'javascript:alert(1)', name: 'x' },
        { id: 'd', file_type: 'image', data_url: 'https://cdn.example/x.png', thumb_url: 'data:image/png;base64,AAAA' },
      ],
    });
    expect(list.map((a) => [a.id, a.fileType, a.dataUrl, a.thumbUrl])).toEqual([
      ['a', 'image', 'local-attachment:a', 'local-attachment:a#thumb'],
      ['b', 'other', 'storage:attachments/acc/conv/b/plan.pdf', null],
      ['d', 'image', 'https://cdn.example/x.png', null],
    ]);
  });
});
