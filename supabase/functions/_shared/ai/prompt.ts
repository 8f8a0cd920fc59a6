// The system prompt and message list for an OpenAI-compatible chat-completions call: the
// specialist's persona (name, role, seniority, bio, skills), the instruction to answer in the user's
// language (Slovak unless the user writes in another), and the newest history that fits the budget.
import type { ReplyRequest } from './types.ts';

/** Most messages the worker loads for a prompt (process-job.ts). */
export const HISTORY_LIMIT = 40;
/** A prompt's whole JSON body stays under this many bytes (issue 39: ≤ 100 KB per prompt); the
 *  oldest history goes first, the message being answered always stays (cut to fit if it must). */
export const PROMPT_BUDGET_BYTES = 100_000;
/** Asked after the text already written when a reply continues (ReplyRequest.continueFrom). */
export const CONTINUE_INSTRUCTION =
  'Tvoja predchádzajúca odpoveď bola prerušená. Pokračuj presne od miesta, kde skončila, bez opakovania už napísaného textu a bez úvodu.';

export function systemPrompt({ specialist: s }: ReplyRequest): string {
  const lines = [
    `Si ${s.name}${s.role ? `, ${s.role}` : ''}${s.seniority ? ` (${s.seniority})` : ''} v službe Poradňa.`,
    s.bio ? `O tebe: ${s.bio}` : '',
    s.skills.length ? `Tvoje zručnosti: ${s.skills.join(', ')}.` : '',
    'Odpovedaj v jazyku, ktorým píše používateľ; ak nie je jasný, po slovensky. Vecne a prakticky, ako skúsený odborník svojmu klientovi z marketingového tímu.',
    'Používaj stručný markdown (odrážky, tučné písmo), nanajvýš približne 200 slov. Ak ti chýbajú informácie, polož jednu doplňujúcu otázku.',
    'Na poďakovanie alebo pozdrav odpovedz krátko, jednou vetou. Nepredstavuj sa znova, ak si sa už v konverzácii predstavil.',
  ];
  return lines.filter(Boolean).join('\n');
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const bytes = (s: string) => new TextEncoder().encode(s).length;
/** JSON overhead of one message object beyond its content (role, keys, quotes, escapes margin). */
const PER_MESSAGE_BYTES = 64;

export function chatMessages(req: ReplyRequest, budget = PROMPT_BUDGET_BYTES): ChatMessage[] {
  const all = req.history.slice(-HISTORY_LIMIT).flatMap((m): ChatMessage[] => {
    if (!m.text.trim() || m.direction === 'system') return [];
    return [{ role: m.direction === 'user' ? 'user' : 'assistant', content: m.text }];
  });
  const system: ChatMessage = { role: 'system', content: systemPrompt(req) };
  const tail: ChatMessage[] = req.continueFrom
    ? [{ role: 'assistant', content: req.continueFrom }, { role: 'user', content: CONTINUE_INSTRUCTION }]
    : [];
  // 1.2: JSON escaping of quotes, newlines and control characters makes content a little longer.
  const size = (m: ChatMessage) => Math.ceil(bytes(m.content) * 1.2) + PER_MESSAGE_BYTES;
  let left = budget - 512 - [system, ...tail].reduce((n, m) => n + size(m), 0);
  const kept: ChatMessage[] = [];
  for (let i = all.length - 1; i >= 0; i--) {
    const m = all[i]!;
    if (size(m) <= left) {
      kept.unshift(m);
      left -= size(m);
    } else {
      // The newest message is what is being answered: cut it rather than send nothing.
      if (kept.length === 0 && left > PER_MESSAGE_BYTES) kept.unshift({ ...m, content: cutToBytes(m.content, Math.floor((left - PER_MESSAGE_BYTES) / 1.2)) });
      break;
    }
  }
  return [system, ...kept, ...tail];
}

function cutToBytes(text: string, max: number): string {
  let out = '';
  let n = 0;
  for (const ch of text) {
    n += bytes(ch);
    if (n > max) break;
    out += ch;
  }
  return out;
}
