import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { BLOG_IMAGE_MAX_BYTES, type UploadedImage } from "../../../shared/schemas/blog";
import type { Deps } from "../../deps";
import { imageTooLarge, invalidImage, sniffImage, uploadsDir } from "./uploads";

/** POST /uploads/blog-image: a JPEG, PNG, GIF or WebP of at most 5 MB, saved under DATA_DIR/uploads. */
export async function saveBlogImage(deps: Deps, file: unknown): Promise<UploadedImage> {
  if (!(file instanceof Blob)) throw invalidImage();
  if (file.size > BLOG_IMAGE_MAX_BYTES) throw imageTooLarge();
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length > BLOG_IMAGE_MAX_BYTES) throw imageTooLarge();
  const kind = sniffImage(bytes);
  if (!kind) throw invalidImage();
  const dir = uploadsDir(deps);
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString("hex")}.${kind.ext}`;
  await writeFile(path.join(dir, name), bytes, { flag: "wx" });
  deps.log.info("blog image uploaded", { name, bytes: bytes.length });
  return { url: `/uploads/${name}` };
}
