import { Link } from "wouter";
import { usePublicConfig } from "../../lib/public-config";
import { LegalDocument, LegalSection } from "./legal-document";

/** The Terms of Service (last updated August 3, 2025). */
export default function TermsPage() {
  const { supportEmail } = usePublicConfig();
  const mail = (
    <a href={`mailto:${supportEmail}`} className="link link-primary break-all">
      {supportEmail}
    </a>
  );
  const privacy = (
    <Link href="/privacy" className="link link-primary">
      Privacy Policy
    </Link>
  );

  return (
    <LegalDocument
      title="Terms of Service"
      path="/terms"
      description="The terms that apply when you use Atomize, including your responsibilities for reviewing AI output."
      intro={
        <p>
          These Terms of Service ("Terms") govern your use of the Atomize web application, website and blog
          (the "Service"). By creating an account or using the Service you agree to these Terms and to our{" "}
          {privacy}. If you do not agree, please do not use the Service.
        </p>
      }
    >
      <LegalSection id="terms-eligibility" title="1. Who can use Atomize">
        <p>
          You must be at least 13 years old to use the Service. If you are under the age of majority where you
          live, you may use the Service only with the permission of a parent or guardian. If you use the
          Service on behalf of an organization, you confirm that you are authorized to accept these Terms for
          it.
        </p>
      </LegalSection>

      <LegalSection id="terms-account" title="2. Your account">
        <p>
          You can sign in with an e-mail address and password, or through OAuth with Google or Apple where
          these options are offered. Keep your credentials secure and tell us at once if you suspect
          unauthorized use of your account. You are responsible for what happens under your account and for
          keeping the information in it accurate.
        </p>
      </LegalSection>

      <LegalSection id="terms-service" title="3. The Service">
        <p>
          Atomize turns plain-language project descriptions into a tree of subtasks with complexity scores and
          story points, together with epics, user stories and an event model, and lets you edit the result and
          export it to other tools. Plans may include usage limits, such as a monthly number of tasks. We keep
          improving the Service, so features may be added, changed or removed over time.
        </p>
      </LegalSection>

      <LegalSection id="terms-ai" title="4. AI-generated output">
        <p>
          Decompositions are produced automatically, either by Atomize's built-in offline planner or by the AI
          model provider configured for the Service. Output can be incomplete, inaccurate or unsuitable for
          your project, and similar requests can give different results. Complexity scores and story points
          are estimates, not guarantees of effort, cost or delivery dates.
        </p>
        <p>
          You must review AI output before you rely on it, share it, export it or act on it, and you remain
          responsible for the decisions you make with it.
        </p>
      </LegalSection>

      <LegalSection id="terms-content" title="5. Your content">
        <p>
          You keep ownership of the descriptions and other content you submit, and of the plans created from
          them, to the extent the law allows. You give us a limited license to host, process, transmit and
          display that content only as needed to run the Service for you, including sending it to the model
          provider and to the services you export to. As explained in our {privacy}, we may use anonymized
          data to improve our models.
        </p>
        <p>
          You confirm that you have the right to submit your content, and that it does not include other
          people's personal information or confidential material unless you are allowed to share it.
        </p>
      </LegalSection>

      <LegalSection id="terms-acceptable-use" title="6. Acceptable use">
        <p>You agree not to:</p>
        <ul>
          <li>use the Service for anything unlawful, harmful or fraudulent;</li>
          <li>submit content that infringes the rights of others or that contains malware;</li>
          <li>
            try to access accounts or data that are not yours, or to probe, break or bypass our security;
          </li>
          <li>overload the Service, or access it by automated means other than the interfaces we provide;</li>
          <li>resell the Service or use it to build a competing product without our written permission.</li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-third-parties" title="7. Third-party services">
        <p>
          The Service works with services run by others, including JIRA and Confluence, Trello, GitHub, the AI
          model provider and the sign-in providers. When you connect one of them you authorize us to act on
          your behalf with the credentials you give us, only to do what you ask, such as creating projects,
          issues, boards or cards. Your use of those services is governed by their own terms. We are not
          responsible for their availability, their content or changes they make, and items we create in them
          on your behalf are yours to manage.
        </p>
      </LegalSection>

      <LegalSection id="terms-availability" title="8. Availability, suspension and termination">
        <p>
          We aim to keep the Service available, but it may sometimes be interrupted for maintenance, updates
          or reasons outside our control. You may stop using the Service at any time. We may suspend or close
          an account that breaks these Terms or puts the Service or other users at risk; where reasonable, we
          will tell you first and give you the chance to export your data.
        </p>
      </LegalSection>

      <LegalSection id="terms-disclaimer" title="9. Disclaimers">
        <p>
          The Service is provided "as is" and "as available". To the fullest extent permitted by law, we
          disclaim all warranties, express or implied, including warranties of merchantability, fitness for a
          particular purpose and non-infringement, and we do not warrant that AI output will be accurate,
          complete or fit for your purpose.
        </p>
      </LegalSection>

      <LegalSection id="terms-liability" title="10. Limitation of liability">
        <p>
          To the fullest extent permitted by law, Atomize is not liable for any indirect, incidental, special,
          consequential or punitive damages, or for lost profits, revenue, data or goodwill, arising from your
          use of the Service or of AI output. Our total liability for any claim relating to the Service is
          limited to the amount you paid us for the Service in the 12 months before the claim, or USD 50 if
          you paid nothing. Some jurisdictions do not allow these limits, so they may not apply to you.
        </p>
      </LegalSection>

      <LegalSection id="terms-changes" title="11. Changes to these Terms">
        <p>
          We may update these Terms as the Service changes. We will change the "Last updated" date above and,
          for significant changes, notify you by e-mail or in the Service before they take effect. If you keep
          using the Service after that, you accept the updated Terms.
        </p>
      </LegalSection>

      <LegalSection id="terms-contact" title="12. Contact us">
        <p>
          Questions about these Terms? E-mail us at {mail} or use our{" "}
          <Link href="/contact" className="link link-primary">
            contact form
          </Link>
          .
        </p>
      </LegalSection>
    </LegalDocument>
  );
}
