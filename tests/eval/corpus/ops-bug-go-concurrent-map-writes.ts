import type { EvalCase } from "../case";

export const opsBugGoConcurrentMapWrites: EvalCase = {
  id: "ops-bug-go-concurrent-map-writes",
  kind: "bug report (Go service panic)",
  work_kind: "bug",
  description: `fatal error: concurrent map writes in the rate limiter under load

### What happened
The gateway crashed twice in production yesterday (14:02 and 17:45 UTC) during traffic peaks. Both times the process died with \`fatal error: concurrent map writes\` and Kubernetes restarted the pod, which dropped every in-flight request (~1,200 502s each time).

### How to reproduce
1. Check out v2.14.3
2. \`go run ./cmd/gateway -config config/dev.yaml\`
3. \`hey -n 200000 -c 500 http://localhost:8080/v1/quotes\`
4. Within a minute or two the process exits

### Stack trace
\`\`\`
fatal error: concurrent map writes

goroutine 4172 [running]:
runtime.throw({0xb9d0a1?, 0x0?})
	/usr/local/go/src/runtime/panic.go:1077 +0x5c
runtime.mapassign_faststr(0xa81f20, 0xc0001a6330, {0xc004e2a1b0, 0xd})
	/usr/local/go/src/runtime/map_faststr.go:223 +0x3e5
github.com/acme/gateway/internal/ratelimit.(*Limiter).Allow(0xc0001a6300, {0xc004e2a1b0, 0xd})
	/build/internal/ratelimit/limiter.go:58 +0x1b2
github.com/acme/gateway/internal/middleware.RateLimit.func1(...)
	/build/internal/middleware/ratelimit.go:31 +0x9e
\`\`\`

### What you expected
No crash; requests over the limit get a 429.

### Environment
- Go 1.22.1, linux/amd64
- gateway v2.14.3, Gin v1.9.1
- 3 replicas behind the cluster's ingress

### Notes
\`Limiter.buckets\` is a plain \`map[string]*bucket\` written from every request goroutine. Fix: guard it with a sync.Mutex (or shard it), and evict idle buckets, because the map also grows forever (one entry per client IP). Please also turn on the race detector (\`-race\`) for the ratelimit and middleware tests in CI so this can't come back.`,
  requirements: [
    { id: "R1", text: "Guard the buckets map with a mutex (or shard it)", match: ["mutex"] },
    { id: "R2", text: "Evict idle buckets so the map stops growing", match: ["evict"] },
    {
      id: "R3",
      text: "Run the ratelimit and middleware tests with the race detector in CI",
      match: ["race"],
    },
  ],
  technologies: ["go", "gin", "kubernetes"],
  non_goals: [],
  not_work: [
    { text: "the stack trace", match: ["mapassign"] },
    { text: "the load-test reproduction step", match: ["hey"] },
    { text: "the environment", match: ["linux/amd64"] },
    { text: "the crash times", match: ["17:45"] },
  ],
  separate: [["R1", "R2"]],
  independent: [["R2", "R3"]],
  inspired_by:
    "https://github.com/gardener/docforge/issues/121 (concurrent map writes panic with stack trace) and https://github.com/bcicen/ctop/issues/25 (fixed with read/write locks)",
};
