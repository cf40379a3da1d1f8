import { rmSync } from "node:fs";
import { tmpdir } from "node:os";

/** Removes the run's embedded database folder (only one this config created under the temp dir). */
export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir?.startsWith(tmpdir()) && dir.includes("atomize-e2e-"))
    rmSync(dir, { recursive: true, force: true });
}
