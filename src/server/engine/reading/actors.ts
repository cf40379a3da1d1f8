import type { Requirement } from "./types";

/** Who a requirement is for, what they do and why: "As a teacher, I want ...", "Members can ...". */

export const ACTOR_NOUN =
  "users?|customers?|clients?|buyers?|sellers?|admins?|administrators?|managers?|owners?|members?|visitors?|guests?|students?|teachers?|patients?|doctors?|clinicians?|nurses?|staff|employees?|developers?|players?|drivers?|riders?|authors?|editors?|readers?|subscribers?|agents?|operators?|investigators?|coaches?|trainers?|parents?|kids|shoppers?|hosts?|tenants?|landlords?|accountants?|freelancers?|recruiters?|candidates?|moderators?|sponsors?|monitors?|reviewers?|coordinators?|researchers?|analysts?|dispatchers?|technicians?|volunteers?|people|anyone|everyone|the team|team members?";

export const CAN =
  "can|could|should be able to|must be able to|will be able to|are able to|is able to|need to|needs to|want to|wants to|may|should|must|will";

export function actorOf(text: string): Pick<Requirement, "actor" | "action" | "benefit"> {
  const none = { actor: null, action: null, benefit: null };
  const story = text.match(
    /^as an? ([\w -]{2,40}?),? i (?:want|need|would like|can|should be able) (?:to )?(.+?)(?:,? so (?:that )?(.+))?$/i,
  );
  if (story) return { actor: story[1]!.trim(), action: story[2]!.trim(), benefit: story[3]?.trim() ?? null };
  const re = new RegExp(
    `^(?:the |our |all |every |each |logged[- ]in |signed[- ]in |registered |new )?(${ACTOR_NOUN})\\s+(?:${CAN})\\s+(.+)$`,
    "i",
  );
  // "Site coordinators enter CRF data": an actor and a verb in the present, without a modal.
  const plain = new RegExp(
    `^(?:the |our |all |every |each )?(?:[\\w-]+ )?(${ACTOR_NOUN})\\s+(?!(?:are|is|was|were|have|has|had|get|gets|will|would|data|table|list|page|and|or|with|of|in)\\b)([a-z]+\\b.+)$`,
    "i",
  );
  const m = text.match(re) ?? text.match(plain);
  if (!m) return none;
  const [action, benefit] = m[2]!.split(/,?\s+so (?:that )?/i);
  if (!action || action.split(/\s+/).length < 2) return none;
  return { actor: m[1]!.toLowerCase(), action: action.trim(), benefit: benefit?.trim() ?? null };
}
