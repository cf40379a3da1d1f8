# shellcheck shell=bash
# Source this file (`source scripts/use-node.sh`): when this machine's Node.js is older than 22, it puts
# Node.js 24 LTS on this shell's PATH, installed from the npm registry's own build of Node (the package
# `node-<platform>-<arch>`, which holds the official binary and runs no install script) into `.tools/`.
# Atomize needs Node 22 or newer (docs/decisions/040-node-24-and-the-container.md); CI sources this too.
ATOMIZE_NODE_VERSION=24.21.0
atomize_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(atomize_node_major)" -lt 22 ]; then
  atomize_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  atomize_platform="$(uname -s | tr '[:upper:]' '[:lower:]')"
  case "$(uname -m)" in x86_64) atomize_arch=x64 ;; aarch64 | arm64) atomize_arch=arm64 ;; *) atomize_arch="$(uname -m)" ;; esac
  atomize_package="node-$atomize_platform-$atomize_arch"
  atomize_bin="$atomize_root/.tools/node_modules/$atomize_package/bin"
  if [ "$("$atomize_bin/node" -v 2>/dev/null)" != "v$ATOMIZE_NODE_VERSION" ]; then
    echo "Node.js $(node -v 2>/dev/null || echo "(none)") is older than 22: installing Node.js $ATOMIZE_NODE_VERSION from the npm registry into .tools/"
    npm install --prefix "$atomize_root/.tools" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "$atomize_package@$ATOMIZE_NODE_VERSION" >/dev/null || return 1 2>/dev/null || exit 1
  fi
  export PATH="$atomize_bin:$PATH"
  unset atomize_root atomize_platform atomize_arch atomize_package atomize_bin
fi
unset -f atomize_node_major
echo "Node.js $(node -v), npm $(npm -v)"
