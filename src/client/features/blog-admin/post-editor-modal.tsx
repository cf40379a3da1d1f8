import { type ChangeEvent, type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import {
  type AdminBlogPost,
  BLOG_EXCERPT_MAX,
  BLOG_SLUG_MAX,
  BLOG_TAG_LENGTH_MAX,
  BLOG_TITLE_MAX,
  createPostInput,
  updatePostInput,
} from "../../../shared/schemas/blog";
import { ErrorAlert } from "../../components/error-alert";
import { Field } from "../../components/field";
import { Modal } from "../../components/modal";
import { useToast } from "../../components/toast";
import { focusFirstError, hasErrors, schemaFieldErrors, serverFieldErrors } from "../../lib/field-errors";
import {
  ACCEPT_ATTRIBUTE,
  addTag,
  buildCreatePayload,
  buildUpdatePayload,
  EMPTY_POST_FORM,
  formFromPost,
  imageFileError,
  type PostFormErrors,
  type PostFormField,
  type PostFormValues,
  postFieldOf,
  removeTag,
  STATUS_OPTIONS,
} from "./post-form";
import { UPLOAD_FAILED, UploadError, uploadBlogImage } from "./upload-image";
import { type SavePostArgs, useSavePost } from "./use-blog-admin";

export const IMAGE_UPLOADED = "Image uploaded successfully";

/**
 * The blog admin's post editor: 'Create New Post' or 'Edit Post'. The post is checked with the schema the
 * server uses (createPostInput or updatePostInput) before it is sent; the first message per field, the
 * server's included, shows under the field.
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
  // In the form's order: the first field with an error takes the focus.
  const fieldIds: Partial<Record<PostFormField, string>> = {
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
    // A field's error goes once the field is edited.
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

  /** Shows the errors and takes the user to the first field with one (the form may be scrolled past it). */
  const reject = (next: PostFormErrors) => {
    setErrors(next);
    requestAnimationFrame(() => focusFirstError(next, fieldIds));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const request: SavePostArgs = post
      ? { id: post.id, updates: buildUpdatePayload(values, post) }
      : { post: buildCreatePayload(values) };
    const found =
      request.id === undefined
        ? schemaFieldErrors(createPostInput, request.post, postFieldOf)
        : schemaFieldErrors(updatePostInput, request.updates, postFieldOf);
    if (hasErrors(found)) {
      reject(found);
      return;
    }
    setErrors({});
    try {
      await save(request);
      onClose();
    } catch (err) {
      reject(serverFieldErrors(err, postFieldOf, "updates"));
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
        <ErrorAlert message={errors.form} />

        <Field
          id={ids.title}
          label="Title"
          required
          error={errors.title}
          value={values.title}
          onChange={onText("title")}
          maxLength={BLOG_TITLE_MAX}
          autoFocus
        />

        <Field
          id={ids.slug}
          label="Slug"
          error={errors.slug}
          hint="Lowercase words joined by dashes."
          value={values.slug}
          onChange={onText("slug")}
          placeholder="Auto-generated from the title if empty"
          maxLength={BLOG_SLUG_MAX}
          autoCapitalize="off"
          spellCheck={false}
        />

        <Field
          as="textarea"
          id={ids.excerpt}
          label="Excerpt"
          error={errors.excerpt}
          hint="Shown on the blog cards; when empty, the start of the content is used."
          rows={2}
          value={values.excerpt}
          onChange={onText("excerpt")}
          maxLength={BLOG_EXCERPT_MAX}
        />

        <Field
          as="textarea"
          id={ids.content}
          label="Content"
          required
          error={errors.content}
          hint="HTML supported."
          className="font-mono text-sm"
          rows={12}
          value={values.content}
          onChange={onText("content")}
          spellCheck={false}
        />

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Featured Image</legend>
          <Field
            id={ids.image}
            label="Featured Image URL"
            labelHidden
            error={errors.featured_image}
            as="custom"
            render={(control) => (
              <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
                <input
                  {...control}
                  type="text"
                  inputMode="url"
                  className={`input min-w-0 flex-1 ${errors.featured_image ? "input-error" : ""}`}
                  value={values.featured_image}
                  onChange={onText("featured_image")}
                  placeholder="https://... or upload an image"
                  autoCapitalize="off"
                  spellCheck={false}
                />
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
            )}
          />
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

        <Field
          id={ids.tags}
          label="Tags"
          error={errors.tags}
          hint="Press Enter or Add to add a tag."
          as="custom"
          render={(control) => (
            <div className="flex gap-2">
              <input
                {...control}
                className={`input min-w-0 flex-1 ${errors.tags ? "input-error" : ""}`}
                value={tagDraft}
                onChange={(e) => setTagDraft(e.target.value)}
                onKeyDown={onTagKeyDown}
                maxLength={BLOG_TAG_LENGTH_MAX}
              />
              <button type="button" className="btn" onClick={commitTag}>
                Add
              </button>
            </div>
          )}
        />
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

        <Field
          as="select"
          id={ids.status}
          label="Status"
          error={errors.status}
          className="sm:w-60"
          value={values.status}
          onChange={(e) => set("status", e.target.value as PostFormValues["status"])}
        >
          {STATUS_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Field>
      </form>
    </Modal>
  );
}
