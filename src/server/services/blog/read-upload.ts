import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Deps } from "../../deps";
import { type ImageKind, KINDS, UPLOAD_NAME, uploadsDir } from "./uploads";

/** A stored upload by name, or null (unknown or malformed names alike). */
export async function readUpload(
  deps: Deps,
  name: string,
): Promise<{ bytes: Buffer; contentType: string } | null> {
  const m = UPLOAD_NAME.exec(name);
  if (!m) return null;
  const kind = KINDS[m[1] as ImageKind["ext"]];
  try {
    return { bytes: await readFile(path.join(uploadsDir(deps), name)), contentType: kind.contentType };
  } catch {
    return null;
  }
}
