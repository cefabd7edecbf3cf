#!/bin/sh
# Refresh src/stoptable/web/vendor/ from the npm registry (make vendor). The running server
# needs no Node: the files below are committed. Versions are pinned in web/vendor/VERSIONS.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dest="$here/src/stoptable/web/vendor"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent socket.io-client@4
mods="$work/node_modules"
cp "$mods/socket.io-client/dist/socket.io.esm.min.js" "$dest/socket.io.esm.min.js"
mkdir -p "$dest/licenses"
# The ESM bundle contains socket.io-client and the packages it bundles.
for pkg in socket.io-client engine.io-client engine.io-parser socket.io-parser @socket.io/component-emitter; do
    name=$(echo "$pkg" | tr '/@' '-_')
    cp "$mods/$pkg/LICENSE" "$dest/licenses/$name.LICENSE"
done
{
    echo "# written by scripts/vendor.sh (make vendor); do not edit"
    for pkg in socket.io-client engine.io-client engine.io-parser socket.io-parser @socket.io/component-emitter; do
        node -e "const p=require('$mods/$pkg/package.json'); console.log(p.name + ' ' + p.version + ' ' + p.license)"
    done
} > "$dest/VERSIONS"
echo "vendored into $dest"
