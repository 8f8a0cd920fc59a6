// @vitest-environment jsdom
// A failed admin load retries by itself when the browser says it is online again (the run of 6aeac48:
// the first request after 'online' could still fail, and the error state stayed until a click).
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadFailed } from '../../../src/admin/ui/LoadStates.tsx';

afterEach(cleanup);

describe('LoadFailed', () => {
  it("retries on the button and on the browser's next 'online', and stops listening once gone", () => {
    const onRetry = vi.fn();
    const { unmount } = render(<LoadFailed message="Nepodarilo sa načítať účty z databázy" onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toContain('Nepodarilo sa načítať účty z databázy');
    fireEvent.click(screen.getByRole('button', { name: 'Skúsiť znova' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('online'));
    expect(onRetry).toHaveBeenCalledTimes(2);
    unmount();
    window.dispatchEvent(new Event('online'));
    expect(onRetry).toHaveBeenCalledTimes(2);
  });
});
