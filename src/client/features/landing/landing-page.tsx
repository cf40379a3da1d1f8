import { usePageMeta } from "../../components/use-page-meta";
import { PRODUCT_DESCRIPTION, PRODUCT_NAME, SOCIAL_LINKS, SUPPORT_EMAIL } from "../../lib/site";

/** Placeholder until the landing issue: the product name and what it does. */
export default function LandingPage() {
  usePageMeta({
    title: "Home",
    path: "/",
    description: `${PRODUCT_NAME}: ${PRODUCT_DESCRIPTION}.`,
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: PRODUCT_NAME,
      url: window.location.origin,
      email: SUPPORT_EMAIL,
      description: PRODUCT_DESCRIPTION,
      sameAs: SOCIAL_LINKS.map((s) => s.href),
    },
  });
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-16 text-center">
      <h1 className="text-4xl font-bold">{PRODUCT_NAME}</h1>
      <p className="mt-4 text-lg text-base-content/80">{PRODUCT_DESCRIPTION}.</p>
    </section>
  );
}
