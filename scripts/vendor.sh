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
npm install --no-audit --no-fund --silent socket.io-client@4.8.4 axe-core@4
mods="$work/node_modules"
cp "$mods/socket.io-client/dist/socket.io.esm.min.js" "$dest/socket.io.esm.min.js"
# axe-core: the accessibility checker the browser tests inject (never served to players'
# pages by the app's HTML; tests/web add it with Playwright's add_script_tag).
cp "$mods/axe-core/axe.min.js" "$dest/axe.min.js"
mkdir -p "$dest/licenses"
cp "$mods/axe-core/LICENSE" "$dest/licenses/axe-core.LICENSE"
# The ESM bundle contains socket.io-client and the packages it bundles.
for pkg in socket.io-client engine.io-client engine.io-parser socket.io-parser @socket.io/component-emitter; do
    name=$(echo "$pkg" | tr '/@' '-_')
    cp "$mods/$pkg/LICENSE" "$dest/licenses/$name.LICENSE"
done
{
    echo "# written by scripts/vendor.sh (make vendor); do not edit"
    for pkg in socket.io-client engine.io-client engine.io-parser socket.io-parser @socket.io/component-emitter axe-core; do
        node -e "const p=require('$mods/$pkg/package.json'); console.log(p.name + ' ' + p.version + ' ' + p.license)"
    done
} > "$dest/VERSIONS"
echo "vendored into $dest"
