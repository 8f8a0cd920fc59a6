// A conversation row's preview: the last message as plain text (markdown marks and link addresses
// removed), so '**2,5 %**' reads '2,5 %'. Line breaks stay, one per run of them (issue 37: an
// address typed on three lines reads as three lines, as in the bubble); the row shows them with
// white-space: pre-line within its two-line clamp.
export function plainSnippet(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+\.\s+)/gm, '')
    .replace(/[*_~`|]+/g, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}
