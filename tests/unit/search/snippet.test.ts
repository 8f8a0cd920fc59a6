// R15.6: the snippet of a hit, on the text as written.
import { describe, expect, it } from 'vitest';
import { snippetOf } from '../../../sync/search/snippet.ts';

const shown = (s: ReturnType<typeof snippetOf>) => s.parts.map((p) => (p.hit ? `[${p.text}]` : p.text)).join('');

describe('R15.6 snippet', () => {
  it('marks every word starting with a query word, as written, only the typed prefix', () => {
    expect(shown(snippetOf('Kampaň beží, kampane končia.', 'kampan'))).toBe('[Kampaň] beží, [kampan]e končia.');
    expect(shown(snippetOf('Ľudia z Košíc', 'ludia kos'))).toBe('[Ľudia] z [Koš]íc');
  });

  it('a match deep in a long message: a window around it, cut at a word, with ellipses', () => {
    const text = `${'slovo '.repeat(40)}finálny Rozpočet je 12 400 € ${'ďalej '.repeat(40)}`;
    const s = shown(snippetOf(text, 'rozpocet'));
    expect(s.startsWith('…slovo')).toBe(true);
    expect(s).toContain('finálny [Rozpočet] je 12 400 €');
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThan(130);
  });
});
