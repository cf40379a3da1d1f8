import type { ExportKind, ExportMessage } from "../../../shared/schemas/integrations";
import type { Deps } from "../../deps";
import type { BusEvent } from "../../events/event-bus";
import { toExportView } from "./exports";
import { getOwnedExport } from "./get-owned-export";
import type { ExportRow } from "./tracker";

/**
 * What a client watching an export is told (the tRPC subscription `exports.events` and the raw
 * `/ws/{kind}-export/{id}` channels alike, operations/streams.ts): the export's state now, then its
 * progress as it happens, until it succeeds or fails.
 */

function toMessage(kind: ExportKind, e: BusEvent): ExportMessage | null {
  const d = e.data as Record<string, unknown>;
  if (e.type === "export.progress") {
    return {
      type: `${kind}.export.progress`,
      step: String(d.step),
      progress: Number(d.progress),
      message: e.message ?? "",
    };
  }
  if (e.type === "export.success") {
    const { export_id: _id, kind: _k, ...result } = d;
    return { type: `${kind}.export.success`, ...result };
  }
  if (e.type === "export.error")
    return { type: `${kind}.export.error`, message: e.message ?? "Export failed" };
  return null;
}

/** The messages of one export: where it stands now (so a reload or a second tab can watch), then live ones. */
export async function* exportMessages(
  deps: Deps,
  row: ExportRow,
  signal?: AbortSignal,
): AsyncGenerator<ExportMessage> {
  const kind = row.kind as ExportKind;
  const queue: ExportMessage[] = [];
  let wake: (() => void) | null = null;
  let finished = false;
  const unsubscribe = deps.events.subscribe((e) => {
    if (e.user_id !== row.userId || (e.data as { export_id?: string }).export_id !== row.id) return;
    const m = toMessage(kind, e);
    if (m) {
      queue.push(m);
      wake?.();
    }
  });
  const onAbort = () => wake?.();
  signal?.addEventListener("abort", onAbort);
  try {
    yield { type: "connection_established", export_id: row.id };
    const now = toExportView(await getOwnedExport(deps, row.userId, row.id));
    yield {
      type: `${kind}.export.progress`,
      step: now.step ?? "queued",
      progress: now.progress,
      message: now.message ?? "",
    };
    if (now.status === "completed") {
      yield { type: `${kind}.export.success`, ...(now.result ?? {}) };
      return;
    }
    if (now.status === "failed") {
      yield { type: `${kind}.export.error`, message: now.error ?? "Export failed" };
      return;
    }
    let last = now.progress;
    while (!signal?.aborted && !finished) {
      const m = queue.shift();
      if (!m) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      if ("progress" in m && typeof m.progress === "number") {
        if (m.progress < last) continue; // never backwards, even if a stale event arrives late
        last = m.progress;
      }
      if (m.type.endsWith(".success") || m.type.endsWith(".error")) finished = true;
      yield m;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener("abort", onAbort);
  }
}
