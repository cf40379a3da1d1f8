import {
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useId,
  useRef,
  useState,
} from "react";
import type { AdminBlogPost } from "../../../shared/schemas/blog";
import { Modal } from "../../components/modal";
import { useToast } from "../../components/toast";
import { fieldErrorsOf } from "../../lib/api-error";
import {
  ACCEPT_ATTRIBUTE,
  addTag,
  buildCreatePayload,
  buildUpdatePayload,
  EMPTY_POST_FORM,
  fieldErrorsByField,
  formFromPost,
  imageFileError,
  type PostFormErrors,
  type PostFormField,
  type PostFormValues,
  removeTag,
  STATUS_OPTIONS,
} from "./post-form";
import { UPLOAD_FAILED, UploadError, uploadBlogImage } from "./upload-image";
import { useSavePost } from "./use-blog-admin";

export const IMAGE_UPLOADED = "Image uploaded successfully";
const FIELD_ORDER = ["title", "slug", "excerpt", "content", "featured_image", "tags", "status"] as const;

/** A label, the control, then its error and hint, wired together for screen readers. */
function Field({
  id,
  label,
  required = false,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-error">
            *
          </span>
        )}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-error">
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-base-content/60">
          {hint}
        </p>
      )}
    </div>
  );
}

/** aria props for a control inside <Field>. */
function described(id: string, error: string | undefined, hint: boolean) {
  const ids = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined };
}

/**
 * The blog admin's post editor: 'Create New Post' or 'Edit Post'. Title and Content are marked required
 * but not checked here (the server decides); its field errors show under the fields.
 */
export function PostEditorModal({ post, onClose }: { post: AdminBlogPost | null; onClose: () => void }) {
  const toast = useToast();
  const { save, saving } = useSavePost();
  const [values, setValues] = useState<PostFormValues>(() => (post ? formFromPost(post) : EMPTY_POST_FORM));
  const [errors, setErrors] = useState<PostFormErrors>({});
  const [tagDraft, setTagDraft] = useState("");
  const [uploading, setUploading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const ids = {
    form: `${id}-form`,
    title: `${id}-title`,
    slug: `${id}-slug`,
    excerpt: `${id}-excerpt`,
    content: `${id}-content`,
    image: `${id}-image`,
    file: `${id}-file`,
    tags: `${id}-tags`,
    status: `${id}-status`,
  };
  const fieldIds: Record<(typeof FIELD_ORDER)[number], string> = {
    title: ids.title,
    slug: ids.slug,
    excerpt: ids.excerpt,
    content: ids.content,
    featured_image: ids.image,
    tags: ids.tags,
    status: ids.status,
  };
  const busy = saving || uploading;
  const editing = post !== null;

  const set = <K extends PostFormField>(field: K, value: PostFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    // A field's server error goes once the field is edited.
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const onText =
    (field: "title" | "slug" | "excerpt" | "content" | "featured_image") =>
    (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      set(field, event.target.value);

  const commitTag = () => {
    const next = addTag(values.tags, tagDraft);
    if (next) set("tags", next);
    // A duplicate is simply not added again; the box clears either way unless it held only blanks.
    if (tagDraft.trim()) setTagDraft("");
  };

  const onTagKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    commitTag();
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be chosen again after a failure.
    event.target.value = "";
    if (!file) return;
    const problem = imageFileError(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    setUploading(true);
    try {
      const url = await uploadBlogImage(file);
      set("featured_image", url);
      toast.success(IMAGE_UPLOADED);
    } catch (err) {
      toast.error(err instanceof UploadError ? err.message : UPLOAD_FAILED);
    } finally {
      setUploading(false);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setErrors({});
    try {
      await save(
        post
          ? { id: post.id, updates: buildUpdatePayload(values, post) }
          : { post: buildCreatePayload(values) },
      );
      onClose();
    } catch (err) {
      const next = fieldErrorsByField(fieldErrorsOf(err));
      setErrors(next);
      // Take the user to the first field the server rejected (the form may be scrolled past it).
      const first = FIELD_ORDER.find((f) => next[f]);
      if (first) requestAnimationFrame(() => document.getElementById(fieldIds[first])?.focus());
    }
  };

  const image = values.featured_image.trim();

  return (
    <Modal
      open
      onClose={onClose}
      title={editing ? "Edit Post" : "Create New Post"}
      size="lg"
      dismissible={!busy}
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={ids.form} className="btn btn-primary" disabled={busy}>
            {saving && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {editing ? "Update Post" : "Create Post"}
          </button>
        </>
      }
    >
      <form id={ids.form} className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        {errors.form && (
          <div role="alert" className="alert alert-error text-sm">
            {errors.form}
          </div>
        )}

        <Field id={ids.title} label="Title" required error={errors.title}>
          <input
            id={ids.title}
            className={`input w-full ${errors.title ? "input-error" : ""}`}
            value={values.title}
            onChange={onText("title")}
            aria-required="true"
            maxLength={200}
            autoFocus
            {...described(ids.title, errors.title, false)}
          />
        </Field>

        <Field id={ids.slug} label="Slug" error={errors.slug} hint="Lowercase words joined by dashes.">
          <input
            id={ids.slug}
            className={`input w-full ${errors.slug ? "input-error" : ""}`}
            value={values.slug}
            onChange={onText("slug")}
            placeholder="Auto-generated from the title if empty"
            maxLength={100}
            autoCapitalize="off"
            spellCheck={false}
            {...described(ids.slug, errors.slug, true)}
          />
        </Field>

        <Field
          id={ids.excerpt}
          label="Excerpt"
          error={errors.excerpt}
          hint="Shown on the blog cards; when empty, the start of the content is used."
        >
          <textarea
            id={ids.excerpt}
            className={`textarea w-full ${errors.excerpt ? "textarea-error" : ""}`}
            rows={2}
            value={values.excerpt}
            onChange={onText("excerpt")}
            maxLength={1000}
            {...described(ids.excerpt, errors.excerpt, true)}
          />
        </Field>

        <Field id={ids.content} label="Content" required error={errors.content} hint="HTML supported.">
          <textarea
            id={ids.content}
            className={`textarea w-full font-mono text-sm ${errors.content ? "textarea-error" : ""}`}
            rows={12}
            value={values.content}
            onChange={onText("content")}
            aria-required="true"
            spellCheck={false}
            {...described(ids.content, errors.content, true)}
          />
        </Field>

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Featured Image</legend>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
            <div className="min-w-0 flex-1">
              <label htmlFor={ids.image} className="sr-only">
                Featured Image URL
              </label>
              <input
                id={ids.image}
                type="text"
                inputMode="url"
                className={`input w-full ${errors.featured_image ? "input-error" : ""}`}
                value={values.featured_image}
                onChange={onText("featured_image")}
                placeholder="https://... or upload an image"
                autoCapitalize="off"
                spellCheck={false}
                {...described(ids.image, errors.featured_image, false)}
              />
            </div>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => fileRef.current?.click()}
              disabled={busy}
              aria-busy={uploading || undefined}
            >
              {uploading ? (
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              ) : (
                <span aria-hidden="true">⇪</span>
              )}
              Upload Image
            </button>
            <input
              ref={fileRef}
              id={ids.file}
              type="file"
              accept={ACCEPT_ATTRIBUTE}
              className="hidden"
              tabIndex={-1}
              aria-label="Featured image file"
              onChange={(e) => void onFile(e)}
            />
          </div>
          {errors.featured_image && (
            <p id={`${ids.image}-error`} className="text-sm text-error">
              {errors.featured_image}
            </p>
          )}
          {uploading && (
            <p role="status" className="text-sm text-base-content/70">
              Uploading image...
            </p>
          )}
          {image && (
            <div className="flex items-start gap-3">
              <img
                src={image}
                alt="Cover preview"
                className="max-h-40 max-w-full rounded-box border border-base-300 object-contain"
              />
              <button
                type="button"
                className="btn btn-ghost btn-xs"
                onClick={() => set("featured_image", "")}
                disabled={busy}
              >
                Remove image
              </button>
            </div>
          )}
        </fieldset>

        <Field id={ids.tags} label="Tags" error={errors.tags} hint="Press Enter or Add to add a tag.">
          <div className="flex gap-2">
            <input
              id={ids.tags}
              className={`input min-w-0 flex-1 ${errors.tags ? "input-error" : ""}`}
              value={tagDraft}
              onChange={(e) => setTagDraft(e.target.value)}
              onKeyDown={onTagKeyDown}
              maxLength={40}
              {...described(ids.tags, errors.tags, true)}
            />
            <button type="button" className="btn" onClick={commitTag}>
              Add
            </button>
          </div>
        </Field>
        {values.tags.length > 0 && (
          <ul aria-label="Tag list" className="-mt-2 flex flex-wrap gap-2">
            {values.tags.map((tag) => (
              <li key={tag} className="badge badge-primary badge-outline gap-1 py-3 pr-1">
                {tag}
                <button
                  type="button"
                  className="btn btn-ghost btn-xs btn-circle min-h-0"
                  aria-label={`Remove tag ${tag}`}
                  onClick={() => set("tags", removeTag(values.tags, tag))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}

        <Field id={ids.status} label="Status" error={errors.status}>
          <select
            id={ids.status}
            className="select w-full sm:w-60"
            value={values.status}
            onChange={(e) => set("status", e.target.value as PostFormValues["status"])}
            {...described(ids.status, errors.status, false)}
          >
            {STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </Field>
      </form>
    </Modal>
  );
}
