import { ConfirmModal } from "../../components/confirm-modal";
import type { ModelProviderApi } from "./use-model-provider";

/** Asks before a saved provider and its key are removed. */
export function RemoveProviderModal({ provider }: { provider: ModelProviderApi }) {
  const { instance } = provider;
  return (
    <ConfirmModal
      open={provider.confirmRemove}
      title={`Remove ${instance ? "the instance model" : "your model"}`}
      message={
        instance
          ? "Remove the instance's model and its key? Users without a model of their own then get outlines from their descriptions, without AI."
          : "Remove your model and its key? Your next tasks are planned by the instance's model, or outlined without AI if there is none."
      }
      confirmLabel="Remove"
      pending={provider.removing}
      onConfirm={() => void provider.onRemove()}
      onClose={() => provider.setConfirmRemove(false)}
    />
  );
}
