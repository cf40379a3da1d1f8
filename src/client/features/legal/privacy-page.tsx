import { Link } from "wouter";
import { usePublicConfig } from "../../lib/public-config";
import { LegalDocument, LegalSection, LegalSubheading } from "./legal-document";

/** The Privacy Policy (last updated August 3, 2025). */
export default function PrivacyPage() {
  const { supportEmail } = usePublicConfig();
  const mail = (
    <a href={`mailto:${supportEmail}`} className="link link-primary break-all">
      {supportEmail}
    </a>
  );

  return (
    <LegalDocument
      title="Privacy Policy"
      path="/privacy"
      description="How Atomize collects, uses, protects and retains your information, and the choices you have."
      intro={
        <>
          <p>
            This Privacy Policy explains what information Atomize ("Atomize", "we", "us") collects when you
            use the Atomize web application, website and blog (together, the "Service"), how we use it, who we
            share it with and the choices you have.
          </p>
          <p>
            We collect only what we need to run the Service, we do not sell your personal information, and we
            do not use advertising or cross-site tracking cookies.
          </p>
        </>
      }
    >
      <LegalSection id="privacy-collect" title="1. Information we collect">
        <LegalSubheading>Account information</LegalSubheading>
        <p>
          When you create an account we collect your e-mail address, your name if you provide it, and your
          password, which we store only as a salted one-way hash. If you sign in with Google or Apple, we
          receive the name, e-mail address and account identifier that the provider shares with us; we never
          see your password for that account. We also keep your role, plan and usage counts, such as the
          number of tasks created this month.
        </p>
        <LegalSubheading>Tasks and plans</LegalSubheading>
        <p>
          We store the project descriptions you submit and the context you add to them (application type, tech
          stack, GitHub repository, additional requirements), together with everything produced from them:
          subtasks, complexity scores, story points, epics, user stories, event models, and the edits you
          make.
        </p>
        <LegalSubheading>Integration credentials</LegalSubheading>
        <p>
          To export to JIRA, Confluence or Trello, or to read a GitHub repository, you give us credentials
          such as a JIRA site address, e-mail, API token and account ID, a Trello API key and token, or a
          GitHub access token. These credentials are encrypted at rest and are used only to carry out the
          actions you ask for. You can remove them at any time in Settings.
        </p>
        <LegalSubheading>Blog subscriptions</LegalSubheading>
        <p>
          If you subscribe to blog updates, we keep your e-mail address, your chosen frequency and when we
          last sent you an update.
        </p>
        <LegalSubheading>Technical information</LegalSubheading>
        <p>
          We use essential cookies to keep you signed in and to protect your session, and your browser's local
          storage to remember preferences such as the theme. Our servers record technical logs (IP address,
          browser type, pages requested, errors) to keep the Service secure and to fix problems.
        </p>
        <LegalSubheading>Messages you send us</LegalSubheading>
        <p>
          The contact form opens your own e-mail app; we receive your message as an ordinary e-mail, together
          with your name and e-mail address.
        </p>
      </LegalSection>

      <LegalSection id="privacy-ai" title="2. How AI output is produced">
        <p>
          When you submit a task, Atomize produces the decomposition in one of two ways: with its built-in
          offline planner, which runs entirely on the Atomize server, or with the AI model provider configured
          for the Service (a service compatible with the OpenAI API). When a model provider is used, your task
          description, the context you supplied and relevant details from a linked GitHub repository are sent
          to that provider to generate the result, and the provider processes them under its own terms and
          privacy policy.
        </p>
        <p>
          AI output can be incomplete, inaccurate or unsuitable for your project. Complexity scores and story
          points are estimates, not commitments. You must review the output before you rely on it, share it or
          export it.
        </p>
      </LegalSection>

      <LegalSection id="privacy-use" title="3. How we use your information">
        <ul>
          <li>
            To provide the Service: decomposing tasks, showing progress, storing your plans and exporting them
            where you ask.
          </li>
          <li>To sign you in, keep your session secure and protect the Service against abuse.</li>
          <li>To send the blog updates you subscribed to, and service messages about your account.</li>
          <li>To answer your questions and support requests.</li>
          <li>To understand how the Service performs and to fix problems.</li>
          <li>
            To improve our models: we may use anonymized data derived from tasks and decompositions, with
            names, e-mail addresses, credentials and other identifying details removed, to improve the planner
            and the prompts and models behind it. Integration credentials are never used for this.
          </li>
        </ul>
        <p>We do not sell your personal information and we do not use it for advertising.</p>
      </LegalSection>

      <LegalSection id="privacy-signin" title="4. Signing in with Google or Apple">
        <p>
          You can sign in with an e-mail address and password, or through OAuth with Google or Apple where
          these options are offered on the sign-in page. With OAuth, the provider confirms your identity and
          shares your basic profile (name, e-mail address and an account identifier) with us. Your use of that
          provider is governed by its own terms and privacy policy.
        </p>
      </LegalSection>

      <LegalSection id="privacy-third-parties" title="5. Third-party services">
        <p>We share information with other services only as needed to do what you ask:</p>
        <ul>
          <li>
            <strong>JIRA and Confluence</strong> (Atlassian): the task tree, epics, stories and documentation
            pages you export, using the credentials you provided.
          </li>
          <li>
            <strong>Trello</strong> (Atlassian): the boards, lists, cards, labels and checklists you export.
          </li>
          <li>
            <strong>GitHub</strong>: reading the repositories you link for context, and creating issues you
            export.
          </li>
          <li>
            <strong>The AI model provider</strong> configured for the Service, when one is used instead of the
            offline planner (see section 2).
          </li>
          <li>
            <strong>Google or Apple</strong>, when you choose to sign in with them.
          </li>
          <li>
            <strong>Our e-mail delivery provider</strong>, to send blog updates and account messages.
          </li>
        </ul>
        <p>
          Data you export becomes part of your account with that service and is governed by its policies. We
          may also disclose information when the law requires it, or to protect the rights, safety and
          security of our users and the Service.
        </p>
      </LegalSection>

      <LegalSection id="privacy-retention" title="6. How long we keep your data">
        <ul>
          <li>Account information: for as long as your account is open.</li>
          <li>
            Tasks and plans: until you delete them or close your account. Deleting a task also deletes its
            subtasks.
          </li>
          <li>
            Integration credentials: until you remove them in Settings, disconnect the service, or close your
            account.
          </li>
          <li>Blog subscriptions: until you unsubscribe or an administrator removes the subscription.</li>
          <li>Technical logs: only as long as needed for security and troubleshooting.</li>
        </ul>
        <p>
          When you close your account we delete your personal information, or anonymize it, within 30 days,
          unless we must keep it to meet a legal obligation.
        </p>
      </LegalSection>

      <LegalSection id="privacy-security" title="7. Security">
        <p>
          Passwords are stored as salted hashes, integration credentials are encrypted at rest, and your
          session is held in cookies that scripts on the page cannot read. No method of transmission or
          storage is completely secure, so we cannot guarantee absolute security, but we work to protect your
          information and to respond quickly if something goes wrong.
        </p>
      </LegalSection>

      <LegalSection id="privacy-rights" title="8. Your choices and rights">
        <p>Depending on where you live, you may have the right to:</p>
        <ul>
          <li>access the personal information we hold about you, and receive a copy of it;</li>
          <li>correct information that is inaccurate;</li>
          <li>delete your information or close your account;</li>
          <li>
            object to or restrict certain processing, including the use of anonymized data to improve our
            models.
          </li>
        </ul>
        <p>
          You can export your task trees at any time, remove integration credentials in Settings and
          unsubscribe from blog updates from the blog. For anything else, e-mail us at {mail} and we will
          respond within 30 days.
        </p>
      </LegalSection>

      <LegalSection id="privacy-children" title="9. Children">
        <p>
          You must be at least 13 years old to use Atomize. We do not knowingly collect personal information
          from children under 13. If you believe a child under 13 has given us personal information, contact
          us and we will delete it.
        </p>
      </LegalSection>

      <LegalSection id="privacy-changes" title="10. Changes to this policy">
        <p>
          We may update this policy as the Service changes. We will change the "Last updated" date above and,
          for significant changes, tell you by e-mail or with a notice in the Service before they take effect.
        </p>
      </LegalSection>

      <LegalSection id="privacy-contact" title="11. Contact us">
        <p>
          Questions about this policy or your data? E-mail us at {mail} or use our{" "}
          <Link href="/contact" className="link link-primary">
            contact form
          </Link>
          . See also our{" "}
          <Link href="/terms" className="link link-primary">
            Terms of Service
          </Link>
          .
        </p>
      </LegalSection>
    </LegalDocument>
  );
}
