import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { actualHoursInput } from "../../../../shared/schemas/actuals";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { Field } from "../../../components/field";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";
import { useRefreshTask } from "../shared/use-task-detail";

/**
 * A leaf's actual hours, entered in place (issue 33): checked with the server's own rule as the user
 * types. Saved hours are the person's and stay over the working time measured from start to finish;
 * "Clear" goes back to that measurement at the next completion.
 */
export function ActualsEditor({ node, onDone }: { node: TaskTreeNode; onDone: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(node.id);
  const [value, setValue] = useState(node.actual_hours == null ? "" : String(node.actual_hours));
  const [serverError, setServerError] = useState<string | undefined>();
  const update = useMutation(trpc.tasks.update.mutationOptions({ retry: false }));
  const hours = value.trim() === "" ? Number.NaN : Number(value);
  const parsed = actualHoursInput.safeParse(hours);
  const error =
    value.trim() === ""
      ? "Enter the hours the work took"
      : parsed.success
        ? undefined
        : parsed.error.issues[0]?.message;

  const save = async (actual: number | null) => {
    try {
      await update.mutateAsync({ id: node.id, updates: { actual_hours: actual } });
      toast.success(actual === null ? "Actual hours cleared" : "Actual hours saved");
      void refresh();
      onDone();
    } catch (err) {
      const detail = errorDetailOf(err) ?? "Could not save the actual hours";
      setServerError(detail);
      toast.error(detail);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (error || update.isPending) return;
    void save(hours);
  };

  return (
    <form className="flex flex-col gap-2" onSubmit={onSubmit} noValidate aria-label="Edit actual hours">
      <Field
        id={`actual-hours-${node.id}`}
        label="Hours it took"
        type="number"
        inputMode="decimal"
        min={0}
        step={0.5}
        className="input-sm"
        error={(value.trim() === "" ? undefined : error) ?? serverError}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setServerError(undefined);
        }}
      />
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          className="btn btn-sm btn-primary"
          disabled={Boolean(error) || update.isPending}
        >
          {update.isPending ? "Saving..." : "Save hours"}
        </button>
        {node.actual_source === "person" && (
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => void save(null)}
            disabled={update.isPending}
          >
            Clear
          </button>
        )}
        <button type="button" className="btn btn-sm btn-ghost" onClick={onDone} disabled={update.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
