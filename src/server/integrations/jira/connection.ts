import { type Described, IntegrationError } from "../errors";
import { createHttpClient, type HttpClient, type HttpClientOptions } from "../http-client";

/**
 * How Atomize reaches one Atlassian site with an email and API token.
 *
 * - A classic API token works on the site itself (`https://your-site.atlassian.net/rest/...`, Confluence
 *   under `/wiki`).
 * - A scoped API token, which Atlassian now recommends, works only through the platform gateway,
 *   `https://api.atlassian.com/ex/jira/{cloudId}` and `.../ex/confluence/{cloudId}`. The site's cloud id
 *   is public at `https://your-site.atlassian.net/_edge/tenant_info` (pchuri/jira-cli#29; Atlassian's
 *   "Scoped API tokens" support page).
 *
 * `connectJira` tries the site first. When the site refuses the token (401), it finds the cloud id and
 * tries the gateway. Whichever answers `/myself` is used for JIRA and Confluence alike.
 */
export type JiraConnection = {
  /** JIRA's REST API (`/rest/api/3/...`). */
  jira: HttpClient;
  /** Confluence (`/wiki/...`): the site, or the gateway's Confluence prefix. */
  wiki: HttpClient;
  /** The site origin, for links people open (`/browse/KEY`). */
  site: string;
  /** Set when the token is a scoped one, reached through the gateway. */
  cloudId: string | null;
  me: { accountId?: string; emailAddress?: string; displayName?: string };
};

export type JiraConnectOptions = Omit<HttpClientOptions, "baseUrl" | "headers" | "describe"> & {
  site: string;
  email: string;
  token: string;
  /** The platform gateway's origin (ATLASSIAN_API_URL, https://api.atlassian.com). */
  gateway: string;
  describe: (status: number, body: unknown) => Described;
};

export async function connectJira(opts: JiraConnectOptions): Promise<JiraConnection> {
  const { site, email, token, gateway, ...http } = opts;
  const headers = { authorization: `Basic ${Buffer.from(`${email}:${token}`).toString("base64")}` };
  const client = (baseUrl: string) => createHttpClient({ ...http, baseUrl, headers });
  const onSite = client(site);
  const mine = await onSite.request<JiraConnection["me"]>("GET", "/rest/api/3/myself", { expect: [401] });
  if (mine.status === 200) return { jira: onSite, wiki: onSite, site, cloudId: null, me: mine.body };
  // Refused on the site: a scoped token works only through the gateway, by the site's cloud id.
  const anonymous = createHttpClient({ ...http, baseUrl: site });
  const info = await anonymous.request<{ cloudId?: unknown }>("GET", "/_edge/tenant_info", { expect: [404] });
  const cloudId = typeof info.body?.cloudId === "string" ? info.body.cloudId : null;
  if (!cloudId || !/^[\w-]{1,64}$/.test(cloudId)) {
    await onSite.request("GET", "/rest/api/3/myself"); // throws the site's 401, in the caller's words
  }
  const root = gateway.replace(/\/$/, "");
  const viaGateway = client(`${root}/ex/jira/${cloudId}`);
  const me = await viaGateway
    .request<JiraConnection["me"]>("GET", "/rest/api/3/myself")
    .catch(async (err: unknown) => {
      // The gateway could not be asked (or does not know the site): the site's own refusal is the answer.
      if (err instanceof IntegrationError && (err.serviceStatus === null || err.serviceStatus === 404)) {
        await onSite.request("GET", "/rest/api/3/myself");
      }
      throw err;
    });
  return {
    jira: viaGateway,
    wiki: client(`${root}/ex/confluence/${cloudId}`),
    site,
    cloudId,
    me: me.body,
  };
}
