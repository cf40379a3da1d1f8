import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { SOCIAL_LINKS, SUPPORT_EMAIL } from "./site";
import { useTRPC } from "./trpc";

export type SocialLink = { label: string; href: string };

export type PublicSiteConfig = {
  /** The installation's public origin (canonical URLs, structured data). */
  publicUrl: string;
  supportEmail: string;
  /** GitHub, X and LinkedIn, in that order. */
  socialLinks: SocialLink[];
};

const fallbackHref = (label: string) => SOCIAL_LINKS.find((link) => link.label === label)?.href ?? "";

/**
 * What the public pages show about this installation (`system.publicConfig`). Until the server answers
 * (or if it cannot), the build-time defaults from `site.ts` stand in, so nothing renders empty.
 */
export function usePublicConfig(): PublicSiteConfig {
  const trpc = useTRPC();
  const { data } = useQuery(
    trpc.system.publicConfig.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }),
  );
  return useMemo(() => {
    if (!data) {
      return { publicUrl: window.location.origin, supportEmail: SUPPORT_EMAIL, socialLinks: SOCIAL_LINKS };
    }
    return {
      publicUrl: data.publicUrl,
      supportEmail: data.supportEmail,
      socialLinks: [
        { label: "GitHub", href: data.social.github || fallbackHref("GitHub") },
        { label: "X", href: data.social.x || fallbackHref("X") },
        { label: "LinkedIn", href: data.social.linkedin || fallbackHref("LinkedIn") },
      ],
    };
  }, [data]);
}
