import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { estimateRange } from "../../../../shared/schemas/schedule";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { Field } from "../../../components/field";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { type FieldErrors, hasErrors, schemaFieldErrors, serverFieldErrors } from "../../../lib/field-errors";
import { useTRPC } from "../../../lib/trpc";
import { useRefreshTask } from "../shared/use-task-detail";

type RangeField = "low" | "likely" | "high";
const FIELDS: Record<string, RangeField> = {
  low: "low",
  likely: "likely",
  high: "high",
  "estimate_hours.low": "low",
  "estimate_hours.likely": "likely",
  "estimate_hours.high": "high",
};
const LABELS: Record<RangeField, string> = { low: "Low (h)", likely: "Likely (h)", high: "High (h)" };

/** A leaf's estimate range, edited in place: checked with the server's schema as the user types. */
export function EstimateEditor({ node, onDone }: { node: TaskTreeNode; onDone: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(node.id);
  const start = node.estimate_hours ?? { low: 0, likely: 0, high: 0 };
  const [values, setValues] = useState<Record<RangeField, string>>({
    low: String(start.low),
    likely: String(start.likely),
    high: String(start.high),
  });
  const [serverErrors, setServerErrors] = useState<FieldErrors<RangeField>>({});
  const update = useMutation(trpc.tasks.update.mutationOptions({ retry: false }));
  const range = {
    low: values.low.trim() === "" ? Number.NaN : Number(values.low),
    likely: values.likely.trim() === "" ? Number.NaN : Number(values.likely),
    high: values.high.trim() === "" ? Number.NaN : Number(values.high),
  };
  const errors = schemaFieldErrors(estimateRange, range, FIELDS);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (hasErrors(errors) || update.isPending) return;
    try {
      await update.mutateAsync({ id: node.id, updates: { estimate_hours: range } });
      toast.success("Estimate saved");
      void refresh();
      onDone();
    } catch (err) {
      const fieldErrors = serverFieldErrors(err, FIELDS, "updates");
      setServerErrors(fieldErrors);
      if (!hasErrors(fieldErrors)) toast.error(errorDetailOf(err) ?? "Could not save the estimate");
    }
  };

  return (
    <form className="flex flex-col gap-2" onSubmit={onSubmit} noValidate aria-label="Edit estimate">
      <div className="grid grid-cols-3 gap-2">
        {(["low", "likely", "high"] as const).map((f) => (
          <Field
            key={f}
            id={`estimate-${f}-${node.id}`}
            label={LABELS[f]}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.5}
            className="input-sm"
            error={errors[f] ?? serverErrors[f]}
            value={values[f]}
            onChange={(e) => {
              setValues((v) => ({ ...v, [f]: e.target.value }));
              setServerErrors({});
            }}
          />
        ))}
      </div>
      <div className="flex gap-2">
        <button
          type="submit"
          className="btn btn-sm btn-primary"
          disabled={hasErrors(errors) || update.isPending}
        >
          {update.isPending ? "Saving..." : "Save estimate"}
        </button>
        <button type="button" className="btn btn-sm btn-ghost" onClick={onDone} disabled={update.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
