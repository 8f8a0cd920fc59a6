// The virtual list's guess of a message row's height before it is measured. The closer the guess,
// the less the list corrects offsets and the scroll position as rows mount (each correction
// recomputes the offsets of every row after it). Plain text only: cards, attachments and markdown
// blocks are measured like everything else, the guess just starts further off.
import type { LocalMessage } from '../../../sync/model/local-types.ts';

/** Row padding (py-1), bubble padding (py-2) and the time line under the bubble (mt-0.5 and 11 px text), as laid out. */
const ROW_CHROME_PX = 42;
const LINE_PX = 24;
/** Average width of a character of 16 px body text, word-wrap slack included (calibrated in Chromium). */
const CHAR_PX = 8.8;
/** Outside the text: the row's px-3 (24 px) before the 70 % cap, the bubble's px-3 (24 px) after it. */
const textWidth = (rowPx: number) => Math.max(80, (rowPx - 24) * 0.7 - 24);
const SYSTEM_ROW_PX = 34;

export function estimateRowPx(m: Pick<LocalMessage, 'text' | 'direction'> | undefined, rowPx: number): number {
  if (!m) return ROW_CHROME_PX + LINE_PX;
  if (m.direction === 'system') return SYSTEM_ROW_PX;
  const perLine = Math.max(1, Math.floor(textWidth(rowPx) / CHAR_PX));
  let lines = 0;
  for (let from = 0; from <= m.text.length; ) {
    const end = m.text.indexOf('\n', from);
    const to = end === -1 ? m.text.length : end;
    lines += Math.max(1, Math.ceil((to - from) / perLine));
    from = to + 1;
  }
  return Math.round(ROW_CHROME_PX + lines * LINE_PX);
}
