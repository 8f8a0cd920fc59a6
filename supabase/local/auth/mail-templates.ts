// The Slovak mails the auth service sends. Each carries the absolute link on its own line (the dev
// mailbox and mail clients pick links out of plain text). The 6-digit code for verifyOtp is offered
// only where a screen takes it (issue 37 user item 9): magic-link, sign-up and welcome (invitation)
// mails, whose codes the login's 'Mám kód z e-mailu' redeems with type 'email'; the reauthentication
// mail is a code only (updateUser's nonce). Recovery and e-mail-change mails offer just their link.
import type { LinkType } from './one-time-tokens.ts';

interface Template {
  subject: string;
  intro: string;
  action: string;
  /** The mail offers its 6-digit code next to the link (a screen of the app takes it). */
  code?: boolean;
  /** Said before the link: what opening it does when the reader did not ask for this mail. */
  warning?: string;
}

const TEMPLATES: Record<LinkType, Template> = {
  magiclink: {
    subject: 'Prihlásenie do Poradne',
    intro: 'dostali sme žiadosť o prihlásenie do Poradne pomocou e-mailového odkazu.',
    action: 'Prihlásiš sa kliknutím na tento odkaz:',
    code: true,
  },
  recovery: {
    subject: 'Obnovenie hesla v Poradni',
    intro: 'dostali sme žiadosť o obnovenie hesla k tvojmu účtu v Poradni.',
    action: 'Nové heslo si nastavíš po kliknutí na tento odkaz:',
  },
  // Opening this link confirms the account with the password typed at sign-up, as on hosted GoTrue
  // (verify.go signupVerify keeps it): whoever signed up may not be the mailbox's owner (SECURITY.md,
  // issue 36 N8), so the mail says so before the link.
  signup: {
    subject: 'Potvrdenie registrácie v Poradni',
    intro: 's touto e-mailovou adresou sa niekto zaregistroval v Poradni a zvolil si pri tom heslo.',
    warning:
      'Ak si sa neregistroval ty, na odkaz neklikaj a kód nikam nezadávaj: potvrdil by si účet s heslom, ktoré pozná niekto iný.',
    action: 'Ak si to bol ty, svoju e-mailovú adresu potvrdíš kliknutím na tento odkaz:',
    code: true,
  },
  invite: {
    subject: 'Pozvánka do Poradne',
    intro: 'bol si pozvaný do Poradne.',
    action: 'Pozvánku prijmeš kliknutím na tento odkaz:',
    code: true,
  },
  email_change: {
    subject: 'Potvrdenie zmeny e-mailu v Poradni',
    intro: 'dostali sme žiadosť o zmenu e-mailovej adresy tvojho účtu v Poradni na túto adresu.',
    action: 'Zmenu potvrdíš kliknutím na tento odkaz:',
  },
  email_change_current: {
    subject: 'Zmena e-mailu v Poradni',
    intro:
      'dostali sme žiadosť o zmenu e-mailovej adresy tvojho účtu v Poradni z tejto adresy na inú. ' +
      'Zmena prebehne, až keď ju potvrdíš tu aj na novej adrese.',
    action: 'Ak o zmenu žiadaš ty, potvrdíš ju kliknutím na tento odkaz:',
  },
  reauthentication: {
    subject: 'Overovací kód pre Poradňu',
    intro: 'na zmenu hesla v Poradni potrebujeme overiť, že si to ty.',
    action: '',
  },
};

/** Tells the old address that the account's e-mail changed (GoTrue's email_changed notification). */
export function renderEmailChangedNotice(newEmail: string): { subject: string; text: string } {
  return {
    subject: 'E-mailová adresa v Poradni bola zmenená',
    text: [
      'Ahoj,',
      '',
      `e-mailová adresa tvojho účtu v Poradni bola zmenená na ${newEmail}.`,
      'Ak si to nebol ty, okamžite nás kontaktuj.',
      '',
      'Tím Poradne',
    ].join('\n'),
  };
}

/** Where the code goes: the login screen's 'Mám kód z e-mailu'. */
const codeLine = (code: string) => `Alebo pri prihlásení zvoľ „Mám kód z e-mailu“ a zadaj tento kód: ${code}`;

export function renderMail(type: LinkType, link: string, code: string): { subject: string; text: string } {
  const t = TEMPLATES[type];
  // The reauthentication nonce is a code only: it has no link to open.
  const withLink = t.action !== '';
  const text = [
    'Ahoj,',
    '',
    t.intro,
    ...(t.warning ? [t.warning] : []),
    ...(!withLink ? ['', `Tvoj kód: ${code}`] : t.code ? [t.action, '', link, '', codeLine(code)] : [t.action, '', link]),
    '',
    !withLink ? 'Kód platí 1 hodinu a dá sa použiť iba raz.' : t.code ? 'Odkaz aj kód platia 1 hodinu a dajú sa použiť iba raz.' : 'Odkaz platí 1 hodinu a dá sa použiť iba raz.',
    'Ak si o nič nežiadal, tento e-mail pokojne ignoruj.',
    '',
    'Tím Poradne',
  ].join('\n');
  return { subject: t.subject, text };
}

/**
 * The registration mail (issue 21 item 11): sent instead of the invitation when the invite carries
 * user_metadata poradna_mail = 'welcome' (the auth-link function). A welcome and a set-your-password
 * link, not a password reset; the link confirms the address and opens /auth/reset-password.
 */
export function renderWelcomeMail(link: string, code: string): { subject: string; text: string } {
  const text = [
    'Ahoj,',
    '',
    'vitaj v Poradni! Tvoj účet je pripravený, chýba už len heslo.',
    'Heslo si nastavíš kliknutím na tento odkaz:',
    '',
    link,
    '',
    codeLine(code),
    '',
    'Odkaz aj kód platia 1 hodinu a dajú sa použiť iba raz.',
    'Ak si sa v Poradni neregistroval, tento e-mail pokojne ignoruj.',
    '',
    'Tím Poradne',
  ].join('\n');
  return { subject: 'Vitaj v Poradni – nastav si heslo', text };
}
