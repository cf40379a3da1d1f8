import type { ReactNode } from "react";
import { usePageMeta } from "./use-page-meta";

export type PlaceholderPageProps = {
  title: string;
  path: string;
  /** Defaults to "The {title} page is coming soon." */
  sentence?: string;
  children?: ReactNode;
};

/** A page whose real content arrives with a later issue: its title and one sentence, nothing invented. */
export function PlaceholderPage({ title, path, sentence, children }: PlaceholderPageProps) {
  usePageMeta({ title, path });
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-base-content/80">{sentence ?? `The ${title} page is coming soon.`}</p>
      {children}
    </section>
  );
}
