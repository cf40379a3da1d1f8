import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import {
  ADD_TASK_POSITIONS,
  type AddTaskInput,
  addTaskInput,
  type Task,
  type TaskTreeNode,
} from "../../../../shared/schemas/tasks";
import { taskTitle } from "../../../../shared/task-title";
import { ErrorAlert } from "../../../components/error-alert";
import { Field } from "../../../components/field";
import { FormModal } from "../../../components/modal";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { schemaFieldErrors, serverFieldErrors } from "../../../lib/field-errors";
import { useTRPC } from "../../../lib/trpc";

type Position = (typeof ADD_TASK_POSITIONS)[number];

export const ADD_TASK_FAILED = "Failed to add task";
/** addTaskInput's one field with a message of its own. */
const FIELDS = { description: "description" } as const;

const POSITION_TEXT: Record<Position, { label: string; hint: string }> = {
  before: { label: "Before", hint: "A sibling placed just before the target task" },
  after: { label: "After", hint: "A sibling placed just after the target task" },
  child: { label: "As child", hint: "A new subtask below the target task" },
};

/** Add Task to Tree: a description, a position relative to the target and auto-decompose. */
export function AddTaskModal({
  open,
  target,
  targetIsRoot,
  onClose,
  onAdded,
}: {
  open: boolean;
  target: TaskTreeNode;
  /** The root has no siblings: only "child" is possible. */
  targetIsRoot: boolean;
  onClose: () => void;
  onAdded: (task: Task, position: Position) => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const [description, setDescription] = useState("");
  const [position, setPosition] = useState<Position>("after");
  const [autoDecompose, setAutoDecompose] = useState(true);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const add = useMutation(trpc.tasks.addTask.mutationOptions({ retry: false }));

  useEffect(() => {
    if (!open) return;
    setDescription("");
    setPosition(targetIsRoot ? "child" : "after");
    setAutoDecompose(true);
    setFieldError(null);
    setFormError(null);
  }, [open, targetIsRoot]);

  const blank = description.trim() === "";

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const task: AddTaskInput = {
      description: description.trim(),
      target_task_id: target.id,
      position,
      auto_decompose: autoDecompose,
    };
    const found = schemaFieldErrors(addTaskInput, task, FIELDS).description;
    if (found) {
      setFieldError(found);
      return;
    }
    setFormError(null);
    try {
      const added = await add.mutateAsync({ id: target.id, task });
      toast.success("Task added successfully");
      onAdded(added, position);
      onClose();
    } catch (err) {
      const fieldError = serverFieldErrors(err, FIELDS, "task").description;
      if (fieldError) setFieldError(fieldError);
      const message = errorDetailOf(err) ?? ADD_TASK_FAILED;
      setFormError(message);
      toast.error(message);
    }
  };

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="Add Task to Tree"
      size="lg"
      formId="add-task-form"
      formClassName="flex flex-col gap-4"
      onSubmit={onSubmit}
      submitLabel={add.isPending ? "Adding..." : "Add to Tree"}
      pending={add.isPending}
      submitDisabled={blank}
    >
      <ErrorAlert message={formError} />
      <p className="rounded-box bg-base-200 px-3 py-2 text-sm">
        <span className="text-base-content/60">Target task: </span>
        <span className="font-medium break-words">{taskTitle(target.description, 101)}</span>
        {targetIsRoot && <span className="text-base-content/60"> (root)</span>}
      </p>

      <Field
        as="textarea"
        id="add-task-description"
        label="Task Description"
        required
        error={fieldError}
        rows={4}
        autoFocus
        value={description}
        onChange={(e) => {
          setDescription(e.target.value);
          if (fieldError) setFieldError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
        placeholder="What needs doing?"
      />

      <fieldset>
        <legend className="mb-2 text-sm font-medium">Position</legend>
        <div className="flex flex-col gap-2">
          {ADD_TASK_POSITIONS.map((p) => {
            const disabled = targetIsRoot && p !== "child";
            return (
              <label
                key={p}
                className={`flex items-start gap-3 rounded-box border border-base-300 px-3 py-2 ${
                  disabled ? "cursor-not-allowed opacity-50" : "cursor-pointer"
                } ${position === p ? "border-primary" : ""}`}
              >
                <input
                  type="radio"
                  name="add-task-position"
                  className="radio radio-sm radio-primary mt-0.5"
                  value={p}
                  checked={position === p}
                  disabled={disabled}
                  onChange={() => setPosition(p)}
                  aria-labelledby={`add-task-position-${p}-label`}
                  aria-describedby={`add-task-position-${p}-hint`}
                />
                <span className="text-sm">
                  <span id={`add-task-position-${p}-label`} className="font-medium">
                    {POSITION_TEXT[p].label}
                  </span>
                  <span id={`add-task-position-${p}-hint`} className="block text-xs text-base-content/60">
                    {POSITION_TEXT[p].hint}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
        {targetIsRoot && (
          <p className="mt-2 text-xs text-base-content/60">
            The root task has no siblings, so new tasks go below it as children.
          </p>
        )}
      </fieldset>

      <label className="flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          className="checkbox checkbox-sm checkbox-primary mt-0.5"
          checked={autoDecompose}
          onChange={(e) => setAutoDecompose(e.target.checked)}
          aria-labelledby="add-task-auto-decompose-label"
          aria-describedby="add-task-auto-decompose-hint"
        />
        <span className="text-sm">
          <span id="add-task-auto-decompose-label" className="font-medium">
            Auto-decompose
          </span>
          <span id="add-task-auto-decompose-hint" className="block text-xs text-base-content/60">
            Let the AI break the new task into subtasks when decomposition runs.
          </span>
        </span>
      </label>
    </FormModal>
  );
}
