// R12.3/R12.4: the pure parts of the attachment outbox: object file names and local references.
import { describe, expect, it } from 'vitest';
import { localRef, storageFileName } from '../../../sync/attachments/limits.ts';
import { localAttachmentRef } from '../../../sync/attachments/queries.ts';

describe('R12 attachment names and references', () => {
  it('R12.4 object file names are plain ASCII, keep the extension, never a path or hidden file', () => {
    expect(storageFileName('Zmluva č. 5 – návrh.pdf')).toBe('Zmluva_c._5_navrh.pdf');
    expect(storageFileName('../../etc/passwd')).toBe('etc_passwd');
    expect(storageFileName('.htaccess')).toBe('htaccess');
    expect(storageFileName('???')).toBe('subor');
    const long = storageFileName(`${'a'.repeat(300)}.docx`);
    expect(long).toHaveLength(100);
    expect(long.endsWith('.docx')).toBe(true);
  });

  it('R12.3 a local reference names its attachment and whether it is the thumbnail; other addresses are not local', () => {
    expect(localAttachmentRef(localRef('abc'))).toEqual({ attachmentId: 'abc', thumb: false });
    expect(localAttachmentRef(localRef('abc', true))).toEqual({ attachmentId: 'abc', thumb: true });
    expect(localAttachmentRef('storage:attachments/a/b/c/d.png')).toBeNull();
    expect(localAttachmentRef('local-attachment:')).toBeNull();
  });
});
