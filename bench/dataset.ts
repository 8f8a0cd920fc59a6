// The benchmark data set as a pure plan (issue 9): one account with 200 conversations holding 20,000
// messages, one of them exactly 1,000 long (row 2), plus one chat of 10,000 messages (row 7). Same
// seed, same plan. Times run forward a minute per message from `start`, so order is unambiguous.
import { intBetween, mulberry32, uuidFrom, type Rng } from './prng.ts';

export interface PlannedConversation {
  id: string;
  /** Index into the planned specialists. */
  specialist: number;
  status: 'active' | 'completed';
  messages: number;
}

export interface DatasetPlan {
  seed: number;
  specialists: string[];
  conversations: PlannedConversation[];
  /** Index of the 1,000-message conversation and of the 10,000-message chat. */
  chat1k: number;
  chat10k: number;
}

export interface PlanOptions {
  conversations?: number;
  messages?: number;
  chat1kMessages?: number;
  bigChatMessages?: number;
}

const WORDS = ['kampaň', 'rozpočet', 'návrh', 'klient', 'termín', 'obsah', 'príspevok', 'reklama', 'analýza', 'web', 'značka', 'cieľ', 'výkon', 'publikum', 'video', 'text', 'plán', 'otázka', 'odpoveď', 'ďakujem', 'prosím', 'zajtra', 'dnes', 'týždeň', 'report', 'konverzia', 'leady', 'newsletter', 'SEO', 'PPC'];
const NAMES = ['Lucia Horváthová', 'Michal Tóth', 'Zuzana Bieliková', 'Peter Novák', 'Jana Kováčová', 'Martin Baláž', 'Eva Szabóová', 'Tomáš Varga', 'Katarína Šimková', 'Juraj Molnár'];

export function messageText(rng: Rng): string {
  const n = intBetween(rng, 3, 30);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(rng() * WORDS.length)]!);
  return words.join(' ').replace(/^./, (c) => c.toUpperCase()) + '.';
}

export function specialistName(i: number): string {
  return `${NAMES[i % NAMES.length]!}${i >= NAMES.length ? ` ${Math.floor(i / NAMES.length) + 1}` : ''}`;
}

export function planDataset(seed: number, opts: PlanOptions = {}): DatasetPlan {
  const total = opts.conversations ?? 200;
  const messages = opts.messages ?? 20_000;
  const chat1kMessages = opts.chat1kMessages ?? 1000;
  const rng = mulberry32(seed);
  // One specialist per active conversation (at most one active conversation per specialist) and a
  // pool of ten for the completed ones.
  const specialists = Array.from({ length: 12 }, () => uuidFrom(rng));
  const conversations: PlannedConversation[] = [];
  // The rest of the messages spread over the other conversations: random weights, then rounded so
  // the sum is exact.
  const others = total - 1;
  const weights = Array.from({ length: others }, () => 0.2 + rng());
  const sum = weights.reduce((a, b) => a + b, 0);
  const left = messages - chat1kMessages;
  const counts = weights.map((w) => Math.floor((w / sum) * left));
  let short = left - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; short > 0; i = (i + 1) % others, short--) counts[i]!++;
  conversations.push({ id: uuidFrom(rng), specialist: 0, status: 'active', messages: chat1kMessages });
  for (let i = 0; i < others; i++) conversations.push({ id: uuidFrom(rng), specialist: 2 + (i % 10), status: 'completed', messages: counts[i]! });
  conversations.push({ id: uuidFrom(rng), specialist: 1, status: 'active', messages: opts.bigChatMessages ?? 10_000 });
  return { seed, specialists, conversations, chat1k: 0, chat10k: conversations.length - 1 };
}
