/**
 * The MCP protocol's two eras on one endpoint (issue 43). The installed SDK (1.32.2) speaks the 2025 era:
 * `initialize`, then requests, up to revision 2025-11-25. Revision 2026-07-28 is stateless: no
 * `initialize`, every request carries its protocol version (the `MCP-Protocol-Version` header and
 * `_meta["io.modelcontextprotocol/protocolVersion"]`) and the client's capabilities, the server answers
 * `server/discover`, and results carry `resultType` (and, for cacheable ones, `ttlMs` and `cacheScope`).
 * Sources: the 2026-07-28 changelog and its "server/discover" page at modelcontextprotocol.io, as the
 * SDK's next major (@modelcontextprotocol/client 2.4.0, whose client the tests use) implements them.
 *
 * A modern request is answered here when it is `server/discover` (from what the SDK server says of itself
 * when initialized), and otherwise handed to the SDK as a 2025-11-25 request whose answer is given the
 * modern result fields. Rejected for now: moving to the SDK's next major, a migration of every tool and
 * of sampling (the way once the 2025 era is retired).
 */

/** Revisions of the stateless era this server speaks. */
export const MODERN_VERSIONS = ["2026-07-28"] as const;
/** The revision the SDK answers a modern request in. */
export const LEGACY_VERSION = "2025-11-25";
/** Every revision, newest first, as `server/discover` lists them. */
export const SUPPORTED_VERSIONS = [...MODERN_VERSIONS, LEGACY_VERSION, "2025-06-18", "2025-03-26"];

const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
/** Results a modern client may cache, which must say for how long and for whom. */
const CACHEABLE = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

type Message = {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { _meta?: Record<string, unknown> };
};

/**
 * The modern revision a request asks for, or null for a 2025-era request: from `_meta`, else the header.
 * A batch is the 2025 era's (the stateless revision has none).
 */
export function modernVersionOf(body: unknown, header: string | undefined): string | null {
  if (Array.isArray(body) || typeof body !== "object" || body === null) return null;
  const meta = (body as Message).params?._meta;
  const version = typeof meta?.[PROTOCOL_VERSION_KEY] === "string" ? meta[PROTOCOL_VERSION_KEY] : header;
  return typeof version === "string" && version >= "2026-07-28" ? version : null;
}

/** The JSON-RPC error a modern request naming a revision this server does not speak gets (-32022). */
export function unsupportedVersion(id: unknown, requested: string) {
  return {
    jsonrpc: "2.0",
    id: id ?? null,
    error: {
      code: -32022,
      message: `Unsupported protocol version: ${requested}`,
      data: { supported: [...SUPPORTED_VERSIONS], requested },
    },
  };
}

/** `server/discover`'s result, from the SDK server's own `initialize` result. */
export function discoverResult(
  id: unknown,
  initialized: { capabilities?: Record<string, unknown>; serverInfo?: unknown; instructions?: string },
) {
  const { tools, resources, prompts, completions, logging, experimental } = initialized.capabilities ?? {};
  return {
    jsonrpc: "2.0",
    id,
    result: {
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      supportedVersions: [...SUPPORTED_VERSIONS],
      capabilities: Object.fromEntries(
        Object.entries({ tools, resources, prompts, completions, logging, experimental }).filter(
          ([, v]) => v !== undefined,
        ),
      ),
      ...(initialized.instructions ? { instructions: initialized.instructions } : {}),
      _meta: { [SERVER_INFO_KEY]: initialized.serverInfo },
    },
  };
}

/** A 2025-era answer to a modern request, with the modern result fields. */
export function modernAnswer(method: string, answer: unknown): unknown {
  if (typeof answer !== "object" || answer === null || !("result" in answer)) return answer;
  const result = (answer as { result: Record<string, unknown> }).result ?? {};
  return {
    ...answer,
    result: {
      resultType: "complete",
      ...(CACHEABLE.has(method) ? { ttlMs: 0, cacheScope: "private" } : {}),
      ...result,
    },
  };
}
