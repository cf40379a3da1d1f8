import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { Field } from "../../components/field";
import { useToast } from "../../components/toast";
import { usePageMeta } from "../../components/use-page-meta";
import { focusFirstError } from "../../lib/field-errors";
import { usePublicConfig } from "../../lib/public-config";
import {
  buildContactMailto,
  CONTACT_SUCCESS_MESSAGE,
  type ContactErrors,
  type ContactForm,
  contactFailureMessage,
  EMPTY_CONTACT_FORM,
  validateContactForm,
} from "./contact-message";

/** The fields' element ids, in the form's order. */
const FIELD_IDS: Record<keyof ContactForm, string> = {
  name: "contact-name",
  email: "contact-email",
  subject: "contact-subject",
  message: "contact-message",
};

/** Hands the prefilled message to the visitor's e-mail client; throws when the browser refuses. */
function openEmailClient(href: string): void {
  window.open(href, "_self");
}

/** A contact form that opens the visitor's e-mail client, plus a direct e-mail link. */
export default function ContactPage() {
  usePageMeta({
    title: "Contact",
    path: "/contact",
    description: "Questions, feedback or a bug to report? Get in touch with the Atomize team.",
  });
  const { supportEmail } = usePublicConfig();
  const toast = useToast();
  const [form, setForm] = useState<ContactForm>(EMPTY_CONTACT_FORM);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [sentHref, setSentHref] = useState<string | null>(null);

  const update = (field: keyof ContactForm) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    // A field's error clears as soon as the visitor edits it.
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateContactForm(form);
    setErrors(found);
    if (focusFirstError(found, FIELD_IDS)) return;
    const href = buildContactMailto(supportEmail, form);
    try {
      openEmailClient(href);
    } catch {
      toast.error(contactFailureMessage(supportEmail));
      return;
    }
    setForm(EMPTY_CONTACT_FORM);
    setSentHref(href);
    toast.success(CONTACT_SUCCESS_MESSAGE);
  };

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:py-16">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-extrabold tracking-tight">Contact Us</h1>
        <p className="mt-4 text-lg text-base-content/80">
          Questions, feedback, a feature you would like or a bug to report: we read every message.
        </p>
      </header>

      <div className="mt-10 grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section aria-labelledby="contact-form-heading" className="card border border-base-300 bg-base-200">
          <div className="card-body gap-5 p-5 sm:p-8">
            <div>
              <h2 id="contact-form-heading" className="text-xl font-bold">
                Send us a message
              </h2>
              <p className="mt-1 text-sm text-base-content/70">
                Sending opens your e-mail app with the message filled in, ready for you to send.
              </p>
            </div>
            <form noValidate onSubmit={onSubmit} className="space-y-4">
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  id="contact-name"
                  label="Name"
                  required
                  name="name"
                  autoComplete="name"
                  value={form.name}
                  error={errors.name}
                  onChange={(e) => update("name")(e.target.value)}
                />
                <Field
                  id="contact-email"
                  label="Email"
                  required
                  name="email"
                  type="email"
                  autoComplete="email"
                  value={form.email}
                  error={errors.email}
                  onChange={(e) => update("email")(e.target.value)}
                />
              </div>
              <Field
                id="contact-subject"
                label="Subject"
                hint="Optional"
                name="subject"
                value={form.subject}
                onChange={(e) => update("subject")(e.target.value)}
              />
              <Field
                as="textarea"
                id="contact-message"
                label="Message"
                required
                name="message"
                rows={6}
                value={form.message}
                error={errors.message}
                onChange={(e) => update("message")(e.target.value)}
              />
              <button type="submit" className="btn btn-primary w-full sm:w-auto">
                Send Message
              </button>
            </form>
            {sentHref && (
              <p role="status" className="text-sm text-base-content/75">
                Your e-mail app should now show the message, ready to send. If nothing opened,{" "}
                <a href={sentHref} className="link link-primary">
                  open the prefilled email
                </a>{" "}
                or write to us at{" "}
                <a href={`mailto:${supportEmail}`} className="link link-primary break-all">
                  {supportEmail}
                </a>
                .
              </p>
            )}
          </div>
        </section>

        <div className="space-y-6">
          <section aria-labelledby="contact-direct-heading" className="card border border-base-300">
            <div className="card-body gap-3">
              <h2 id="contact-direct-heading" className="text-xl font-bold">
                Email us directly
              </h2>
              <p className="text-base-content/80">Prefer your own e-mail app? Write to us at:</p>
              <a
                href={`mailto:${supportEmail}`}
                className="link link-primary text-lg font-semibold break-all"
              >
                {supportEmail}
              </a>
            </div>
          </section>
          <section aria-labelledby="contact-more-heading" className="card border border-base-300">
            <div className="card-body gap-3">
              <h2 id="contact-more-heading" className="text-xl font-bold">
                Before you write
              </h2>
              <ul className="list-disc space-y-2 pl-5 text-sm text-base-content/80">
                <li>
                  For a problem with a task or an export, include the task's title and what you expected to
                  happen.
                </li>
                <li>Never send passwords or API tokens by e-mail. We will never ask for them.</li>
                <li>
                  Read how we handle your data in our{" "}
                  <Link href="/privacy" className="link">
                    Privacy Policy
                  </Link>
                  .
                </li>
              </ul>
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}
