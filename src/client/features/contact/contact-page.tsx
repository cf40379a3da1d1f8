import { type FormEvent, useRef, useState } from "react";
import { Link } from "wouter";
import { TextField } from "../../components/form-controls";
import { useToast } from "../../components/toast";
import { usePageMeta } from "../../components/use-page-meta";
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

const FIELD_ORDER: (keyof ContactForm)[] = ["name", "email", "subject", "message"];

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
  const formRef = useRef<HTMLFormElement>(null);

  const update = (field: keyof ContactForm) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    // A field's error clears as soon as the visitor edits it.
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateContactForm(form);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((field) => found[field]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`#contact-${firstInvalid}`)?.focus();
      return;
    }
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
            <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-4">
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  id="contact-name"
                  label="Name"
                  name="name"
                  autoComplete="name"
                  aria-required="true"
                  value={form.name}
                  error={errors.name}
                  onChange={(e) => update("name")(e.target.value)}
                />
                <TextField
                  id="contact-email"
                  label="Email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  aria-required="true"
                  value={form.email}
                  error={errors.email}
                  onChange={(e) => update("email")(e.target.value)}
                />
              </div>
              <TextField
                id="contact-subject"
                label="Subject"
                name="subject"
                hint="Optional"
                value={form.subject}
                onChange={(e) => update("subject")(e.target.value)}
              />
              <div>
                <label htmlFor="contact-message" className="mb-1 block text-sm font-medium">
                  Message
                </label>
                <textarea
                  id="contact-message"
                  name="message"
                  rows={6}
                  aria-required="true"
                  className={`textarea w-full ${errors.message ? "textarea-error" : ""}`}
                  aria-invalid={errors.message ? true : undefined}
                  aria-describedby={errors.message ? "contact-message-error" : undefined}
                  value={form.message}
                  onChange={(e) => update("message")(e.target.value)}
                />
                {errors.message && (
                  <p id="contact-message-error" className="mt-1 text-sm text-error">
                    {errors.message}
                  </p>
                )}
              </div>
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
