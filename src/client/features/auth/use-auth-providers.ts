import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc";

/** Which sign-in methods this server offers ({ google, devBypass }); read once per page load. */
export function useAuthProviders() {
  const trpc = useTRPC();
  return useQuery(trpc.auth.providers.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
}
