import { INVALID_EMAIL_MESSAGE, isEmailAddress } from "../../../shared/email-address";

/** Contact form: name, email, subject, message. */
export type ContactForm = { name: string; email: string; subject: string; message: string };

export type ContactErrors = Partial<Record<keyof ContactForm, string>>;

export const EMPTY_CONTACT_FORM: ContactForm = { name: "", email: "", subject: "", message: "" };

/** The e-mail subject when the visitor leaves Subject blank. */
export const DEFAULT_CONTACT_SUBJECT = "Contact Form Submission";

export const CONTACT_SUCCESS_MESSAGE = "Email client opened with your message!";
export const contactFailureMessage = (email: string) =>
  `Unable to open email client. Please email us directly at ${email}`;

/** Name, email and message required, the e-mail well formed (the shared rule); subject optional. */
export function validateContactForm(form: ContactForm): ContactErrors {
  const errors: ContactErrors = {};
  if (!form.name.trim()) errors.name = "Please enter your name";
  const email = form.email.trim();
  if (!email) errors.email = "Please enter your email address";
  else if (!isEmailAddress(email)) errors.email = INVALID_EMAIL_MESSAGE;
  if (!form.message.trim()) errors.message = "Please enter a message";
  return errors;
}

/** The prefilled `mailto:` link; subject and body are URL-encoded, lines end in CRLF (RFC 6068). */
export function buildContactMailto(to: string, form: ContactForm): string {
  const subject = form.subject.trim() || DEFAULT_CONTACT_SUBJECT;
  const body = [`Name: ${form.name.trim()}`, `Email: ${form.email.trim()}`, "", form.message.trim()].join(
    "\r\n",
  );
  return `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
