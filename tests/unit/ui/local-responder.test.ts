// The built-in responder (no AI provider configured; issue 21 item 16, issue 39): grammatical Slovak,
// on the asked topic, honest that it is a demo, brief to thanks, greetings and off-topic messages,
// introducing the specialist once per conversation, pointing to the plan's specialists who fit, and
// streaming word by word like a provider (sync/SPEC.md R13.6).
import { describe, expect, it } from 'vitest';
import { DEMO_LINE, localProvider, localReply } from '../../../supabase/functions/_shared/ai/local-responder.ts';
import type { HistoryMessage, PlanSpecialist, SpecialistProfile } from '../../../supabase/functions/_shared/ai/types.ts';

const martin: SpecialistProfile = {
  id: '00000000-0000-4000-8000-000000000011',
  name: 'Martin Kováč',
  role: 'SEO špecialista',
  seniority: 'Medior',
  bio: 'Zlepším viditeľnosť vášho webu vo vyhľadávačoch.',
  skills: ['Technické SEO', 'Kľúčové slová', 'Google Search Console', 'Lokálne SEO'],
};
const assistant: SpecialistProfile = { id: 'a', name: 'Asistent Poradne', role: 'Osobný asistent', seniority: null, bio: null, skills: [] };
const plan: PlanSpecialist[] = [
  { name: 'Jana Vargová', role: 'PPC špecialistka', skills: ['Google Ads', 'Meta Ads kampane'] },
  { name: 'Martin Kováč', role: 'SEO špecialista', skills: ['Technické SEO'] },
  { name: 'Eva Malá', role: 'Copywriterka', skills: ['Texty', 'Newsletter'] },
];
const ask = (s: SpecialistProfile, text: string, history: HistoryMessage[] = []) =>
  localReply({ specialist: s, history: [...history, { direction: 'user', text }], planSpecialists: plan });
const answered: HistoryMessage[] = [
  { direction: 'user', text: 'Ahoj' },
  { direction: 'specialist', text: 'Som Martin Kováč.' },
];

describe('built-in responder', () => {
  it('says in one short line that it is a demo answer because no AI provider is set', () => {
    for (const text of ['Ako nastaviť kampaň?', 'Ďakujem!', 'Ahoj', 'Aké bude počasie?']) {
      const r = ask(martin, text);
      expect(r.split('\n')[0]).toBe(DEMO_LINE);
      expect(DEMO_LINE).toContain('poskytovateľ AI');
    }
  });

  it('keeps the role as written (no "seo špecialista") and names the topic without declining it', () => {
    const r = ask(martin, 'Ako nastaviť kampaň na Google Ads?');
    expect(r).toContain('Som Martin Kováč (SEO špecialista).');
    expect(r).not.toMatch(/seo špecialista/);
    expect(r).not.toMatch(/K téme \S/);
    expect(r).toContain('Odporúčania – **výkonnostné kampane**:');
  });

  it('answers "ako zlepšiť konverzný pomer?" about conversion, not campaigns', () => {
    const r = ask(martin, 'ako zlepšiť konverzný pomer?');
    expect(r).toContain('**konverzný pomer**');
    expect(r).not.toMatch(/kampa/i);
  });

  it("puts the specialist's own field first when a message touches several", () => {
    expect(ask(martin, 'Máme web a robíme aj kampane na Facebooku, čo zlepšiť?')).toContain('Odporúčania – **web a vyhľadávanie**');
  });

  it('introduces the specialist once per conversation', () => {
    expect(ask(martin, 'Ako na SEO?')).toContain('Som Martin Kováč');
    expect(ask(martin, 'Ako na SEO?', answered)).not.toContain('Som ');
  });

  it('answers thanks, greetings, English and off-topic messages briefly, without the canned questions', () => {
    for (const text of ['Ďakujem, to mi pomohlo!', 'Ahoj', 'Can you answer in English?', 'Aké bude zajtra počasie?']) {
      const r = ask(martin, text, answered);
      const lines = r.split('\n').filter((l) => l.trim() && l !== DEMO_LINE);
      expect(lines.length, text).toBe(1);
      expect(r).not.toContain('potrebujem vedieť');
      expect(r).not.toMatch(/^\d\./m);
    }
    expect(ask(martin, 'Ďakujem, to mi pomohlo!', answered)).toContain('Rado sa stalo');
  });

  it("suggests the plan's specialists who fit the question, not the one answering, names undeclined", () => {
    const r = ask(assistant, 'Potrebujem spustiť PPC kampaň na Google Ads');
    expect(r).toContain('**Jana Vargová** (PPC špecialistka)');
    expect(r).not.toContain('Eva Malá');
    expect(ask(martin, 'Ako zlepšiť SEO webu?')).not.toContain('**Martin Kováč** (');
  });

  it('acknowledges a specialist request as passed on, with the name in the nominative', () => {
    const r = ask(assistant, 'Mám záujem o vytvorenie projektu s Petra Nováková');
    expect(r).toContain('sme odovzdali tímu');
    expect(r).toContain('Špecialista: **Petra Nováková**.');
    expect(r).not.toMatch(/so špecialist/);
  });

  it('R13.6 streams the reply word by word, and a continuation yields only what follows the stored text', async () => {
    const req = { specialist: martin, history: [{ direction: 'user' as const, text: 'Ako na SEO?' }], planSpecialists: plan };
    const full = localReply(req);
    const pieces: string[] = [];
    for await (const p of localProvider(0).stream(req, new AbortController().signal)) pieces.push(p);
    expect(pieces.length).toBeGreaterThan(10);
    expect(pieces.join('')).toBe(full);
    const rest: string[] = [];
    const cut = pieces.slice(0, 7).join('');
    for await (const p of localProvider(0).stream({ ...req, continueFrom: cut }, new AbortController().signal)) rest.push(p);
    expect(cut + rest.join('')).toBe(full);
  });

  it('R13.6 pauses before the first word as a model does (the typing dots show meanwhile), not before a continuation', async () => {
    const req = { specialist: martin, history: [{ direction: 'user' as const, text: 'Ako na SEO?' }], planSpecialists: plan };
    const firstAfter = async (r: typeof req & { continueFrom?: string }, pauseMs: number) => {
      const t0 = performance.now();
      for await (const _ of localProvider(0, pauseMs).stream(r, new AbortController().signal)) return performance.now() - t0;
      throw new Error('no word');
    };
    expect(await firstAfter(req, 600)).toBeGreaterThanOrEqual(590);
    // Half of a 5 s pause: a continuation that paused would take all of it, and a loaded machine's
    // stalled event loop (hundreds of ms in CI) cannot reach it.
    expect(await firstAfter({ ...req, continueFrom: localReply(req).slice(0, 40) }, 5_000)).toBeLessThan(2_500);
    // A stop during the pause ends the stream at once, with no word.
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 20);
    const words: string[] = [];
    const t0 = performance.now();
    for await (const w of localProvider(0, 5_000).stream(req, ctl.signal)) words.push(w);
    expect(words).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});
