// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UnreadBadge } from '../../../src/components/UnreadBadge.tsx';
import { unreadLabel } from '../../../src/lib/unread.ts';

afterEach(cleanup);

describe('unread badge (99+ cap)', () => {
  it('labels counts up to 99 and caps above', () => {
    expect(unreadLabel(0)).toBeNull();
    expect(unreadLabel(-3)).toBeNull();
    expect(unreadLabel(1)).toBe('1');
    expect(unreadLabel(99)).toBe('99');
    expect(unreadLabel(100)).toBe('99+');
    expect(unreadLabel(12_345)).toBe('99+');
    expect(unreadLabel(Number.NaN)).toBeNull();
  });
  it('renders nothing for zero', () => {
    const { container } = render(<UnreadBadge count={0} />);
    expect(container.innerHTML).toBe('');
  });
  it("shows '99+' with the real count for screen readers", () => {
    render(<UnreadBadge count={150} />);
    const badge = screen.getByLabelText('150 neprečítaných');
    expect(badge.textContent).toBe('99+');
  });
});
