import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The dev server proxies every server-owned path to the Hono process, so the SPA keeps same-origin cookies.
const api = `http://localhost:${process.env.PORT ?? 8080}`;

// `vite build` builds the browser's client into dist/client, with a manifest the server reads to preload
// a page's chunks; `vite build --ssr` builds the server renderer (src/client/entry-server.tsx) into dist/ssr.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: isSsrBuild ? "dist/ssr" : "dist/client",
    emptyOutDir: true,
    sourcemap: true,
    manifest: !isSsrBuild,
  },
  server: {
    port: 5173,
    proxy: {
      "/trpc": { target: api, ws: true },
      "/api": { target: api },
      "/ws": { target: api, ws: true },
      "/healthz": { target: api },
      "/readyz": { target: api },
      "/sitemap.xml": { target: api },
      "/robots.txt": { target: api },
    },
  },
}));
