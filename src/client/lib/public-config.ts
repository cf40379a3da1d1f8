import { createContext, createElement, type ReactNode, useContext, useEffect, useState } from "react";
import type { PublicConfigAnswer } from "../../shared/page-bootstrap";
import { SOCIAL_LINKS, SUPPORT_EMAIL } from "./site";

export type SocialLink = { label: string; href: string };

export type PublicSiteConfig = {
  /** The installation's public origin (canonical URLs, structured data). */
  publicUrl: string;
  supportEmail: string;
  /** GitHub, X and LinkedIn, in that order. */
  socialLinks: SocialLink[];
};

const fallbackHref = (label: string) => SOCIAL_LINKS.find((link) => link.label === label)?.href ?? "";

/** The build-time defaults from `site.ts`, for a page the server did not describe (the dev server's). */
export function defaultPublicConfig(origin: string): PublicSiteConfig {
  return { publicUrl: origin, supportEmail: SUPPORT_EMAIL, socialLinks: SOCIAL_LINKS };
}

/** The installation's settings (`system.publicConfig`'s answer) as the public pages show them. */
export function toPublicSiteConfig(data: PublicConfigAnswer): PublicSiteConfig {
  return {
    publicUrl: data.publicUrl,
    supportEmail: data.supportEmail,
    socialLinks: [
      { label: "GitHub", href: data.social.github || fallbackHref("GitHub") },
      { label: "X", href: data.social.x || fallbackHref("X") },
      { label: "LinkedIn", href: data.social.linkedin || fallbackHref("LinkedIn") },
    ],
  };
}

const PublicConfigContext = createContext<PublicSiteConfig | null>(null);

/** `system.publicConfig` over plain HTTP (the tRPC wire format of a query without input). */
async function fetchPublicConfig(): Promise<PublicSiteConfig> {
  const res = await fetch("/trpc/system.publicConfig", { credentials: "same-origin" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = (await res.json()) as { result: { data: { json: PublicConfigAnswer } } };
  return toPublicSiteConfig(body.result.data.json);
}

/**
 * Provides the public settings: the server's (rendered into the page, or given to the server renderer),
 * else the build-time defaults while the dev server's page asks the API once.
 */
export function PublicConfigProvider({
  config,
  children,
}: {
  /** The server's settings (the server renderer's, or the page's data block); none on the dev server. */
  config: PublicConfigAnswer | null;
  children: ReactNode;
}) {
  const [value, setValue] = useState<PublicSiteConfig>(() =>
    config ? toPublicSiteConfig(config) : defaultPublicConfig(window.location.origin),
  );
  const known = config !== null;
  useEffect(() => {
    if (known) return;
    let cancelled = false;
    fetchPublicConfig().then(
      (next) => !cancelled && setValue(next),
      () => undefined, // the defaults stand in
    );
    return () => {
      cancelled = true;
    };
  }, [known]);
  return createElement(PublicConfigContext.Provider, { value }, children);
}

/** What the public pages show about this installation: support address, social links, public URL. */
export function usePublicConfig(): PublicSiteConfig {
  const value = useContext(PublicConfigContext);
  if (!value) throw new Error("usePublicConfig must be used inside <PublicConfigProvider>");
  return value;
}
