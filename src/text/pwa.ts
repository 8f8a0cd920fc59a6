// Slovak texts of the installable app (service worker, storage).

/** Slovak count forms: 1, 2–4, 0 and 5+. */
function plural(n: number, one: string, few: string, many: string): string {
  if (n === 1) return one;
  return n >= 2 && n <= 4 ? few : many;
}

export const pwaText = {
  offlineReady: 'Poradňa je pripravená aj na prácu bez pripojenia.',
  /** The browser deleted the local database; the chats were pulled again. */
  restored: 'Prehliadač vymazal miestne údaje. Obnovili sme ich zo servera.',
  requeued: (n: number) =>
    `${n} ${plural(n, 'neodoslanú správu sme znovu zaradili', 'neodoslané správy sme znovu zaradili', 'neodoslaných správ sme znovu zaradili')} na odoslanie.`,
  lost: (n: number) =>
    `${n} ${plural(n, 'neodoslanú zmenu sa nepodarilo obnoviť', 'neodoslané zmeny sa nepodarilo obnoviť', 'neodoslaných zmien sa nepodarilo obnoviť')}.`,
} as const;
