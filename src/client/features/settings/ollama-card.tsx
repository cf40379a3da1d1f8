import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useToast } from "../../components/toast";
import { getErrorMessage } from "../../lib/api-error";
import { useTRPC } from "../../lib/trpc";
import { Loading } from "./model-loading";
import { formatModelSize } from "./model-provider-form";

/** The local Ollama the server found at start (never used until someone saves one of its models). */
export function OllamaCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const detection = useQuery(trpc.modelProviders.ollama.queryOptions(undefined, { staleTime: 60_000 }));
  const again = useMutation(
    trpc.modelProviders.detectOllama.mutationOptions({
      retry: false,
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.modelProviders.ollama.queryKey(), next);
        if (next.status === "found")
          toast.success(
            `Found ${next.models.length} local Ollama ${next.models.length === 1 ? "model" : "models"}`,
          );
        else toast.info(next.message ?? "No local Ollama found");
      },
      onError: (err) => toast.error(getErrorMessage(err)),
    }),
  );
  const data = detection.data;
  if (data?.status === "disabled") return null;
  return (
    <section aria-labelledby="ollama-title" className="card border border-base-300 bg-base-200">
      <div className="card-body gap-3 p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="ollama-title" className="card-title text-lg">
            Local Ollama
          </h2>
          {data && (
            <span className={`badge ${data.status === "found" ? "badge-success" : "badge-ghost"}`}>
              {data.status === "found" ? "Found" : "Not found"}
            </span>
          )}
        </div>
        {detection.isPending ? (
          <Loading label="Looking for a local Ollama" />
        ) : detection.isError ? (
          <p role="alert" className="text-sm text-error">
            {getErrorMessage(detection.error)}
          </p>
        ) : (
          <>
            <p className="text-sm text-base-content/70">
              {detection.data.status === "found" && detection.data.models.length > 0
                ? `Ollama answers at ${detection.data.url} on the server. Pick one of its models in your model or the instance's to fill in the address and the model name; nothing is used until you save.`
                : detection.data.message}
            </p>
            {detection.data.models.length > 0 && (
              <ul className="flex flex-col gap-1 text-sm" aria-label="Models found in Ollama">
                {detection.data.models.map((m) => (
                  <li key={m.name} className="flex flex-wrap gap-x-3 rounded-box bg-base-100 px-3 py-1.5">
                    <span className="font-mono break-all">{m.name}</span>
                    <span className="text-base-content/60">
                      {[m.parameter_size, formatModelSize(m.size)].filter(Boolean).join(" · ")}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        <div>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => again.mutate()}
            disabled={again.isPending}
          >
            {again.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Look again
          </button>
        </div>
      </div>
    </section>
  );
}
