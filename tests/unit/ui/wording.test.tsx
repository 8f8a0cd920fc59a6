// @vitest-environment jsdom
// Issue 21 item 13: the live region reads words, not markdown; the unsent hint agrees with the count.
import { describe, expect, it } from 'vitest';
import { spokenText } from '../../../src/pages/chat/NewMessageAnnouncer.tsx';
import { sk } from '../../../src/text/sk.ts';

describe('wording', () => {
  it('the live region text carries no markdown syntax', () => {
    const said = spokenText('**Pozor:** pozrite [návod](https://example.com/a) a `kód`\n\n# Nadpis\n- bod');
    expect(said).toBe('Pozor: pozrite návod a kód Nadpis bod');
    expect(said).not.toMatch(/[*#[\]`]/);
  });
  it("'1 správa … kým sa odošle', several '… kým sa odošlú'", () => {
    expect(`${sk.settings.unsentWarning(1)} ${sk.settings.unsentHint(1)}`).toMatch(/^1 správa .* kým sa odošle\.$/);
    expect(sk.settings.unsentHint(3)).toMatch(/kým sa odošlú\.$/);
  });
});
