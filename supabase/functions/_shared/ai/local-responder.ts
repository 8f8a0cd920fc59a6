// The built-in responder: used when no AI provider is configured, for demos and tests (issue 39).
// It never pretends to be an AI expert: every reply starts with one short line saying it is a demo
// answer because no AI provider is set. It answers thanks, greetings and off-topic messages briefly,
// introduces the specialist once per conversation (not when the specialist already wrote in it),
// gives practical tips for the marketing topics it recognises and points to the account's
// specialists whose field fits the question. It streams word by word like a provider (R13.6), so
// the streaming path is exercised without one. Deterministic for a given input.
// Grammar: names, roles and topic titles are never declined by a template: a name stands alone or
// in bold with the role in parentheses, topic titles after a dash or colon, both in the nominative.
import { detectTopics, normalize, type Topic } from './local-topics.ts';
import type { PlanSpecialist, ReplyProvider, ReplyRequest } from './types.ts';

export const DEMO_LINE = '_Ukážková odpoveď – v Poradni zatiaľ nie je nastavený poskytovateľ AI._';

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const CLOSERS = [
  'Napíšte mi, aký máte cieľ a termín, a odporúčania spresním.',
  'Ak mi pošlete viac detailov o cieľovej skupine, odporúčania spresním.',
  'Chcete, aby sme to rozpracovali do krokov na najbližšie dva týždne?',
];

const starts = (text: string, re: RegExp) => re.test(normalize(text).trim());
const isGreeting = (t: string) => t.length < 40 && starts(t, /^(ahoj|dobry den|dobry vecer|dobre rano|cau|zdravim|hello|hi|hey)\b/);
const isThanks = (t: string) => t.length < 80 && starts(t, /^(dakujem|dakujeme|vdaka|diky|dik|super|vyborne|thanks|thank you)\b/);
/** A message in English (the demo answers only in Slovak; a real provider answers in the user's language). */
const isEnglish = (t: string) =>
  /\b(the|can you|please|what|how|english|answer|help)\b/i.test(t) && !/[áäčďéíĺľňóôŕšťúýž]/i.test(t);

/** The request-specialist flow's message (user-area.md section 7), answered as passed on. */
const REQUEST_PREFIX = 'mam zaujem o vytvorenie projektu s ';

/** Topics of the message, those of the specialist's own field (role, skills, bio) first. */
function rankTopics(text: string, s: ReplyRequest['specialist']): Topic[] {
  const own = new Set(detectTopics([s.role ?? '', ...s.skills, s.bio ?? ''].join(' ')).map((t) => t.id));
  const found = detectTopics(text);
  return [...found.filter((t) => own.has(t.id)), ...found.filter((t) => !own.has(t.id))];
}

/** The account's other specialists whose role or skills cover one of the topics, at most two. */
function fitting(req: ReplyRequest, topics: Topic[]): PlanSpecialist[] {
  const wanted = new Set(topics.map((t) => t.id));
  return (req.planSpecialists ?? [])
    .filter((p) => p.name !== req.specialist.name)
    .filter((p) => detectTopics([p.role ?? '', ...p.skills].join(' ')).some((t) => wanted.has(t.id)))
    .slice(0, 2);
}

const who = (p: { name: string; role: string | null }) => `**${p.name}**${p.role ? ` (${p.role})` : ''}`;

function body(req: ReplyRequest, last: string, h: number): string[] {
  const s = req.specialist;
  if (normalize(last).startsWith(REQUEST_PREFIX)) {
    const name = last.slice(REQUEST_PREFIX.length).trim().replace(/[.!?]+$/, '');
    return [
      `Ďakujem, vašu žiadosť o spoluprácu sme odovzdali tímu.${name ? ` Špecialista: **${name}**.` : ''}`,
      '',
      'Ozveme sa vám v tejto konverzácii s ďalším postupom. Medzitým mi môžete napísať, čo má projekt riešiť, aký máte termín a rozpočet.',
    ];
  }
  if (isThanks(last)) return ['Rado sa stalo. Ak budete potrebovať ďalšiu radu, napíšte.'];
  if (!last || isGreeting(last)) {
    const skills = s.skills.slice(0, 3).join(', ');
    return [`Dobrý deň, s čím vám môžem pomôcť?${skills ? ` Najčastejšie riešim: ${skills}.` : ''}`];
  }
  if (isEnglish(last)) {
    return ['Ukážkové odpovede sú len po slovensky. Demo answers are in Slovak only; with an AI provider set up, the specialist answers in your language.'];
  }
  const topics = rankTopics(last, s);
  if (topics.length === 0) {
    return ['Na to vám ukážková odpoveď radu nedá. Napíšte mi, s čím v marketingu potrebujete pomôcť – napríklad kampane, sociálne siete, web alebo rozpočet.'];
  }
  const main = topics[0]!;
  const tips = [...main.tips, ...topics.slice(1).flatMap((t) => t.tips)].slice(0, 4);
  const others = fitting(req, topics);
  return [
    `Odporúčania – **${main.title}**:`,
    ...tips.map((t, i) => `${i + 1}. ${t}`),
    '',
    ...(others.length ? [`S touto témou vám pomôže aj: ${others.map(who).join(', ')}.`, ''] : []),
    CLOSERS[h % CLOSERS.length]!,
  ];
}

/** True when the specialist already wrote in the conversation (a reply or a welcome): no new intro. */
function introduced(req: ReplyRequest): boolean {
  return req.history.some((m) => (m.direction === 'specialist' || m.direction === 'ai') && m.text.trim() !== '');
}

export function localReply(req: ReplyRequest): string {
  const s = req.specialist;
  const last = [...req.history].reverse().find((m) => m.direction === 'user')?.text.trim() ?? '';
  const h = hash(`${s.id}:${last}`);
  const intro = introduced(req) ? [] : [`Som ${s.name}${s.role ? ` (${s.role})` : ''}.`];
  return [DEMO_LINE, '', ...intro, ...body(req, last, h)].join('\n');
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });

/** The built-in responder's pause before its first word, as a model's time to first token: the
 *  typing dots the user's send starts are on screen for a moment before the reply replaces them
 *  (without it the first word landed ~50 ms after the send, often before the send itself showed
 *  'sent', and the dots never appeared). R13.6. */
export const DEMO_THINK_MS = 600;

/** Streams localReply word by word, wordMs apart, after thinkMs. A continuation (req.continueFrom)
 *  yields only what follows the stored text (the reply is deterministic, so the stored text is its
 *  prefix), without the pause. */
export function localProvider(wordMs = 20, thinkMs = DEMO_THINK_MS): ReplyProvider {
  return {
    name: 'local',
    async *stream(req, signal) {
      const full = localReply(req);
      const from = req.continueFrom && full.startsWith(req.continueFrom) ? req.continueFrom.length : req.continueFrom ? full.length : 0;
      if (from === 0) await sleep(thinkMs, signal);
      for (const word of full.slice(from).match(/\s*\S+/g) ?? []) {
        if (signal.aborted) return;
        await sleep(wordMs, signal);
        if (signal.aborted) return;
        yield word;
      }
    },
  };
}
