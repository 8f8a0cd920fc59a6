// Issue 21 item 16: the built-in responder (no AI provider configured) writes grammatical Slovak,
// stays on the asked topic for each specialist, and answers a specialist request as passed on.
import { describe, expect, it } from 'vitest';
import { localReply } from '../../../supabase/functions/_shared/ai/local-responder.ts';
import type { SpecialistProfile } from '../../../supabase/functions/_shared/ai/types.ts';

const martin: SpecialistProfile = {
  id: '00000000-0000-4000-8000-000000000011',
  name: 'Martin Kováč',
  role: 'SEO špecialista',
  seniority: 'Medior',
  bio: 'Zlepším viditeľnosť vášho webu vo vyhľadávačoch.',
  skills: ['Technické SEO', 'Kľúčové slová', 'Google Search Console', 'Lokálne SEO'],
};
const assistant: SpecialistProfile = { id: 'a', name: 'Asistent Poradne', role: 'Osobný asistent', seniority: null, bio: null, skills: [] };
const ask = (s: SpecialistProfile, text: string) => localReply({ specialist: s, history: [{ direction: 'user', text }] });

describe('built-in responder', () => {
  it('keeps the role as written (no "seo špecialista") and never declines a title wrongly', () => {
    const r = ask(martin, 'Ako nastaviť kampaň na Google Ads?');
    expect(r).toContain('Som Martin Kováč (SEO špecialista).');
    expect(r).not.toMatch(/seo špecialista/);
    expect(r).not.toContain('Pri téme');
    expect(r).toContain('K téme **výkonnostné kampane** odporúčam:');
  });

  it('answers "ako zlepšiť konverzný pomer?" about conversion, not campaigns', () => {
    const r = ask(martin, 'ako zlepšiť konverzný pomer?');
    expect(r).toContain('**konverzný pomer**');
    expect(r).not.toMatch(/kampa/i);
  });

  it("puts the specialist's own field first when a message touches several", () => {
    const r = ask(martin, 'Máme web a robíme aj kampane na Facebooku, čo zlepšiť?');
    expect(r).toContain('K téme **web a vyhľadávanie**');
  });

  it('acknowledges a specialist request as passed on, not as a question', () => {
    const r = ask(assistant, 'Mám záujem o vytvorenie projektu s Petra Nováková');
    expect(r).toContain('sme odovzdali tímu');
    expect(r).not.toContain('K vašej otázke');
    expect(r).not.toContain('potrebujem vedieť');
  });
});
