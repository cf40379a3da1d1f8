import type { EvalCase } from "../../case";

export const hoSpringBoot3Upgrade: EvalCase = {
  id: "ho-spring-boot-3-upgrade",
  kind: "framework upgrade with ordered numbered steps (Spring Boot 2.7 to 3.2)",
  work_kind: "migration",
  description: `Spring Boot 2.7 to 3.2 for clinic-api

2.7 has been out of open-source support since November and the last two CVE fixes we need are only in 3.x. Order matters here: each step is merged and deployed to staging before the next one starts.

1. While still on 2.7, move the security config off WebSecurityConfigurerAdapter to a SecurityFilterChain bean, and replace antMatchers with requestMatchers.
2. Java 11 to Java 17: the build image, the CI runners and the production base image.
3. Bump to Spring Boot 3.2 and replace every javax.* import with jakarta.* (persistence, validation, servlet). Bump Flyway and the OpenAPI docs library to the versions that go with it.
4. Hibernate 6: we use the SEQUENCE id strategy, so configure it to keep using hibernate_sequence, or new rows get duplicate ids. Fix the two native queries that break.
5. In application.yml, spring.redis.* becomes spring.data.redis.*.
6. A full regression run against a copy of production data, then release to production.

We stay on Maven; moving to Gradle is a separate discussion.`,
  repository_summary: `clinic-api: a Spring Boot 2.7 REST API (Java 11) for a group of veterinary clinics, on PostgreSQL with Redis for caching, built with Maven.`,
  requirements: [
    { id: "R1", text: "Security config on a SecurityFilterChain bean", match: ["SecurityFilterChain"] },
    { id: "R2", text: "Replace antMatchers with requestMatchers", match: ["requestMatchers"] },
    {
      id: "R3",
      text: "Java 17 for the build image, CI runners and production base image",
      match: ["Java 17"],
    },
    { id: "R4", text: "Bump to Spring Boot 3.2", match: ["3.2"] },
    { id: "R5", text: "Replace javax.* imports with jakarta.*", match: ["jakarta"] },
    { id: "R6", text: "Bump Flyway and the OpenAPI docs library", match: ["Flyway"] },
    { id: "R7", text: "Keep ids on hibernate_sequence under Hibernate 6", match: ["hibernate_sequence"] },
    { id: "R8", text: "Fix the two native queries that break", match: ["native quer"] },
    { id: "R9", text: "Move spring.redis.* to spring.data.redis.*", match: ["spring.data.redis"] },
    { id: "R10", text: "A full regression run against a copy of production data", match: ["regression"] },
    { id: "R11", text: "Release to production", match: ["release"] },
  ],
  technologies: ["spring", "java", "flyway", "hibernate", "maven", "gradle", "postgresql", "redis"],
  non_goals: [{ text: "moving to Gradle", match: ["Gradle"] }],
  not_work: [
    { text: "end of open-source support", match: ["November"] },
    { text: "the CVE fixes as motivation", match: ["CVE"] },
  ],
  sequence: [
    ["R1", "R3", "R4", "R7", "R9", "R10", "R11"],
    ["R2", "R3"],
    ["R3", "R5", "R7"],
    ["R3", "R6", "R7"],
    ["R5", "R8", "R9"],
  ],
  independent: [
    ["R7", "R8"],
    ["R1", "R2"],
  ],
  inspired_by:
    "https://github.com/eclipse-hawkbit/hawkbit/issues/1383, https://github.com/apache/streampipes/issues/1015 and https://github.com/Alovoa/alovoa/pull/272 (staged Spring Boot 3 migrations)",
};
