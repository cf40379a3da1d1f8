import path from "node:path";
import { BLOG_MESSAGES } from "../../../shared/schemas/blog";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";

export type ImageKind = { ext: "jpg" | "png" | "gif" | "webp"; contentType: string };

export const KINDS: Record<ImageKind["ext"], ImageKind> = {
  jpg: { ext: "jpg", contentType: "image/jpeg" },
  png: { ext: "png", contentType: "image/png" },
  gif: { ext: "gif", contentType: "image/gif" },
  webp: { ext: "webp", contentType: "image/webp" },
};

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type from the file's first bytes (its name and declared type are not trusted). */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 4 && startsWith(bytes, [0xff, 0xd8, 0xff])) return KINDS.jpg;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && bytes.length > 8)
    return KINDS.png;
  if ((startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) && bytes.length > 6)
    return KINDS.gif;
  if (bytes.length >= 12 && startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8))
    return KINDS.webp;
  return null;
}

/** Stored names are ours: 32 hex characters and a known extension, so a name can never leave the folder. */
export const UPLOAD_NAME = /^[0-9a-f]{32}\.(jpg|png|gif|webp)$/;

export const uploadsDir = (deps: Deps) => path.resolve(deps.config.DATA_DIR, "uploads");

export const invalidImage = () =>
  new AppError("UNPROCESSABLE_CONTENT", BLOG_MESSAGES.invalidImage, {
    fieldErrors: [{ field: "file", message: BLOG_MESSAGES.invalidImage }],
  });

export const imageTooLarge = () => new AppError("PAYLOAD_TOO_LARGE", BLOG_MESSAGES.imageTooLarge);
