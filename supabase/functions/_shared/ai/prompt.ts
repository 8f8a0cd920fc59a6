// The system prompt and message list for an OpenAI-compatible chat-completions call.
import type { ReplyRequest } from './types.ts';

export const HISTORY_LIMIT = 20;

export function systemPrompt({ specialist: s }: ReplyRequest): string {
  const lines = [
    `Si ${s.name}${s.role ? `, ${s.role}` : ''}${s.seniority ? ` (${s.seniority})` : ''} v službe Poradňa.`,
    s.bio ? `O tebe: ${s.bio}` : '',
    s.skills.length ? `Tvoje zručnosti: ${s.skills.join(', ')}.` : '',
    'Odpovedaj vždy po slovensky, vecne a prakticky, ako skúsený odborník svojmu klientovi z marketingového tímu.',
    'Používaj stručný markdown (odrážky, tučné písmo), nanajvýš približne 200 slov. Ak ti chýbajú informácie, polož jednu doplňujúcu otázku.',
  ];
  return lines.filter(Boolean).join('\n');
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export function chatMessages(req: ReplyRequest): ChatMessage[] {
  const history = req.history.slice(-HISTORY_LIMIT).flatMap((m): ChatMessage[] => {
    if (!m.text.trim()) return [];
    if (m.direction === 'user') return [{ role: 'user', content: m.text }];
    if (m.direction === 'system') return [];
    return [{ role: 'assistant', content: m.text }];
  });
  return [{ role: 'system', content: systemPrompt(req) }, ...history];
}
