import type { EvalCase } from "../case";

export const moreMigSpringBoot3: EvalCase = {
  id: "more-mig-spring-boot-3",
  kind: "framework upgrade with ordered steps (Spring Boot 2.7 to 3.2)",
  work_kind: "migration",
  description: `Upgrade the claims service from Spring Boot 2.7 to 3.2

Open-source support for Spring Boot 2.7 has ended, and the last two CVE fixes we needed were only released for 3.x. The claims service is about 60k lines of Java 11, built with Maven, with Hibernate 5 behind Spring Data repositories, Spring Security 5.7 configured through WebSecurityConfigurerAdapter, 1,400 JUnit 5 tests, and it runs on Kubernetes from a Docker image.

Steps, in this order, one PR each, and the build green before the next one starts:
1. Move the build and the runtime image to Java 17 while still on Boot 2.7.
2. Upgrade to the latest 2.7.x and fix every deprecation warning in the compile log.
3. Move the security config to the Spring Security 5.8 style: a SecurityFilterChain bean instead of WebSecurityConfigurerAdapter, requestMatchers instead of antMatchers.
4. Rename the javax.* imports to jakarta.* (persistence, validation, servlet) in one scripted commit, and bump the libraries that need their jakarta builds.
5. Bump to Spring Boot 3.2 and fix what Hibernate 6 breaks: the dialect setting, the implicit joins in our 35 HQL queries, and the sequence naming.
6. Deploy to staging, run the load test and compare p95 latency with the 2.7 build.
7. Roll out to production behind the usual canary.

Done when production runs 3.2, the compile log has no deprecation warnings and p95 is within 10% of today.

Not part of this: virtual threads, and native images.`,
  requirements: [
    { id: "R1", text: "Move the build and the runtime image to Java 17", match: ["Java 17"] },
    {
      id: "R2",
      text: "Upgrade to the latest 2.7.x and fix every deprecation warning",
      match: ["deprecation"],
    },
    {
      id: "R3",
      text: "Security config in the Spring Security 5.8 style (SecurityFilterChain)",
      match: ["security"],
    },
    { id: "R4", text: "Rename javax.* imports to jakarta.*", match: ["jakarta"] },
    { id: "R5", text: "Bump to Spring Boot 3.2", match: ["Boot 3.2"] },
    { id: "R6", text: "Fix what Hibernate 6 breaks", match: ["Hibernate"] },
    { id: "R7", text: "Load test on staging, comparing p95 with the 2.7 build", match: ["load test"] },
    { id: "R8", text: "Roll out to production behind the canary", match: ["production"] },
  ],
  technologies: ["java", "spring", "hibernate", "docker", "kubernetes", "junit", "maven"],
  non_goals: [
    { text: "virtual threads", match: ["virtual thread"] },
    { text: "native images", match: ["native image"] },
  ],
  not_work: [
    { text: "the rationale", match: ["CVE"] },
    { text: "the size of the service", match: ["60k"] },
    { text: "the size of the test suite", match: ["1,400"] },
  ],
  sequence: [["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]],
  inspired_by:
    "https://github.com/eclipse-hawkbit/hawkbit/issues/1383 (migrate to Spring Boot 3: do what is possible on 2.7 first, then switch) and https://github.com/apache/streampipes/issues/1015 (bump Spring Security 5.8, Java 17, javax to jakarta, Spring Boot 3 in steps)",
};
