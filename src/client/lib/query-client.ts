import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { isClientError } from "./api-error";

/** Query defaults: freshness 60 s, cache 5 min, no focus refetch, retries 3/2 but none after a 4xx. */
const MAX_QUERY_RETRIES = 3;
const MAX_MUTATION_RETRIES = 2;

function logFailure(kind: "query" | "mutation", key: unknown, error: unknown): void {
  // Failed queries and mutations in the shared cache are only logged.
  const log = isClientError(error) ? console.warn : console.error;
  log(`[atomize] ${kind} failed`, key, error);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => logFailure("query", query.queryKey, error) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => logFailure("mutation", mutation.options.mutationKey, error),
    }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 5 * 60_000,
        refetchOnWindowFocus: false,
        refetchOnReconnect: true,
        retry: (failures, error) => !isClientError(error) && failures < MAX_QUERY_RETRIES,
      },
      mutations: {
        retry: (failures, error) => !isClientError(error) && failures < MAX_MUTATION_RETRIES,
      },
    },
  });
}
