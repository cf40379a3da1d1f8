import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc";

/** The person's teams (issue 41), for the dashboard's filter. */
export function useTeamsList() {
  const trpc = useTRPC();
  return useQuery(trpc.teams.list.queryOptions(undefined, { staleTime: 60_000 }));
}
