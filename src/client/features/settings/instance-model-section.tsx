import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc";
import { LoadFailed, Loading } from "./model-loading";
import { ProviderSection } from "./provider-section";

/** Admins: the instance's model, read-only when the server's environment sets it. */
export function InstanceSection() {
  const trpc = useTRPC();
  const instance = useQuery(trpc.modelProviders.instance.queryOptions());
  if (instance.isPending) return <Loading label="Loading the instance model" />;
  if (instance.isError) return <LoadFailed error={instance.error} onRetry={() => void instance.refetch()} />;
  return <ProviderSection scope="instance" view={instance.data} environment={instance.data.environment} />;
}
