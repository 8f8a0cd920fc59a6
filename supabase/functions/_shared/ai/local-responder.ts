// The built-in responder: answers in Slovak, in the specialist's voice, from their profile and the
// user's message, so the product works with no AI provider at all. Deterministic for a given input.
// Grammar: names, roles and topic titles are never declined by a template (roles in parentheses,
// topic titles as an apposition in the nominative), so every sentence stays correct Slovak.
import { detectTopics, normalize, type Topic } from './local-topics.ts';
import type { ReplyProvider, ReplyRequest } from './types.ts';

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const OPENERS = ['Ďakujem za správu.', 'S radosťou pomôžem.', 'Dobrá otázka.', 'Poďme sa na to pozrieť.'];
const CLOSERS = [
  'Napíšte mi, aký máte cieľ a termín, a pripravím konkrétny plán.',
  'Ak mi pošlete viac detailov o cieľovej skupine, odporúčania spresním.',
  'Chcete, aby sme to rozpracovali do krokov na najbližšie dva týždne?',
];

function isGreeting(text: string): boolean {
  return /^(ahoj|dobry den|dobre rano|cau|zdravim|hello|hi)\b/.test(normalize(text).trim());
}

/** The request-specialist flow's message (user-area.md section 7), answered as passed on. */
const REQUEST_PREFIX = 'mam zaujem o vytvorenie projektu s ';

/** Topics of the message, those of the specialist's own field (role, skills, bio) first. */
function rankTopics(text: string, s: ReplyRequest['specialist']): Topic[] {
  const own = new Set(detectTopics([s.role ?? '', ...s.skills, s.bio ?? ''].join(' ')).map((t) => t.id));
  const found = detectTopics(text);
  return [...found.filter((t) => own.has(t.id)), ...found.filter((t) => !own.has(t.id))];
}

export function localReply(req: ReplyRequest): string {
  const s = req.specialist;
  const last = [...req.history].reverse().find((m) => m.direction === 'user')?.text.trim() ?? '';
  const h = hash(`${s.id}:${last}`);
  const intro = `${OPENERS[h % OPENERS.length]} Som ${s.name}${s.role ? ` (${s.role})` : ''}.`;

  if (normalize(last).startsWith(REQUEST_PREFIX)) {
    const who = last.slice(REQUEST_PREFIX.length).trim().replace(/[.!?]+$/, '');
    return [
      `Ďakujem, vašu žiadosť o spoluprácu${who ? ` so špecialistom ${who}` : ''} sme odovzdali tímu.`,
      '',
      'Ozveme sa vám v tejto konverzácii s ďalším postupom. Medzitým mi môžete napísať, čo má projekt riešiť, aký máte termín a rozpočet – špecialista tak začne pripravený.',
    ].join('\n');
  }

  if (!last || (isGreeting(last) && last.length < 40)) {
    const skills = s.skills.slice(0, 3).join(', ');
    return `${intro}\n\nS čím vám môžem pomôcť?${skills ? ` Najčastejšie riešim: **${skills}**.` : ''}`;
  }

  const topics = rankTopics(last, s);
  if (topics.length === 0) {
    const skill = s.skills[h % Math.max(1, s.skills.length)];
    return [
      intro,
      '',
      `K vašej otázke: „${last.length > 140 ? `${last.slice(0, 140)}…` : last}“`,
      '',
      `Aby bola rada presná, potrebujem vedieť tri veci:`,
      '- aký je **cieľ** (predaj, dopyty, povedomie),',
      '- kto je **cieľová skupina**,',
      '- aký máte **rozpočet a termín**.',
      '',
      skill ? `Potom navrhnem postup so zameraním na oblasť **${skill}**.` : CLOSERS[h % CLOSERS.length]!,
    ].join('\n');
  }

  const main = topics[0]!;
  const tips = [...main.tips, ...topics.slice(1).flatMap((t) => t.tips)].slice(0, 4);
  return [
    intro,
    '',
    `K téme **${main.title}** odporúčam:`,
    ...tips.map((t, i) => `${i + 1}. ${t}`),
    '',
    CLOSERS[h % CLOSERS.length]!,
  ].join('\n');
}

export const localProvider: ReplyProvider = {
  name: 'local',
  reply: async (req) => localReply(req),
};
