// @vitest-environment jsdom
// Composer rules of user-area.md section 5: blank text ignored, Enter sends and Shift+Enter adds a
// newline, the textarea grows to at most 128 px, and the disabled states with their placeholders.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer, COMPOSER_MAX_HEIGHT_PX, type ComposerMode } from '../../../src/pages/chat/Composer.tsx';

afterEach(cleanup);

function Harness({ onSend, mode = 'ready', initial = '' }: { onSend: (t: string) => Promise<boolean>; mode?: ComposerMode; initial?: string }) {
  const [value, setValue] = useState(initial);
  return <Composer value={value} onChange={setValue} onSend={onSend} mode={mode} />;
}

const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Správa' });
const sendButton = () => screen.getByRole('button', { name: 'Odoslať' });

describe('Composer', () => {
  it('ignores blank text (button disabled, Enter does nothing)', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<Harness onSend={onSend} />);
    fireEvent.change(box(), { target: { value: '   \n  ' } });
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      fireEvent.keyDown(box(), { key: 'Enter' });
    });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('Enter sends and clears once stored; Shift+Enter does not send', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<Harness onSend={onSend} />);
    fireEvent.change(box(), { target: { value: 'Ahoj' } });
    const shift = fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true });
    expect(shift).toBe(true); // default not prevented: the browser inserts the newline
    expect(onSend).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.keyDown(box(), { key: 'Enter' });
    });
    expect(onSend).toHaveBeenCalledWith('Ahoj');
    expect(box().value).toBe('');
  });

  it('keeps the text when the send was not stored', async () => {
    const onSend = vi.fn(() => Promise.reject(new Error('db closed')));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(<Harness onSend={onSend} />);
    fireEvent.change(box(), { target: { value: 'Dôležité' } });
    await act(async () => {
      fireEvent.click(sendButton());
    });
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(box().value).toBe('Dôležité');
  });

  it('ignores a second send while one is in flight', async () => {
    let finish: (v: boolean) => void = () => undefined;
    const onSend = vi.fn(() => new Promise<boolean>((r) => (finish = r)));
    render(<Harness onSend={onSend} />);
    fireEvent.change(box(), { target: { value: 'Raz' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(onSend).toHaveBeenCalledTimes(1);
    await act(async () => finish(true));
  });

  it(`grows with its content up to ${COMPOSER_MAX_HEIGHT_PX} px, then scrolls`, () => {
    let scrollHeight = 40;
    vi.spyOn(HTMLTextAreaElement.prototype, 'scrollHeight', 'get').mockImplementation(() => scrollHeight);
    render(<Harness onSend={() => Promise.resolve(true)} />);
    fireEvent.change(box(), { target: { value: 'a' } });
    expect(box().style.height).toBe('40px');
    scrollHeight = 90;
    fireEvent.change(box(), { target: { value: 'a\nb\nc' } });
    expect(box().style.height).toBe('90px');
    scrollHeight = 400;
    fireEvent.change(box(), { target: { value: 'a\nb\nc\nd\ne\nf\ng\nh\ni' } });
    expect(box().style.height).toBe('128px');
    expect(box().style.overflowY).toBe('auto');
  });

  it.each([
    ['ready', 'Napísať správu…', false],
    ['waiting', 'Čaká sa na odpoveď…', true],
    ['completed', 'Konverzácia je ukončená', true],
  ] as const)('%s: placeholder and disabled state', async (mode, placeholder, disabled) => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<Harness onSend={onSend} mode={mode} initial="Text" />);
    expect(box().placeholder).toBe(placeholder);
    expect(box().disabled).toBe(disabled);
    expect((sendButton() as HTMLButtonElement).disabled).toBe(disabled);
    await act(async () => {
      fireEvent.keyDown(box(), { key: 'Enter' });
    });
    expect(onSend).toHaveBeenCalledTimes(disabled ? 0 : 1);
  });

  it('missing: the textarea is disabled too', () => {
    render(<Harness onSend={() => Promise.resolve(true)} mode="missing" initial="Text" />);
    expect(box().disabled).toBe(true);
  });

  it('loading: typing goes on, and an Enter then sends the text it was pressed with once the conversation is known', async () => {
    // Stop 52: the chat showed its stored draft before its conversation was read, the textarea was
    // still disabled, and a space typed then was lost ('rýchlo a' became 'rýchloa').
    const onSend = vi.fn(() => Promise.resolve(true));
    const { rerender } = render(<Harness onSend={onSend} mode="loading" initial="Text" />);
    expect(box().placeholder).toBe('Napísať správu…');
    expect(box().disabled).toBe(false);
    fireEvent.change(box(), { target: { value: 'Text a' } });
    expect(box().value).toBe('Text a');
    await act(async () => {
      fireEvent.keyDown(box(), { key: 'Enter' });
    });
    expect(onSend).not.toHaveBeenCalled();
    expect(box().value).toBe('Text a');
    // Told, not silent: the button busy and a status saying when it goes.
    expect(sendButton().getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Správa sa odošle, keď sa konverzácia načíta.');
    await act(async () => {
      rerender(<Harness onSend={onSend} mode="ready" initial="Text" />);
    });
    expect(screen.queryByRole('status')).toBeNull();
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend).toHaveBeenCalledWith('Text a');
    expect(box().value).toBe('');
  });

  it('loading, then waiting for the AI to answer an earlier question: the send asked for while loading goes once ready', async () => {
    // Seen in a journey batch: the chat opened while the AI still answered another journey's question
    // ('waiting' between 'loading' and 'ready'), and the Enter pressed while loading was dropped.
    const onSend = vi.fn(() => Promise.resolve(true));
    const { rerender } = render(<Harness onSend={onSend} mode="loading" initial="Ahoj" />);
    await act(async () => {
      fireEvent.keyDown(box(), { key: 'Enter' });
    });
    await act(async () => {
      rerender(<Harness onSend={onSend} mode="waiting" initial="Ahoj" />);
    });
    expect(onSend).not.toHaveBeenCalled();
    // The status says what it waits for now: the answer, not the chat's opening.
    expect(screen.getByRole('status').textContent).toBe('Správa sa odošle po odpovedi špecialistu.');
    await act(async () => {
      rerender(<Harness onSend={onSend} mode="ready" initial="Ahoj" />);
    });
    expect(onSend).toHaveBeenCalledWith('Ahoj');
    expect(box().value).toBe('');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('loading: a send asked for then is not made when the conversation turns out closed; the text stays', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    const { rerender } = render(<Harness onSend={onSend} mode="loading" initial="Ahoj" />);
    await act(async () => {
      fireEvent.click(sendButton());
    });
    await act(async () => {
      rerender(<Harness onSend={onSend} mode="completed" initial="Ahoj" />);
    });
    await act(async () => {
      rerender(<Harness onSend={onSend} mode="ready" initial="Ahoj" />);
    });
    expect(onSend).not.toHaveBeenCalled();
    expect(box().value).toBe('Ahoj');
  });

  it('has an attach button that is present but does nothing yet', () => {
    render(<Harness onSend={() => Promise.resolve(true)} />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /Priložiť súbor/ }).disabled).toBe(true);
  });
});

describe('Composer with attachments (issue 38)', () => {
  it('sends blank text when attachments are ready, never while they are being prepared', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    const { rerender } = render(<Composer value="" onChange={() => undefined} onSend={onSend} mode="ready" attachments="preparing" />);
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      fireEvent.keyDown(box(), { key: 'Enter' });
    });
    expect(onSend).not.toHaveBeenCalled();
    rerender(<Composer value="" onChange={() => undefined} onSend={onSend} mode="ready" attachments="ready" />);
    await act(async () => {
      fireEvent.click(sendButton());
    });
    expect(onSend).toHaveBeenCalledWith('');
  });

  it('shows the attach slot in place of the disabled button', () => {
    render(<Composer value="" onChange={() => undefined} onSend={() => Promise.resolve(true)} mode="ready" attach={<button type="button">Priložiť súbor</button>} />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Priložiť súbor' }).disabled).toBe(false);
  });
});
