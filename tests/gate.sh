#!/usr/bin/env bash
# The one gate: installs what a fresh machine lacks, then type-checks, lints, scans the JSX for
# unescaped output, and runs every test (bun's unit/HTTP/contract tests, the Playwright browser
# tests, the bot-detector's detection matrix, the tools matrix of people and spoofers on all 14
# tools, the fault and load tests, the container test), one step after another but for the
# container test, which runs beside the hostile clients' wait. `npm test` runs this; .ci/run runs
# `npm test` with TEST_DATABASE_URL set. (Two busy steps side by side were tried: slower in all,
# and tests timed out; docs/performance.md, "The gate's time".)
# Every step runs even when an earlier one failed; the gate then prints one line per step
# (passed or failed, and its time) and exits non-zero if any failed (issue 36).
set -euo pipefail
cd "$(dirname "$0")/.."
GATE_START=$SECONDS

# The installs: npm's packages (package-lock.json) and what the steps need from Debian, gathered
# first and installed in one apt transaction (one `apt-get update`). They run side by side, and
# the first steps (type check, lint, XSS scan), which need only npm's, run while apt still
# installs: on a fresh machine apt alone takes about 1.5 minutes, npm's about 40 s, the first
# steps about 50 s, and one after the other they cost that much more (docs/performance.md).
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
MISSING=""
need() { MISSING="$MISSING $*"; }

# Debian's Chromium for the browser tests (Playwright cannot download browsers here).
# CHROMIUM_PATH points elsewhere on machines that have their own Chromium.
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM_PATH" ]; then
  if [ "$CHROMIUM_PATH" = /usr/bin/chromium ]; then need chromium; else
    echo "gate: no Chromium at $CHROMIUM_PATH; set CHROMIUM_PATH" >&2
    exit 1
  fi
fi

# The detection matrix also drives Chromium through Debian's chromedriver and shows the people's
# browsers on a virtual display (xvfb). CHROMEDRIVER_PATH points elsewhere where needed.
export CHROMEDRIVER_PATH="${CHROMEDRIVER_PATH:-/usr/bin/chromedriver}"
if [ ! -x "$CHROMEDRIVER_PATH" ] && [ "$CHROMEDRIVER_PATH" != /usr/bin/chromedriver ]; then
  echo "gate: no chromedriver at $CHROMEDRIVER_PATH; set CHROMEDRIVER_PATH" >&2
  exit 1
fi
# The matrix's people include Firefox ESR (FIREFOX_PATH points elsewhere where needed) and a
# German Chromium, which needs Chromium's translations (chromium-l10n) for its de-DE locale.
export FIREFOX_PATH="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
if [ ! -x "$FIREFOX_PATH" ] && [ "$FIREFOX_PATH" != /usr/bin/firefox-esr ]; then
  echo "gate: no Firefox at $FIREFOX_PATH; set FIREFOX_PATH" >&2
  exit 1
fi
[ -x "$CHROMEDRIVER_PATH" ] || need chromium-driver
command -v Xvfb >/dev/null || need xvfb
[ -x "$FIREFOX_PATH" ] || need firefox-esr
# NSS's certutil: the tls-fingerprint browser test adds the HTTPS listener's self-signed
# certificate to a fresh Firefox profile, as a person would import it; and the matrices make a
# test CA (openssl) and install it as each engine trusts CAs (issue 44): Chromium's NSS store
# (certutil), Firefox's enterprise policy, the system store (update-ca-certificates) for WebKit.
command -v certutil >/dev/null || need libnss3-tools
command -v openssl >/dev/null || need openssl
command -v update-ca-certificates >/dev/null || need ca-certificates
if [ "$CHROMIUM_PATH" = /usr/bin/chromium ] && [ ! -e /usr/lib/chromium/locales/de.pak ]; then need chromium-l10n; fi
# WebKit, the third engine: GNOME Web (epiphany-browser, which brings WebKitGTK and its
# MiniBrowser) for the people, started in a D-Bus session of its own (dbus-run-session, from
# dbus-daemon), and WebKitWebDriver (webkit2gtk-driver) for the WebKit automation client.
# EPIPHANY_PATH and MINIBROWSER_PATH point elsewhere where needed.
[ -x "${EPIPHANY_PATH:-/usr/bin/epiphany-browser}" ] || need epiphany-browser
command -v dbus-run-session >/dev/null || need dbus-daemon
command -v WebKitWebDriver >/dev/null || need webkit2gtk-driver
# The people who move the pointer (xdotool on Xvfb) and the Firefox person with Debian's content
# blockers (uBlock Origin, Privacy Badger), issue 25.
command -v xdotool >/dev/null || need xdotool
[ -d "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/uBlock0@raymondhill.net" ] || need webext-ublock-origin-firefox
[ -d "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/jid1-MnnxcxisBPnSXQ@jetpack" ] || need webext-privacy-badger
# Debian's Prometheus (and its promtool): tests/metrics.e2e.ts runs its own from a temp config,
# src/metrics.test.ts checks the exposition with promtool; the system service is never started.
[ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ] || need prometheus
# Debian's unbound, the real recursive resolver the DNS listener's tests run through
# (tests/listeners/dns.test.ts, tests/dns-leak.e2e.ts), issue 7. Only the binary: the tests start
# their own instances from temp configs; the system service is never started.
[ -x /usr/sbin/unbound ] || need unbound
# iproute2's ip: tests/tcp-syn.e2e.ts makes network namespaces and veth pairs for real SYNs (issue 49).
command -v ip >/dev/null || need iproute2
# The container test's podman (runc where cgroups are hybrid, as tests/container/run.sh explains)
# and debootstrap for its stand-in base image; run.sh installs them itself when run alone.
command -v podman >/dev/null || need podman
if [ "$(stat -fc %T /sys/fs/cgroup)" != cgroup2fs ] && ! command -v runc >/dev/null; then need runc; fi
command -v debootstrap >/dev/null || need debootstrap
if [ -n "$MISSING" ] && ! command -v apt-get >/dev/null; then
  echo "gate: the tests need$MISSING; install them" >&2
  exit 1
fi

# `beside ID COMMAND…` runs a command in the background, what it prints kept aside;
# `joined ID` waits for it, prints what it said, and sets JOINED_CODE (its exit) and
# JOINED_SECONDS (its time). The installs, the container test's base and the container test run so.
declare -A BESIDE_PID=() BESIDE_LOG=()
beside() {
  local id="$1" log
  shift
  log="$(mktemp)"
  BESIDE_LOG[$id]="$log"
  (
    t0=$SECONDS code=0
    "$@" || code=$?
    echo "$code $((SECONDS - t0))" >"$log.outcome"
  ) >"$log" 2>&1 &
  BESIDE_PID[$id]=$!
}
joined() {
  local id="$1" log="${BESIDE_LOG[$1]}"
  wait "${BESIDE_PID[$id]}" || true
  unset "BESIDE_PID[$id]"
  cat "$log"
  read -r JOINED_CODE JOINED_SECONDS <"$log.outcome" 2>/dev/null || { JOINED_CODE=1; JOINED_SECONDS=0; }
  rm -f "$log" "$log.outcome"
}

apt_install() { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $SUDO apt-get install -y -qq $MISSING >/dev/null; }
if [ -n "$MISSING" ]; then
  echo "gate: installing Debian's$MISSING (beside npm's packages and the first steps)"
  beside apt apt_install
fi
# Waits for apt; its failure stops the gate, as the steps after it cannot run without it.
APT_SECONDS=0
debian_packages() {
  [ -n "$MISSING" ] || return 0
  joined apt
  APT_SECONDS=$JOINED_SECONDS
  if [ "$JOINED_CODE" -ne 0 ]; then
    echo "gate: installing Debian's packages failed (exit $JOINED_CODE)" >&2
    exit 1
  fi
}
NPM_START=$SECONDS
echo "gate: npm install"
if ! npm install --no-audit --no-fund; then
  echo "gate: npm install failed" >&2
  debian_packages
  exit 1
fi
NPM_SECONDS=$((SECONDS - NPM_START))

# The steps. `step NAME COMMAND…` runs one and records its outcome and time; to add a step, add
# such a line where it belongs. A step's failure is reported at the end and does not stop the
# gate, so one run shows every failure. The installs above still stop it: without them the
# steps cannot run.
BIN=node_modules/.bin
SUMMARY=()
FAILED=0
# Ctrl-C or a kill stops the whole gate, not just the step it is in.
trap 'kill ${BESIDE_PID[base]:-} ${BESIDE_PID[container]:-} 2>/dev/null; echo "gate: interrupted" >&2; exit 130' INT TERM
step() {
  local name="$1" t0=$SECONDS code=0
  shift
  echo "gate: $name"
  "$@" || code=$?
  record "$name" "$code" $((SECONDS - t0))
}
# `record NAME EXIT SECONDS`: a step's outcome, for a step run in the background.
record() {
  local name="$1" code="$2" took="$3" outcome=passed
  if [ "$code" -ne 0 ]; then
    outcome="failed"
    FAILED=$((FAILED + 1))
    echo "gate: $name failed (exit $code); going on with the next step" >&2
  fi
  SUMMARY+=("$(printf '%-6s %3d:%02d  %s' "$outcome" $((took / 60)) $((took % 60)) "$name")")
}

step "type check" "$BIN/tsc" --noEmit
step "lint (Biome, biome.jsonc)" "$BIN/biome" lint .
step "XSS scan of the JSX" "$BIN/xss-scan" --project tsconfig.json
APT_WAIT_START=$SECONDS
debian_packages
APT_WAITED=$((SECONDS - APT_WAIT_START))
# The container test's base image, where it has to be made (a fresh machine with no registry:
# debootstrap and an import: about 50 s of one core here), is made in the background beside the
# unit tests, which leave some of the second core idle; the container test waits for it and
# prints what it said.
# It needs Debian's debootstrap, so it starts once apt is done.
beside base bash tests/container/run.sh --base-only
# `npm run test:unit`: bun test with its per-test timeout (bunfig.toml says why it is there).
step "unit, HTTP and database tests" npm run --silent test:unit
# Real service processes: two instances on one PostgreSQL, PostgreSQL restarted under load (on
# a private cluster), an ingest burst (two files at a time: each one's load is the other's busy
# machine, which their bounds allow for).
step "fault and load tests" npm run --silent test:faults:load
# Then the hostile clients (tests/faults/hostile.fault.ts: some 90 s, most of it waiting while its
# clients hold connections) and, beside them, the container image built with podman from the
# Containerfile and run as a user would (tests/container/run.sh, under a minute here; the
# stand-in base image, where no registry answers, made beside the unit tests, above). The
# hostile test counts its service's file pages in full (RSS), which no other bun process moves;
# the container's service runs a bun binary of its own image.
joined base
[ "$JOINED_CODE" -eq 0 ] || echo "gate: making the container test's base failed (exit $JOINED_CODE); the container test tries again" >&2
beside container npm run --silent test:container
step "hostile clients (tests/faults/hostile.fault.ts)" npm run --silent test:faults:hostile
echo "gate: container test (tests/container/run.sh), beside the hostile clients"
joined container
[ "$JOINED_CODE" -eq 0 ] || echo "gate: container test (tests/container/run.sh) failed (exit $JOINED_CODE)" >&2
record "container test (tests/container/run.sh), beside the hostile clients" "$JOINED_CODE" "$JOINED_SECONDS"
step "browser tests (Playwright, $CHROMIUM_PATH)" npm run --silent test:e2e
step "detection matrix (tests/matrix/run.ts)" "$BIN/bun" tests/matrix/run.ts
step "tools matrix (tests/matrix/tools.ts: people and spoofers on all 14 tools)" "$BIN/bun" tests/matrix/tools.ts

total=$((SECONDS - GATE_START))
echo
echo "gate: summary"
printf 'gate: %-6s %3d:%02d  %s\n' done $((NPM_SECONDS / 60)) $((NPM_SECONDS % 60)) "npm install"
if [ -n "$MISSING" ]; then
  printf 'gate: %-6s %3d:%02d  %s\n' done $((APT_SECONDS / 60)) $((APT_SECONDS % 60)) "Debian packages the steps need (beside npm and the first steps; the gate waited $APT_WAITED s more for them)"
else
  printf 'gate: %-6s %3d:%02d  %s\n' done 0 0 "Debian packages the steps need (all there already)"
fi
for line in "${SUMMARY[@]}"; do echo "gate: $line"; done
printf 'gate: %-6s %3d:%02d  %s\n' total $((total / 60)) $((total % 60)) "$([ "$FAILED" -eq 0 ] && echo "every step passed" || echo "$FAILED of ${#SUMMARY[@]} steps failed")"
[ "$FAILED" -eq 0 ] || exit 1
