import type { ReactNode } from "react";

/** The centred card the sign-in screens share. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <section className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center">
      <div className="card w-full max-w-md border border-base-300 bg-base-200 shadow-xl">
        <div className="card-body gap-4">
          <div>
            <h1 className="text-2xl font-bold">{title}</h1>
            {subtitle && <p className="mt-1 text-sm text-base-content/70">{subtitle}</p>}
          </div>
          {children}
        </div>
      </div>
    </section>
  );
}

export function OrDivider() {
  return <div className="divider my-0 text-xs text-base-content/60">OR</div>;
}
