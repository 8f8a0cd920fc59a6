// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { isActiveStatus, StatusBadge } from '../../../src/components/StatusBadge.tsx';

afterEach(cleanup);

describe('status badge', () => {
  it("shows 'Aktívne' for active and a missing status (the default)", () => {
    render(<StatusBadge status="active" />);
    expect(screen.getByText('Aktívne')).toBeTruthy();
    expect(isActiveStatus(null)).toBe(true);
  });
  it("shows 'Ukončené' for any other value", () => {
    for (const status of ['completed', 'resolved', 'closed', '']) {
      render(<StatusBadge status={status} />);
      expect(screen.getByText('Ukončené')).toBeTruthy();
      cleanup();
    }
  });
});
