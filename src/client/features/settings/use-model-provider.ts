import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import type {
  ConnectionTestResult,
  InstanceModelProviderView,
  ModelProviderInput,
  ModelProviderView,
} from "../../../shared/schemas/model-providers";
import { useToast } from "../../components/toast";
import { errorDetailOf, getErrorMessage } from "../../lib/api-error";
import { focusFirstError, serverFieldErrors } from "../../lib/field-errors";
import { useTRPC, useTRPCClient } from "../../lib/trpc";
import {
  formFromView,
  PROVIDER_FIELDS,
  type ProviderErrors,
  type ProviderForm,
  providerFieldIds,
  providerPayload,
  shownProviderForm,
  validateProviderForm,
} from "./model-provider-form";

export type Scope = "mine" | "instance";

/** One provider's form, its checks, and Save, Test connection and Remove: the caller's own, or the instance's. */
export function useModelProvider(
  scope: Scope,
  view: ModelProviderView,
  environment?: InstanceModelProviderView["environment"],
) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const prefix = `${scope}-model`;
  const instance = scope === "instance";
  const readOnly = instance && Boolean(environment);
  const ollama = useQuery(trpc.modelProviders.ollama.queryOptions(undefined, { staleTime: 60_000 }));

  const [form, setForm] = useState<ProviderForm>(() => formFromView(view));
  const [errors, setErrors] = useState<ProviderErrors>({});
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  // A saved provider (another tab, a removal) resets the form to what the server holds.
  useEffect(() => {
    setForm(formFromView(view));
  }, [view]);

  const api = useTRPCClient().modelProviders;
  const save = useMutation({
    mutationFn: (input: ModelProviderInput): Promise<ModelProviderView> =>
      instance ? api.saveInstance.mutate(input) : api.saveMine.mutate(input),
    retry: false,
  });
  const remove = useMutation({
    mutationFn: (): Promise<ModelProviderView> =>
      instance ? api.removeInstance.mutate() : api.removeMine.mutate(),
    retry: false,
  });
  const test = useMutation({
    mutationFn: (input: ModelProviderInput) =>
      instance ? api.testInstance.mutate(input) : api.testMine.mutate(input),
    retry: false,
  });
  const busy = save.isPending || remove.isPending || test.isPending;
  const viewKey = (instance ? trpc.modelProviders.instance : trpc.modelProviders.mine).queryKey();

  const stored = (next: ModelProviderView) => {
    queryClient.setQueryData(viewKey, next);
    void queryClient.invalidateQueries({ queryKey: trpc.modelProviders.plannerForMe.queryKey() });
  };

  const set = (field: keyof ProviderForm, value: string | boolean) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (field in errors) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const pickOllama = (baseUrl: string, model: string) => {
    setForm((f) => ({ ...f, baseUrl, model }));
    setErrors({});
    setResult(null);
  };

  const setRemoveKey = (removeKey: boolean) => {
    setForm((f) => ({ ...f, removeKey, apiKey: "" }));
  };

  const fieldIds = providerFieldIds(prefix);
  const showErrors = (next: ProviderErrors): boolean => {
    setErrors(next);
    return focusFirstError(next, fieldIds);
  };
  const checked = (): boolean => !showErrors(validateProviderForm(form, instance));
  const serverErrors = (err: unknown) => showErrors(serverFieldErrors(err, PROVIDER_FIELDS));

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || readOnly || !checked()) return;
    try {
      const next = await save.mutateAsync(providerPayload(form, instance));
      stored(next);
      setForm(formFromView(next));
      toast.success(instance ? "Instance model saved" : "Your model saved");
    } catch (err) {
      serverErrors(err);
      toast.error(errorDetailOf(err) ?? "Failed to save the model settings. Please try again.");
    }
  };

  const onTest = async () => {
    if (busy || !checked()) return;
    setResult(null);
    try {
      setResult(await test.mutateAsync(providerPayload(form, false)));
    } catch (err) {
      serverErrors(err);
      toast.error(getErrorMessage(err));
    }
  };

  const onRemove = async () => {
    try {
      const next = await remove.mutateAsync();
      stored(next);
      setResult(null);
      toast.success(instance ? "Instance model removed" : "Your model removed");
    } catch (err) {
      toast.error(getErrorMessage(err));
    } finally {
      setConfirmRemove(false);
    }
  };

  return {
    prefix,
    instance,
    readOnly,
    view,
    environment,
    ollama: ollama.data,
    form,
    shown: shownProviderForm(form, readOnly, environment),
    errors,
    fieldIds,
    result,
    busy,
    saving: save.isPending,
    testing: test.isPending,
    removing: remove.isPending,
    confirmRemove,
    setConfirmRemove,
    set,
    pickOllama,
    setRemoveKey,
    onSave,
    onTest,
    onRemove,
  };
}

export type ModelProviderApi = ReturnType<typeof useModelProvider>;
