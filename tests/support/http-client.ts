/**
 * A small HTTP client for tests that behaves like a browser tab (cookie jar, Origin header) or like an
 * API client (bearer token), against the real server.
 */
export type Json = Record<string, unknown>;

export class TestClient {
  readonly cookies = new Map<string, string>();
  bearer: string | null = null;
  /** Sent on every request like a browser would; set to null to send none. */
  origin: string | null;

  constructor(readonly baseUrl: string) {
    this.origin = baseUrl;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined && typeof body !== "string") h["content-type"] = "application/json";
    if (typeof body === "string" && !h["content-type"]) h["content-type"] = "application/json";
    if (this.cookies.size) h.cookie = this.cookieHeader();
    if (this.bearer) h.authorization = `Bearer ${this.bearer}`;
    if (this.origin && method !== "GET") h.origin = this.origin;
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      redirect: "manual",
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (/max-age=0/i.test(c) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let json: Json | null = null;
    try {
      json = text ? (JSON.parse(text) as Json) : null;
    } catch {
      json = null;
    }
    return { status: res.status, headers: res.headers, json: json as Json & Record<string, any>, text };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request("GET", path, undefined, headers);
  }
  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request("POST", path, body ?? {}, headers);
  }
}

let counter = 0;
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export async function registerUser(client: TestClient, overrides: Json = {}) {
  const email = (overrides.email as string) ?? uniqueEmail();
  const res = await client.post("/api/auth/register", {
    email,
    password: "correct horse battery",
    full_name: "Test User",
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { email, password: "correct horse battery", ...res.json } as {
    email: string;
    password: string;
    access_token: string;
    refresh_token: string;
    user: Json & { id: string; role: string };
  };
}
