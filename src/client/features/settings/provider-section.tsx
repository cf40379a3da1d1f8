import type { InstanceModelProviderView, ModelProviderView } from "../../../shared/schemas/model-providers";
import { TestResult } from "./connection-test-result";
import { ProviderFields } from "./provider-fields";
import { ProviderSummary } from "./provider-summary";
import { RemoveProviderModal } from "./remove-provider-modal";
import { type Scope, useModelProvider } from "./use-model-provider";

/** One provider's form: the caller's own, or (admins) the instance's. */
export function ProviderSection({
  scope,
  view,
  environment,
}: {
  scope: Scope;
  view: ModelProviderView;
  environment?: InstanceModelProviderView["environment"];
}) {
  const provider = useModelProvider(scope, view, environment);
  const { prefix, readOnly, busy, testing, saving } = provider;

  return (
    <section aria-labelledby={`${prefix}-title`} className="card border border-base-300 bg-base-200">
      <div className="card-body gap-4 p-4 sm:p-6">
        <ProviderSummary provider={provider} />

        <form noValidate onSubmit={provider.onSave} className="flex flex-col gap-3" aria-busy={busy}>
          <ProviderFields provider={provider} />

          <TestResult result={provider.result} id={`${prefix}-test-result`} />

          {!readOnly && (
            <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
              {view.configured && (
                <button
                  type="button"
                  className="btn btn-outline btn-error sm:mr-auto"
                  onClick={() => provider.setConfirmRemove(true)}
                  disabled={busy}
                >
                  Remove
                </button>
              )}
              <button type="button" className="btn" onClick={() => void provider.onTest()} disabled={busy}>
                {testing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                {testing ? "Testing..." : "Test connection"}
              </button>
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {saving && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                {saving ? "Saving..." : "Save"}
              </button>
            </div>
          )}
        </form>
      </div>

      <RemoveProviderModal provider={provider} />
    </section>
  );
}
