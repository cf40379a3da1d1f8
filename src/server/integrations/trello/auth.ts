/**
 * How Atomize presents a Trello API key and token, to the credentials check and to exports alike: the
 * header `Authorization: OAuth oauth_consumer_key="KEY", oauth_token="TOKEN"`, one of the ways Trello's
 * authorization guide lists for passing them (developer.atlassian.com/cloud/trello/guides/rest-api/authorization,
 * "Passing token and key in API requests"; `?key=…&token=…` is another). The header keeps the token out
 * of URLs, and so out of proxy and access logs. Values are percent-encoded, as RFC 5849 section 3.5.1 asks
 * of OAuth header parameters, so a pasted value with a quote or a line break cannot break the header.
 *
 * services/connections/connections.ts (saveTrelloCredentials) builds the same header;
 * tests/integration/exports-trello-site.test.ts checks that the check and the export send the same form.
 */
export function trelloAuthorization(key: string, token: string): string {
  return `OAuth oauth_consumer_key="${encodeURIComponent(key)}", oauth_token="${encodeURIComponent(token)}"`;
}
