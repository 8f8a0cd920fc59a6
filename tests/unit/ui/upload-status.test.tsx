// @vitest-environment jsdom
// Issue 38: what an own message with files says while it is not sent: progress per uploading file,
// offline only cancel (the bubble's line says 'Čaká na pripojenie'), the Slovak reason and retry when an upload failed, cancel while any
// file is not on the server, and nothing once all are sent.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UploadStatusView } from '../../../src/pages/chat/attachments/UploadStatus.tsx';
import type { AttachmentUpload } from '../../../src/pages/chat/attachments/send-attachments.ts';

afterEach(cleanup);

const upload = (over: Partial<AttachmentUpload>): AttachmentUpload => ({
  attachmentId: 'a',
  uploadId: 'a',
  messageKey: 'k',
  name: 'foto.jpg',
  role: 'file',
  sent: 0,
  total: 100,
  state: 'uploading',
  error: null,
  ...over,
});

describe('UploadStatusView', () => {
  it('shows the progress of an uploading file, and cancel', () => {
    const onCancel = vi.fn();
    render(<UploadStatusView uploads={[upload({ sent: 45 })]} onRetry={vi.fn()} onCancel={onCancel} />);
    expect(screen.getByText('Nahráva sa 45 %')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Nahrávanie foto.jpg' }).getAttribute('value')).toBe('45');
    expect(screen.queryByRole('button', { name: 'Skúsiť znova' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Zrušiť odoslanie' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('waiting for a network adds no second "Čaká na pripojenie" (the bubble line says it), keeps cancel', () => {
    render(<UploadStatusView uploads={[upload({ state: 'waiting-network' })]} onRetry={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByTestId('upload-status').getAttribute('data-waiting')).toBe('true');
    expect(screen.getByTestId('upload-status').textContent).not.toContain('Čaká na pripojenie');
    expect(screen.getByRole('button', { name: 'Zrušiť odoslanie' })).toBeTruthy();
  });

  it('a failed upload says why and offers retry', () => {
    const onRetry = vi.fn();
    render(<UploadStatusView uploads={[upload({ state: 'failed', error: 'Server súbor neprijal.' })]} onRetry={onRetry} onCancel={vi.fn()} />);
    expect(screen.getByRole('alert').textContent).toBe('Server súbor neprijal.');
    fireEvent.click(screen.getByRole('button', { name: 'Skúsiť znova' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('nothing once the server has the message (no uploads listed); no cancel once all are uploaded', () => {
    const { container, rerender } = render(<UploadStatusView uploads={[]} onRetry={vi.fn()} onCancel={vi.fn()} />);
    expect(container.textContent).toBe('');
    rerender(<UploadStatusView uploads={[upload({ state: 'uploaded', sent: 100 }), upload({ uploadId: 'a#thumb', role: 'thumb', state: 'uploaded' })]} onRetry={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.queryByRole('button', { name: 'Zrušiť odoslanie' })).toBeNull();
  });

  it('R12.9 a send the server refused keeps cancel although every file is uploaded (giving it up removes the files)', () => {
    const onCancel = vi.fn();
    render(<UploadStatusView uploads={[upload({ state: 'uploaded', sent: 100 })]} sendRefused onRetry={vi.fn()} onCancel={onCancel} />);
    fireEvent.click(screen.getByRole('button', { name: 'Zrušiť odoslanie' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('a thumbnail upload shows no row of its own, but its failure is said', () => {
    render(<UploadStatusView uploads={[upload({ sent: 10 }), upload({ uploadId: 'a#thumb', role: 'thumb', state: 'failed', error: 'Náhľad sa nenahral.' })]} onRetry={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getAllByRole('progressbar')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe('Náhľad sa nenahral.');
  });

  it('R12.13 a photo still being prepared says so (and it can be cancelled), never a progress bar', () => {
    render(<UploadStatusView uploads={[upload({ state: 'preparing' })]} onRetry={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByText('Fotka sa pripravuje na odoslanie…')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Zrušiť odoslanie' })).toBeTruthy();
  });
});
