import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type KeyboardEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import { APPLICATION_TYPES, findApplicationType } from "../../../shared/catalogue";
import { createTaskInput } from "../../../shared/schemas/tasks";
import { Field } from "../../components/field";
import { isAtLimit, TaskUsageSummary, useTaskUsage } from "../../components/task-usage";
import { useToast } from "../../components/toast";
import { usePageMeta } from "../../components/use-page-meta";
import { errorDetailOf, isNetworkError, NETWORK_ERROR_MESSAGE } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import {
  type FieldErrors,
  focusFirstError,
  schemaFieldErrors,
  serverFieldErrors,
} from "../../lib/field-errors";
import { CONNECT_MODEL_PATH, plannerChoiceText } from "../../lib/planner-text";
import { useTaskCache } from "../../lib/task-cache";
import { useTRPC } from "../../lib/trpc";
import { ReadingReviewPanel } from "./requirements/reading-review-panel";
import {
  CREATE_TASK_FAILED,
  CREATE_TASK_FIELDS,
  type CreateTaskField,
  type CreateTaskValues,
  createTaskPayload,
  EMPTY_CREATE_TASK,
} from "./shared/create-task-form";
import { useReviewChoice } from "./shared/use-review-choice";
import { useTreeQueryOptions } from "./shared/use-tree-query";

/** The fields' element ids, in the form's order. */
const FIELD_IDS: Record<CreateTaskField, string> = {
  description: "task-description",
  applicationType: "application-type",
  techStackId: "tech-stack",
  githubRepo: "github-repo",
};

/** Which planner this task will get: the model and where it is set, or the outline and a way to connect one. */
function PlannerNotice() {
  const trpc = useTRPC();
  const choice = useQuery(trpc.modelProviders.plannerForMe.queryOptions(undefined, { staleTime: 30_000 }));
  if (!choice.data) return null;
  const offline = choice.data.name === "offline";
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-2 text-sm" data-testid="planner-choice">
      <span className={offline ? "text-base-content/70" : "font-medium"}>
        {plannerChoiceText(choice.data)}
      </span>
      {offline ? (
        <Link href={CONNECT_MODEL_PATH} className="link link-primary">
          Connect a model
        </Link>
      ) : (
        choice.data.problem && <span className="text-warning">{choice.data.problem}</span>
      )}
    </p>
  );
}

/** Create task (New Task). */
export default function CreateTaskPage() {
  usePageMeta({ title: "Create Task", path: "/tasks/create", noIndex: true });
  const trpc = useTRPC();
  const treeOptions = useTreeQueryOptions();
  const queryClient = useQueryClient();
  const cache = useTaskCache();
  const toast = useToast();
  const { refetchUser } = useAuth();
  const [, navigate] = useLocation();
  const usage = useTaskUsage();

  const [values, setValues] = useState<CreateTaskValues>(EMPTY_CREATE_TASK);
  const [errors, setErrors] = useState<FieldErrors<CreateTaskField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // A project created for a check of its reading: its review replaces the form, in place.
  const [toCheck, setToCheck] = useState<string | null>(null);
  const review = useReviewChoice();
  // A project kept for a check of its reading counts only when it is planned: it may still be made.
  const atLimit = Boolean(usage.data && isAtLimit(usage.data)) && !review.on;

  // Creating a task is not idempotent: never retry it behind the user's back.
  const create = useMutation(trpc.tasks.create.mutationOptions({ retry: false }));
  // A plan can be made in one of the person's teams where they plan (not as a viewer): issue 41.
  const teams = useQuery(trpc.teams.list.queryOptions());
  const plannable = (teams.data?.teams ?? []).filter((t) => t.role !== "viewer");
  const [teamId, setTeamId] = useState("");
  const creating = create.isPending || create.isSuccess;

  const appType = values.applicationType ? findApplicationType(values.applicationType) : undefined;
  const stack = appType?.stacks.find((s) => s.id === values.techStackId);
  const blank = values.description.trim() === "";

  const set = (field: CreateTaskField, value: string) => {
    setValues((v) =>
      field === "applicationType"
        ? { ...v, applicationType: value, techStackId: "" }
        : { ...v, [field]: value },
    );
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const submit = async (reviewReading: boolean) => {
    if (creating) return;
    const payload = {
      ...createTaskPayload(values),
      review_reading: reviewReading,
      ...(teamId ? { team_id: teamId } : {}),
    };
    const found = schemaFieldErrors(createTaskInput, payload, CREATE_TASK_FIELDS);
    setErrors(found);
    if (focusFirstError(found, FIELD_IDS)) return;
    setFormError(null);
    try {
      const task = await create.mutateAsync(payload);
      const id = task?.task_id ?? task?.id;
      toast.success(
        task?.status === "awaiting_review"
          ? "Task created: check what was read, then plan it."
          : "Task created successfully!",
      );
      if (id) {
        queryClient.setQueryData(trpc.tasks.get.queryKey({ id }), task);
        void queryClient.prefetchQuery(treeOptions(id));
      }
      void cache.invalidateLists();
      void cache.invalidateUsage();
      refetchUser().catch(() => undefined);
      if (id && task?.status === "awaiting_review") setToCheck(id);
      else navigate(id ? `/tasks/${encodeURIComponent(id)}` : "/dashboard");
    } catch (err) {
      setErrors(serverFieldErrors(err, CREATE_TASK_FIELDS));
      const message =
        errorDetailOf(err) ?? (isNetworkError(err) ? NETWORK_ERROR_MESSAGE : CREATE_TASK_FAILED);
      setFormError(message);
      toast.error(message);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(review.on);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit(review.on);
    }
  };

  if (toCheck) {
    return (
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-6 sm:py-8">
        <header>
          <h1 className="text-2xl font-bold sm:text-3xl">Create Task</h1>
          <p className="mt-1 text-sm text-base-content/70">
            Your project is saved. Check what was read, then plan it.
          </p>
        </header>
        <ReadingReviewPanel
          taskId={toCheck}
          focusOnLoad
          onPlanned={(task) => {
            toast.success("Planning started");
            navigate(`/tasks/${encodeURIComponent(task.id)}`);
          }}
        />
      </div>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-6 sm:py-8">
      <div>
        <button type="button" className="btn btn-ghost btn-sm -ml-2" onClick={() => navigate("/dashboard")}>
          <span aria-hidden="true">←</span> Back to Dashboard
        </button>
      </div>

      <header>
        <h1 className="text-2xl font-bold sm:text-3xl">Create Task</h1>
        <p className="mt-1 text-sm text-base-content/70">
          Describe your project in plain language. The more context you give, the better the breakdown.
        </p>
        <PlannerNotice />
      </header>

      <form
        noValidate
        onSubmit={onSubmit}
        onKeyDown={onKeyDown}
        className="card border border-base-300 bg-base-200"
        aria-busy={create.isPending}
      >
        <div className="card-body gap-5">
          {formError && (
            <div role="alert" className="alert alert-error">
              <span>{formError}</span>
            </div>
          )}

          <Field
            as="textarea"
            id="task-description"
            label="Task Description"
            required
            hint="Press Ctrl+Enter (⌘+Enter on Mac) to create the task."
            error={errors.description}
            name="description"
            autoFocus
            rows={7}
            className="text-base"
            placeholder="e.g. Build a recipe-sharing web app where users sign up, post recipes with photos, search by ingredient and save favourites."
            value={values.description}
            onChange={(e) => set("description", e.target.value)}
            disabled={creating}
          />

          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              as="select"
              id="application-type"
              label="Application Type"
              optional
              hint={appType?.description}
              error={errors.applicationType}
              value={values.applicationType}
              onChange={(e) => set("applicationType", e.target.value)}
              disabled={creating}
            >
              <option value="">None</option>
              {APPLICATION_TYPES.map((type) => (
                <option key={type.id} value={type.id}>
                  {type.label}
                </option>
              ))}
            </Field>

            <Field
              as="select"
              id="tech-stack"
              label="Tech Stack"
              optional
              hint={appType ? undefined : "Pick an application type to see its stacks."}
              error={errors.techStackId}
              value={values.techStackId}
              onChange={(e) => set("techStackId", e.target.value)}
              disabled={!appType || creating}
            >
              <option value="">{appType ? "None" : "Choose an application type first"}</option>
              {appType?.stacks.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </Field>
          </div>

          {stack && (
            <section
              aria-label="Selected tech stack"
              className="rounded-box border border-base-300 bg-base-100 p-4 text-sm"
            >
              <h2 className="font-semibold">{stack.name}</h2>
              <p className="mt-1 text-base-content/80">{stack.description}</p>
              <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt className="text-base-content/60">Frontend</dt>
                <dd>{stack.frontend_framework}</dd>
                <dt className="text-base-content/60">Backend</dt>
                <dd>{stack.backend_language}</dd>
                <dt className="text-base-content/60">Database</dt>
                <dd>{stack.database}</dd>
              </dl>
            </section>
          )}

          <Field
            id="github-repo"
            label="GitHub Repository URL"
            optional
            hint={
              errors.githubRepo
                ? undefined
                : "An existing codebase gives the AI context about what is already built."
            }
            error={errors.githubRepo}
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://github.com/owner/repo"
            value={values.githubRepo}
            onChange={(e) => set("githubRepo", e.target.value)}
            disabled={creating}
          />

          <div className="rounded-box border border-base-300 bg-base-100 p-3">
            <label htmlFor="requires-approval" className="flex cursor-pointer items-start gap-3">
              <input
                id="requires-approval"
                type="checkbox"
                className="checkbox checkbox-primary checkbox-sm mt-0.5"
                checked={values.requiresApproval}
                onChange={(e) => setValues((v) => ({ ...v, requiresApproval: e.target.checked }))}
                disabled={creating}
                aria-describedby="requires-approval-hint"
              />
              <span className="text-sm font-medium">Review the plan before it is decomposed</span>
            </label>
            <p id="requires-approval-hint" className="mt-1 pl-8 text-xs text-base-content/60">
              Atomize plans the first level, then waits for you to approve or reject it before breaking each
              part down further.
            </p>
          </div>

          {plannable.length > 0 && (
            <div className="flex flex-col gap-1">
              <label htmlFor="task-team" className="text-sm font-medium">
                Plan for
              </label>
              <select
                id="task-team"
                className="select select-bordered w-full max-w-md"
                value={teamId}
                onChange={(e) => setTeamId(e.target.value)}
                disabled={creating}
                aria-describedby="task-team-hint"
              >
                <option value="">Just me</option>
                {plannable.map((t) => (
                  <option key={t.id} value={t.id}>
                    Team: {t.name}
                  </option>
                ))}
              </select>
              <p id="task-team-hint" className="text-xs text-base-content/60">
                A team's members see its plans and work on them; it counts against your monthly plans.
              </p>
            </div>
          )}

          <div className="rounded-box border border-base-300 bg-base-100 p-3">
            <label htmlFor="review-reading" className="flex cursor-pointer items-start gap-3">
              <input
                id="review-reading"
                type="checkbox"
                className="checkbox checkbox-primary checkbox-sm mt-0.5"
                checked={review.on}
                onChange={(e) => review.set(e.target.checked)}
                disabled={creating}
                aria-describedby="review-reading-hint"
              />
              <span className="text-sm font-medium">Let me check what was read before planning</span>
            </label>
            <p id="review-reading-hint" className="mt-1 pl-8 text-xs text-base-content/60">
              Atomize shows the kind of work and each requirement it read from your description; you correct
              them, then plan. Your choice is remembered.
            </p>
          </div>

          <aside aria-label="How decomposition works" className="alert alert-info alert-soft items-start">
            <div className="text-sm">
              <p className="font-semibold">How your task is decomposed</p>
              <p className="mt-1">
                Atomize breaks your description into a tree of atomic subtasks, each small enough to build and
                test on its own, with a complexity score from 1 to 10 and a story-point estimate, plus epics,
                user stories and an event model. With an AI model connected (yours, or one this instance
                provides), the model writes that plan; without one, you get an outline made from your own
                description. Review the result, edit what needs it, then export it to your tracker.
              </p>
            </div>
          </aside>

          <div className="flex flex-col-reverse gap-4 border-t border-base-300 pt-4 sm:flex-row sm:items-center sm:justify-between">
            <TaskUsageSummary usage={usage.data} compact />
            <div className="flex gap-2 sm:justify-end">
              <button
                type="button"
                className="btn btn-ghost flex-1 sm:flex-none"
                onClick={() => navigate("/dashboard")}
                disabled={creating}
              >
                Cancel
              </button>
              {review.on && (
                <button
                  type="button"
                  className="btn btn-outline flex-1 sm:flex-none"
                  onClick={() => void submit(false)}
                  disabled={blank || creating}
                >
                  Plan without checking
                </button>
              )}
              <button
                type="submit"
                className="btn btn-primary flex-1 sm:flex-none"
                // At the limit the server would refuse it: the summary beside it says why and the way out.
                disabled={blank || creating || atLimit}
                aria-describedby={atLimit ? "task-usage-note" : undefined}
              >
                {create.isPending && (
                  <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                )}
                {creating ? "Creating..." : "Create Task"}
              </button>
            </div>
          </div>
        </div>
      </form>
    </div>
  );
}
