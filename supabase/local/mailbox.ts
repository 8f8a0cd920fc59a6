// Every mail the stack sends: kept in memory for /_dev/mail (newest first) and sent by SMTP when
// SMTP_URL is set. Invariant: a mail is recorded before delivery is attempted, so a failing SMTP
// server never hides a link from the developer.
import { createTransport, type Transporter } from 'nodemailer';

export interface Mail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  sent_at: string;
}

export interface Mailer {
  send(mail: { to: string; subject: string; text: string; html?: string }): Promise<Mail>;
  list(): Mail[];
}

const LINK_RE = /https?:\/\/[^\s"'<>]+/g;
const MAX_KEPT = 500;

export function createMailer(smtp: { url: string; from: string } | undefined, log: (l: string) => void): Mailer {
  const box: Mail[] = [];
  let seq = 0;
  const transport: Transporter | undefined = smtp ? createTransport(smtp.url) : undefined;
  return {
    async send({ to, subject, text, html }) {
      const mail: Mail = {
        id: ++seq,
        to,
        subject,
        text,
        html: html ?? '',
        links: [...new Set(text.match(LINK_RE) ?? [])],
        sent_at: new Date().toISOString(),
      };
      box.unshift(mail);
      if (box.length > MAX_KEPT) box.pop();
      if (transport && smtp) {
        try {
          await transport.sendMail({ from: smtp.from, to, subject, text, ...(html ? { html } : {}) });
        } catch (err) {
          log(`smtp: could not send to ${to}: ${(err as Error).message}`);
        }
      }
      return mail;
    },
    list: () => box.slice(),
  };
}
