import { useQuery } from "@tanstack/react-query";
import { useAuth } from "../../lib/auth";
import { useTRPC } from "../../lib/trpc";
import { InstanceSection } from "./instance-model-section";
import { LoadFailed, Loading } from "./model-loading";
import { OllamaCard } from "./ollama-card";
import { PlannerSummary } from "./planner-summary";
import { ProviderSection } from "./provider-section";

function MineSection() {
  const trpc = useTRPC();
  const mine = useQuery(trpc.modelProviders.mine.queryOptions());
  if (mine.isPending) return <Loading label="Loading your model" />;
  if (mine.isError) return <LoadFailed error={mine.error} onRetry={() => void mine.refetch()} />;
  return <ProviderSection scope="mine" view={mine.data} />;
}

/** Settings → AI model: who plans, your own model, the instance's (admins), and a local Ollama. */
export function AiModelTab() {
  const { isAdmin } = useAuth();
  return (
    <div className="flex flex-col gap-4">
      <PlannerSummary />
      <MineSection />
      {isAdmin && <InstanceSection />}
      <OllamaCard />
    </div>
  );
}
