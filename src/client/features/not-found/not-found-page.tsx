import { Link } from "wouter";
import { usePageMeta } from "../../components/use-page-meta";

export const NOT_FOUND_TEXT =
  "The page you are looking for might have been removed, had its name changed, or is temporarily unavailable.";

/** The not-found page. */
export default function NotFoundPage() {
  usePageMeta({ title: "Page Not Found", path: "/404", noIndex: true });
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="mt-4 text-base-content/80">{NOT_FOUND_TEXT}</p>
      <Link href="/" className="btn btn-primary mt-8">
        Return to Dashboard
      </Link>
    </section>
  );
}
