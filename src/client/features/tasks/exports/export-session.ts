import { useCallback, useState } from "react";
import { EXPORT_KINDS, type ExportKind } from "../../../../shared/schemas/integrations";
import { readStorage, removeStorage, writeStorage } from "../../../lib/storage";

/** An export started from a task screen, kept for the browser tab's session (survives a reload). */
export type RememberedExport = {
  id: string;
  kind: ExportKind;
  /** Its outcome's toast was shown already (a reload must not show it again). */
  notified?: boolean;
};

const MAX_REMEMBERED = 10;
export const exportSessionKey = (taskId: string) => `atomize.exports.${taskId}`;

export function readRememberedExports(taskId: string): RememberedExport[] {
  const raw = readStorage("session", exportSessionKey(taskId));
  if (!raw) return [];
  try {
    const list: unknown = JSON.parse(raw);
    if (!Array.isArray(list)) return [];
    return list.filter(
      (e): e is RememberedExport =>
        !!e &&
        typeof e === "object" &&
        typeof (e as RememberedExport).id === "string" &&
        (EXPORT_KINDS as readonly string[]).includes((e as RememberedExport).kind),
    );
  } catch {
    return [];
  }
}

function write(taskId: string, list: RememberedExport[]) {
  if (list.length === 0) removeStorage("session", exportSessionKey(taskId));
  else writeStorage("session", exportSessionKey(taskId), JSON.stringify(list.slice(-MAX_REMEMBERED)));
}

/** The task's remembered exports, with the means to add, update and forget them. */
export function useRememberedExports(taskId: string) {
  const [list, setList] = useState(() => readRememberedExports(taskId));
  const change = useCallback(
    (fn: (list: RememberedExport[]) => RememberedExport[]) => {
      const next = fn(readRememberedExports(taskId));
      write(taskId, next);
      setList(next);
    },
    [taskId],
  );
  const remember = useCallback(
    (entry: RememberedExport) => change((l) => [...l.filter((e) => e.id !== entry.id), entry]),
    [change],
  );
  const setNotified = useCallback(
    (id: string, notified: boolean) => change((l) => l.map((e) => (e.id === id ? { ...e, notified } : e))),
    [change],
  );
  const forget = useCallback((id: string) => change((l) => l.filter((e) => e.id !== id)), [change]);
  return { list, remember, setNotified, forget };
}
