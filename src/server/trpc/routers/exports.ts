import { tracked } from "@trpc/server";
import { streams } from "../../operations/streams";
import { subscriptionOf } from "./realtime";

/** The exports' subscription; the exports' operations come from the registry (trpc/router.ts). */
export const exportSubscriptions = {
  /** The export's messages: its current state first, then live progress. */
  events: subscriptionOf(streams.exportEvents, async function* (messages) {
    let n = 0;
    for await (const message of messages) yield tracked(String(n++), message);
  }),
};
