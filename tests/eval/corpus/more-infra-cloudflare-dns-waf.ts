import type { EvalCase } from "../case";

export const moreInfraCloudflareDnsWaf: EvalCase = {
  id: "more-infra-cloudflare-dns-waf",
  kind: "infrastructure request (DNS move to Cloudflare and WAF rules)",
  work_kind: "infrastructure",
  description: `Move our DNS from Route 53 to Cloudflare and put the WAF in front of the shop

Last month's credential-stuffing run against /login and a 40-minute layer-7 flood on the search page both got through, and the AWS WAF bill for that month was higher than the hosting. We want Cloudflare in front of the shop.

Zones: kettleandcrumb.com and kettleandcrumb.co.uk, about 120 records between them. The web and API hostnames point at an AWS load balancer; static assets come from CloudFront.

Plan:
- Two days before the switch, lower the TTL of every record to 300 s.
- Export both zones from Route 53 and import them into Cloudflare, then diff every record against both sets of nameservers with a script before anything changes.
- Keep the mail records (MX, SPF, DKIM, DMARC) DNS-only.
- Change the nameservers at the registrar one zone at a time, the .co.uk first.
- Once a zone is live on Cloudflare, proxy the web and API hostnames, with Full (strict) TLS and Cloudflare origin certificates on the load balancer.
- After both zones are proxied, lock the load balancer's security group to Cloudflare's IP ranges so nobody can go around the proxy.
- WAF: the Cloudflare managed ruleset on, a rate limit of 10 requests a minute per IP on /login, and block the wp-admin and xmlrpc probes we get thousands of a day.
- All of it in Terraform with the Cloudflare provider, nothing clicked together in the dashboard.
- Keep the Route 53 hosted zones for two weeks, so a rollback is just switching the nameservers back.

Not in scope: transferring the domains to another registrar, and Cloudflare caching for the storefront (we'll look at that later).`,
  requirements: [
    { id: "R1", text: "Lower the TTL of every record to 300 s two days before", match: ["TTL"] },
    { id: "R2", text: "Export both zones from Route 53 and import them into Cloudflare", match: ["import"] },
    { id: "R3", text: "Diff every record against both sets of nameservers", match: ["diff"] },
    { id: "R4", text: "Keep the mail records DNS-only", match: ["mail"] },
    {
      id: "R5",
      text: "Change the nameservers at the registrar one zone at a time, the .co.uk first",
      match: ["registrar"],
    },
    { id: "R6", text: "Proxy the web and API hostnames", match: ["proxy", "hostname"] },
    {
      id: "R7",
      text: "Full (strict) TLS with Cloudflare origin certificates",
      match: ["origin certificate"],
    },
    {
      id: "R8",
      text: "Lock the load balancer's security group to Cloudflare's IP ranges",
      match: ["security group"],
    },
    { id: "R9", text: "The Cloudflare managed ruleset", match: ["managed ruleset"] },
    { id: "R10", text: "A rate limit of 10 requests a minute per IP on /login", match: ["rate limit"] },
    { id: "R11", text: "Block the wp-admin and xmlrpc probes", match: ["block"] },
    { id: "R12", text: "All of it in Terraform with the Cloudflare provider", match: ["Terraform"] },
    {
      id: "R13",
      text: "Keep the Route 53 hosted zones for two weeks for a rollback",
      match: ["rollback"],
    },
  ],
  technologies: ["aws", "cloudfront", "route53", "cloudflare", "terraform"],
  non_goals: [
    { text: "transferring the domains to another registrar", match: ["transfer"] },
    { text: "Cloudflare caching for the storefront", match: ["caching"] },
  ],
  not_work: [
    { text: "the incident narrative", match: ["40-minute"] },
    { text: "the AWS WAF bill", match: ["bill"] },
    { text: "the zone sizes", match: ["120 records"] },
  ],
  sequence: [
    ["R1", "R5"],
    ["R2", "R3", "R5", "R6", "R8"],
  ],
  independent: [
    ["R10", "R11"],
    ["R4", "R13"],
  ],
  inspired_by:
    "https://github.com/thematters/developer-resource/issues/139 (migrate DNS from Route 53 to Cloudflare after DDoS attacks and a costly AWS WAF bill) and https://github.com/DARIAEngineering/dcaf_case_management/issues/2731 (move to Cloudflare: nameservers, then proxying the records to use the WAF)",
};
