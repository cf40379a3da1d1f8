import { describe, expect, it } from "vitest";
import * as shared from "../../../shared/schemas/blog";
import * as client from "../../lib/blog-constants";
import { CHECK_INBOX } from "./use-blog-subscription";

describe("client blog constants", () => {
  it("match the shared schema module", () => {
    expect(client.BLOG_PAGE_SIZE).toBe(shared.BLOG_PAGE_SIZE);
    expect(client.BLOG_EXCERPT_FALLBACK).toBe(shared.BLOG_EXCERPT_FALLBACK);
    expect(client.BLOG_DESCRIPTION_LENGTH).toBe(shared.BLOG_DESCRIPTION_LENGTH);
    expect(client.BLOG_IMAGE_MAX_BYTES).toBe(shared.BLOG_IMAGE_MAX_BYTES);
    expect(client.BLOG_POST_STATUSES).toEqual(shared.BLOG_POST_STATUSES);
    for (const [key, text] of Object.entries(client.BLOG_MESSAGES)) {
      expect(shared.BLOG_MESSAGES[key as keyof typeof shared.BLOG_MESSAGES]).toBe(text);
    }
    expect(CHECK_INBOX).toBe(shared.BLOG_MESSAGES.checkInbox);
  });
});
