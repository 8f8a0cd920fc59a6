// A message's time in the bubble: 'HH:mm' today, else a short Slovak date with the time ('d. M.
// HH:mm'), in local time. Written by hand rather than with date-fns' format: a chat scrolled through
// thousands of messages formats one per mounted bubble, and the tokens are numeric (no locale text),
// so the answer is the same string date-fns gives (the unit test compares the two).
const pad = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

export function messageTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const today = date.getDate() === now.getDate() && date.getMonth() === now.getMonth() && date.getFullYear() === now.getFullYear();
  return today ? time : `${date.getDate()}. ${date.getMonth() + 1}. ${time}`;
}

/** 'HH:mm' in local time: a bubble's time once the list's day separators say the day (issue 40). */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
