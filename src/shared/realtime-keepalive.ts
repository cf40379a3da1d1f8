/**
 * The tRPC WebSocket's one liveness mechanism is tRPC's own keepAlive (its PING/PONG messages). The
 * browser pings after `clientPingMs` of silence and reconnects when no PONG comes within
 * `pongTimeoutMs`; the server's side only pings a client silent for `serverPingMs` (an API client with
 * no keepAlive of its own, or a vanished one), so a healthy browser socket carries one exchange per
 * interval, not one from each end. Zod-free: the app shell imports it.
 */
export const TRPC_KEEPALIVE = { clientPingMs: 30_000, pongTimeoutMs: 5_000, serverPingMs: 60_000 } as const;
