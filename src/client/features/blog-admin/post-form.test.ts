import { describe, expect, it } from "vitest";
import { type BlogPost, createPostInput, updatePostInput } from "../../../shared/schemas/blog";
import { firstErrors, schemaFieldErrors } from "../../lib/field-errors";
import {
  addTag,
  buildCreatePayload,
  buildUpdatePayload,
  EMPTY_POST_FORM,
  formFromPost,
  imageFileError,
  postFieldOf,
  removeTag,
  STATUS_OPTIONS,
} from "./post-form";

const post: BlogPost = {
  id: "0b6c7c9e-8f0e-4c1e-9d7a-2f3c4b5a6d7e",
  title: "Hello",
  slug: "hello",
  content: "<p>Body</p>",
  excerpt: "Short",
  featured_image: "/uploads/0123456789abcdef0123456789abcdef.png",
  tags: ["a", "b"],
  status: "published",
  meta_description: null,
  meta_keywords: "k1, k2",
  author_name: "Ada",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  published_at: "2026-01-01T00:00:00.000Z",
  view_count: 3,
};

describe("buildCreatePayload", () => {
  it("leaves empty slug, excerpt, featured_image, meta_description and meta_keywords out", () => {
    const payload = buildCreatePayload({
      ...EMPTY_POST_FORM,
      title: "Title",
      content: "<p>x</p>",
      slug: "  ",
      excerpt: "",
    });
    expect(payload).toEqual({ title: "Title", content: "<p>x</p>", tags: [], status: "draft" });
    expect(createPostInput.safeParse(payload).success).toBe(true);
  });

  it("sends the optional fields that are filled in, trimmed", () => {
    const payload = buildCreatePayload({
      ...EMPTY_POST_FORM,
      title: "T",
      content: "C",
      slug: " my-post ",
      excerpt: " gist ",
      featured_image: "https://img.example.com/a.png",
      tags: ["x"],
      status: "published",
      meta_keywords: "k",
    });
    expect(payload).toEqual({
      title: "T",
      content: "C",
      slug: "my-post",
      excerpt: "gist",
      featured_image: "https://img.example.com/a.png",
      tags: ["x"],
      status: "published",
      meta_keywords: "k",
    });
  });
});

describe("buildUpdatePayload", () => {
  it("round-trips an unchanged post", () => {
    const payload = buildUpdatePayload(formFromPost(post), post);
    expect(payload).toEqual({
      title: "Hello",
      content: "<p>Body</p>",
      slug: "hello",
      excerpt: "Short",
      featured_image: post.featured_image,
      tags: ["a", "b"],
      status: "published",
      meta_keywords: "k1, k2",
    });
    expect(updatePostInput.safeParse(payload).success).toBe(true);
  });

  it("clears a value the post had, and never sends a blank slug", () => {
    const payload = buildUpdatePayload(
      { ...formFromPost(post), slug: "", excerpt: " ", featured_image: "", meta_keywords: "" },
      post,
    );
    expect(payload).not.toHaveProperty("slug");
    expect(payload).not.toHaveProperty("meta_description");
    expect(payload).toMatchObject({ excerpt: null, featured_image: null, meta_keywords: null });
    expect(updatePostInput.safeParse(payload).success).toBe(true);
  });
});

describe("tags", () => {
  it("adds only non-empty tags that are not already there", () => {
    expect(addTag(["a"], "  b ")).toEqual(["a", "b"]);
    expect(addTag(["a"], "   ")).toBeNull();
    expect(addTag(["a"], "a")).toBeNull();
    expect(addTag(["React"], "react")).toBeNull();
  });

  it("removes a tag", () => {
    expect(removeTag(["a", "b", "c"], "b")).toEqual(["a", "c"]);
  });
});

describe("imageFileError", () => {
  it("accepts JPEG, PNG, GIF and WebP up to 5 MB", () => {
    for (const type of ["image/jpeg", "image/png", "image/gif", "image/webp"]) {
      expect(imageFileError({ type, size: 5_242_880 })).toBeNull();
    }
  });

  it("rejects other types and larger files with their own messages", () => {
    expect(imageFileError({ type: "image/svg+xml", size: 10 })).toBe(
      "Please upload a valid image file (JPEG, PNG, GIF, or WebP)",
    );
    expect(imageFileError({ type: "", size: 10 })).toBe(
      "Please upload a valid image file (JPEG, PNG, GIF, or WebP)",
    );
    expect(imageFileError({ type: "image/png", size: 5_242_881 })).toBe("Image size must be less than 5MB");
  });
});

describe("field errors", () => {
  it("maps the server's paths to editor fields, keeping the first message", () => {
    expect(
      firstErrors(
        [
          { field: "updates.title", message: "Title is required" },
          { field: "title", message: "second" },
          { field: "tags.2", message: "Each tag must be at most 40 characters" },
          { field: "updates.body", message: "Nothing to update" },
        ],
        postFieldOf,
        "updates",
      ),
    ).toEqual({
      title: "Title is required",
      tags: "Each tag must be at most 40 characters",
      form: "Nothing to update",
    });
  });

  it("checks a post with the server's schemas before it is sent", () => {
    expect(schemaFieldErrors(createPostInput, buildCreatePayload(EMPTY_POST_FORM), postFieldOf)).toEqual({
      title: "Title is required",
      content: "Content is required",
    });
    const tooLong = { ...formFromPost(post), title: "x".repeat(201), featured_image: "http://x.test/a.png" };
    expect(schemaFieldErrors(updatePostInput, buildUpdatePayload(tooLong, post), postFieldOf)).toEqual({
      title: "Title is too long (at most 200 characters)",
      featured_image: "Featured image must be an https URL or an uploaded image",
    });
  });
});

it("offers Draft, Published and Archived", () => {
  expect(STATUS_OPTIONS.map((o) => o.label)).toEqual(["Draft", "Published", "Archived"]);
});
