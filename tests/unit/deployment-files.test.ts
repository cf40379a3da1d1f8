import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { renderNginxConf } from "../support/nginx";

/**
 * The files people deploy with (issue 45): compose.yaml and the proxy's deploy/nginx.conf. What this
 * machine cannot run (Docker) is read here; what it can (the same processes, PostgreSQL and nginx with this
 * configuration) runs in tests/processes/scale-out.pg.test.ts, and the image in `npm run test:container`.
 */
type Service = {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
};
const compose = parse(readFileSync("compose.yaml", "utf8"), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const apps = Object.entries(compose.services).filter(([name]) => /^app\d+$/.test(name));

describe("compose.yaml", () => {
  it("runs three Atomize processes of one build on one PostgreSQL, sharing the key and the data folder", () => {
    expect(apps.map(([name]) => name)).toEqual(["app1", "app2", "app3"]);
    for (const [, app] of apps) {
      expect(app.build).toBe(".");
      expect(app.image).toBe("atomize");
      expect(app.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(app.environment?.CREDENTIALS_KEY).toMatch(/^\$\{CREDENTIALS_KEY:\?/);
      expect(app.environment?.TRUST_PROXY).toBe("true");
      expect(app.volumes).toEqual(["appdata:/data"]);
      expect(app.depends_on?.postgres?.condition).toBe("service_healthy");
      expect(app.healthcheck?.test.join(" ")).toContain("/readyz");
    }
    expect(Object.keys(compose.volumes).sort()).toEqual(["appdata", "pgdata"]);
    expect(compose.services.postgres?.healthcheck?.test.join(" ")).toContain("pg_isready");
  });

  it("puts nginx with deploy/nginx.conf in front, started once every process is healthy", () => {
    const proxy = compose.services.proxy!;
    expect(proxy.volumes).toEqual(["./deploy/nginx.conf:/etc/nginx/nginx.conf:ro"]);
    expect(proxy.ports).toEqual(["8080:8080"]);
    expect(Object.keys(proxy.depends_on ?? {})).toEqual(apps.map(([name]) => name));
  });
});

describe("deploy/nginx.conf", () => {
  const conf = readFileSync("deploy/nginx.conf", "utf8");

  it("names every compose process as an upstream, passes WebSocket upgrades and the browser's Host", () => {
    for (const [name] of apps) expect(conf).toContain(`server ${name}:8080`);
    expect(conf).toContain("proxy_set_header Upgrade $http_upgrade;");
    expect(conf).toContain("proxy_set_header Host $http_host;");
    expect(conf).toMatch(/proxy_next_upstream error timeout/);
  });

  it("is rendered for loopback by the scale-out test, and refuses a file whose markers are gone", () => {
    const local = renderNginxConf(conf, [4001, 4002], 4000);
    expect(local).toContain("server 127.0.0.1:4001 max_fails=1 fail_timeout=5s;");
    expect(local).toContain("listen 127.0.0.1:4000;");
    expect(local).not.toMatch(/server app\d/);
    expect(() => renderNginxConf(conf.replace("# upstream servers", "# upstreams"), [4001], 4000)).toThrow(
      /markers/,
    );
  });
});
