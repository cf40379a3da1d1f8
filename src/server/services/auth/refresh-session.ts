import type { Deps } from "../../deps";
import { HOUR_MS, REFRESH_PER_IP_FACTOR } from "./accounts";
import { consumeRateLimit, perAddress } from "./rate-limit";
import { rotateRefreshToken, type SessionMeta } from "./sessions";

export async function refreshSession(deps: Deps, token: string, meta: SessionMeta = {}) {
  await consumeRateLimit(deps, {
    key: perAddress("refresh", meta.ip),
    max: deps.config.ANONYMOUS_WRITES_PER_IP_PER_HOUR * REFRESH_PER_IP_FACTOR,
    windowMs: HOUR_MS,
  });
  return rotateRefreshToken(deps, token);
}
