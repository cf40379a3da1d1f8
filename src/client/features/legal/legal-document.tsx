import type { ReactNode } from "react";
import { useLocation } from "wouter";
import { usePageMeta } from "../../components/use-page-meta";

/** Both legal documents carry this date. */
export const LEGAL_LAST_UPDATED = "August 3, 2025";

/**
 * Whether there is an earlier page of this site to go back to. The Navigation API knows exactly (it ignores
 * a blank first entry and other sites); without it, any earlier history entry counts.
 */
function canGoBack(): boolean {
  const navigation = (window as { navigation?: Navigation }).navigation;
  return navigation ? navigation.canGoBack : window.history.length > 1;
}

/** Goes back one step in history; a page opened directly (nothing to go back to) goes home instead. */
function GoBackButton() {
  const [, navigate] = useLocation();
  const goBack = () => {
    if (canGoBack()) window.history.back();
    else navigate("/");
  };
  return (
    <button type="button" className="btn btn-ghost btn-sm -ml-3 gap-1" onClick={goBack}>
      <span aria-hidden="true">←</span>
      Go Back
    </button>
  );
}

/** The shared frame of the Privacy Policy and the Terms of Service. */
export function LegalDocument({
  title,
  path,
  description,
  intro,
  children,
}: {
  title: string;
  path: string;
  description: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  usePageMeta({ title, path, description });
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:py-14">
      <GoBackButton />
      <header className="mt-4 border-b border-base-300 pb-6">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-base-content/70">Last updated {LEGAL_LAST_UPDATED}</p>
        <div className="mt-5 space-y-3 leading-relaxed text-base-content/85">{intro}</div>
      </header>
      <div className="mt-8 space-y-10">{children}</div>
    </article>
  );
}

/** One numbered section of a legal document. */
export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      <div className="mt-3 space-y-3 leading-relaxed text-base-content/85 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
        {children}
      </div>
    </section>
  );
}

/** A sub-heading inside a section. */
export function LegalSubheading({ children }: { children: ReactNode }) {
  return <h3 className="pt-2 font-semibold text-base-content">{children}</h3>;
}
