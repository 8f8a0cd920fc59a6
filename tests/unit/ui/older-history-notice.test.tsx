// @vitest-environment jsdom
// R17.5: a chat whose older messages are still on their way says so above them — arriving while
// online, not downloaded while offline — and says nothing once its history is whole.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OlderHistoryLine } from '../../../src/pages/chat/OlderHistoryNotice.tsx';

afterEach(cleanup);

describe('R17.5 the older-history line of a chat', () => {
  it('R17.5 online: "Staršie správy sa ešte sťahujú…"; offline: not downloaded yet; whole: nothing', () => {
    render(<OlderHistoryLine pending offline={false} />);
    expect(screen.getByTestId('older-history-note').textContent).toBe('Staršie správy sa ešte sťahujú…');
    cleanup();
    render(<OlderHistoryLine pending offline />);
    expect(screen.getByTestId('older-history-note').textContent).toBe('Staršie správy ešte nie sú stiahnuté. Načítajú sa po pripojení k internetu.');
    cleanup();
    render(<OlderHistoryLine pending={false} offline={false} />);
    expect(screen.queryByTestId('older-history-note')).toBeNull();
  });
});
