import type { UploadedImage } from "../../../shared/schemas/blog";
import { refreshSession } from "../../lib/trpc-client";

export const UPLOAD_URL = "/api/uploads/blog-image";
export const UPLOAD_FAILED = "Failed to upload image";
/** Five megabytes on a slow line take a while; the JSON calls' 30 s would be too short. */
const UPLOAD_TIMEOUT_MS = 120_000;

/** A failed upload; `message` is the server's detail when it sent one, else 'Failed to upload image'. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

async function detailOf(res: Response): Promise<string | undefined> {
  try {
    const body: unknown = await res.json();
    const detail = body && typeof body === "object" && "detail" in body ? body.detail : undefined;
    return typeof detail === "string" && detail.trim() ? detail : undefined;
  } catch {
    return undefined;
  }
}

function send(file: File): Promise<Response> {
  const body = new FormData();
  body.append("file", file);
  // Cookie-authenticated: the browser adds the Origin header the server's CSRF check reads.
  return fetch(UPLOAD_URL, {
    method: "POST",
    body,
    credentials: "include",
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
}

/**
 * POST /api/uploads/blog-image (multipart field `file`, admins only); resolves to the image's URL. An
 * expired access cookie is refreshed once, as the tRPC link does for its calls.
 */
export async function uploadBlogImage(file: File): Promise<string> {
  let res: Response;
  try {
    res = await send(file);
    if (res.status === 401) {
      await refreshSession();
      res = await send(file);
    }
  } catch {
    throw new UploadError(UPLOAD_FAILED);
  }
  if (!res.ok) throw new UploadError((await detailOf(res)) ?? UPLOAD_FAILED, res.status);
  const body = (await res.json().catch(() => null)) as Partial<UploadedImage> | null;
  if (!body || typeof body.url !== "string" || !body.url) throw new UploadError(UPLOAD_FAILED, res.status);
  return body.url;
}
