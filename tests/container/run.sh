#!/usr/bin/env bash
# The container test (`npm run test:container`): builds the image from the Containerfile with
# the documented command, runs it as a user would, in a 256 MB container (`--memory 256m`, no
# swap; issue 61) on a new volume, and checks that it works:
#   - what the image holds: Bun of the base only (no npm `bun` package), no TypeScript or type
#     packages, the IP database's tables, at most 300 MB, a HEALTHCHECK, uid 1000;
#   - /healthz over HTTP and HTTPS (the self-signed certificate the service makes in /data/tls);
#   - the image's health check (`podman healthcheck run`);
#   - the operator CLI inside the container, both documented ways (`bun run admin -- …` and
#     `bun src/cli/admin.ts …`): list the plans, create a key;
#   - a tool page in headless Chromium from the host (`npm run scan`: data-task, then the task
#     read back with the key);
#   - 15 s of task submissions and keyed fetches (tests/container/submissions.ts), every one
#     answered 2xx; then still healthy, never OOM-killed, never restarted (the peak PSS of the
#     service's processes since the start, tests/container/pss-peak.ts, is printed);
#   - a new container on the same volume: the task, the key, the signing key and the
#     certificate are still there;
#   - a third container on that volume while the second runs: it stops at once, saying the
#     DATA_DIR is in use and by whom, and the second keeps its task (issue 45).
# Then it removes what it made (containers, volume, image); the base image is kept.
#
# The base is the FROM image. Where it is not present and no registry answers (this machine
# reaches only npm and Debian's packages), tests/container/stand-in-base.sh makes a faithful
# local stand-in under the same name (a few minutes, once: the image is kept).
#
# `--measure` also prints the service's memory at idle and under a bounded load
# (docs/operations.md#memory); nothing is asserted about it. `--base-only` makes the base image
# (below) and stops: the gate runs that beside its first steps (tests/gate.sh).
#
# This machine's quirks are handled here, never in the Containerfile: cgroups in hybrid mode
# (crun refuses them, runc runs), rlimits the sandbox will not raise, the package proxy's
# certificate for `bun install`, and no systemd for podman's health-check timers.
set -euo pipefail
cd "$(dirname "$0")/../.."

MEASURE=0
BASE_ONLY=0
for a in "$@"; do
  case "$a" in
    --measure) MEASURE=1 ;;
    --base-only) BASE_ONLY=1 ;;
    *) echo "usage: npm run test:container [-- --measure | --base-only]" >&2; exit 2 ;;
  esac
done

started=$SECONDS
step() { echo "container: [$((SECONDS - started))s] $*"; }
fail() { echo "container: FAIL: $*" >&2; exit 1; }

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
apt_install() {
  command -v apt-get >/dev/null || fail "missing$*; install them"
  step "installing Debian's$*"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# cgroup v1 or hybrid (a cgroup2 hierarchy beside v1 controllers): crun, which Debian's podman
# prefers, stops with "cgroups in hybrid mode not supported"; runc runs there.
HYBRID=0; [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] || HYBRID=1
MISSING=""
command -v podman >/dev/null || MISSING="$MISSING podman"
if [ "$HYBRID" = 1 ] && ! command -v runc >/dev/null; then MISSING="$MISSING runc"; fi
[ -z "$MISSING" ] || apt_install $MISSING
PODMAN=(podman)
[ "$HYBRID" = 1 ] && PODMAN+=(--runtime runc)
# Without systemd podman cannot schedule health checks (it says so on every run and removal);
# this test runs the check itself with `podman healthcheck run`, so those lines are dropped.
pm() {
  if [ -S /run/systemd/private ]; then "${PODMAN[@]}" "$@"; else
    "${PODMAN[@]}" "$@" 2> >(grep -v 'unable to get systemd connection' >&2)
  fi
}

# The host side: Bun and Playwright from the project's devDependencies, Debian's Chromium.
[ -x node_modules/.bin/bun ] || npm install --no-audit --no-fund
BUN=node_modules/.bin/bun
json_field() { "$BUN" -e "const v = JSON.parse(await Bun.stdin.text()); console.log(v$1)"; }
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM_PATH" ]; then
  [ "$CHROMIUM_PATH" = /usr/bin/chromium ] || fail "no Chromium at $CHROMIUM_PATH; set CHROMIUM_PATH"
  apt_install chromium
fi
command -v curl >/dev/null || apt_install curl
command -v openssl >/dev/null || apt_install openssl

# --- the base image --------------------------------------------------------------------------
BASE="$(awk 'toupper($1) == "FROM" { print $2; exit }' Containerfile)"
if pm image exists "$BASE"; then
  step "base $BASE is here"
elif pm pull -q "$BASE" >/dev/null 2>&1; then
  step "base $BASE pulled"
else
  step "base $BASE: no registry answers; making the local stand-in (tests/container/stand-in-base.sh)"
  command -v debootstrap >/dev/null || apt_install debootstrap
  [ "$(id -u)" -eq 0 ] || fail "making the stand-in base needs root (debootstrap, chroot)"
  bash tests/container/stand-in-base.sh "$BASE"
fi
# `--base-only`: just the base, which the gate has made while its first steps run.
[ "$BASE_ONLY" = 0 ] || exit 0

# rlimits: podman asks for more open files and processes than this sandbox grants (runc:
# "error setting rlimits … operation not permitted"). Then ask for the host's own hard limits;
# the sandbox refuses more processes than kernel.pid_max even below the hard limit.
RUN_OPTS=()
probe() { pm run --rm "$@" "$BASE" true 2>&1; }
if ! out="$(probe)"; then
  grep -q rlimit <<<"$out" || fail "podman cannot run $BASE: $out"
  nofile="$(ulimit -Hn)"; nproc="$(ulimit -Hu)"; pid_max="$(cat /proc/sys/kernel/pid_max)"
  [ "$nofile" = unlimited ] && nofile=1048576
  if [ "$nproc" = unlimited ] || [ "$nproc" -gt "$pid_max" ]; then nproc="$pid_max"; fi
  RUN_OPTS=(--ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")
  out="$(probe "${RUN_OPTS[@]}")" || fail "podman cannot run $BASE even with ${RUN_OPTS[*]}: $out"
  step "rlimits set for this sandbox: ${RUN_OPTS[*]}"
fi

# --- build -----------------------------------------------------------------------------------
TAG="localhost/antibot-container-test:$$"
NAME="antibot-container-test-$$"
VOLUME="antibot-container-test-$$"
TMP="$(mktemp -d)"
cleanup() {
  set +e
  [ -z "${PSS_WATCH:-}" ] || kill "$PSS_WATCH" 2>/dev/null
  pm rm -f -t 2 "$NAME" "$NAME-2" >/dev/null 2>&1
  pm volume rm -f "$VOLUME" >/dev/null 2>&1
  pm rmi -f "$TAG" >/dev/null 2>&1
  rm -rf "$TMP"
}
trap cleanup EXIT

# The package proxy's certificate: where the host trusts an extra CA for the registry
# (NODE_EXTRA_CA_CERTS, or npm's cafile), `bun install` in the build must trust it too. Bun reads
# it from a bunfig: a build-time HOME for root with one, and the CA under /dev (a tmpfs in RUN
# steps), so that neither leaves a trace in the image.
BUILD_OPTS=()
ca="${NODE_EXTRA_CA_CERTS:-}"
[ -n "$ca" ] || ca="$(npm config get cafile 2>/dev/null || true)"
if [ -n "$ca" ] && [ "$ca" != null ] && [ "$ca" != undefined ] && [ -f "$ca" ]; then
  mkdir -p "$TMP/root"
  printf '[install]\ncafile = "/dev/antibot-build-ca.pem"\n' >"$TMP/root/.bunfig.toml"
  BUILD_OPTS+=(-v "$ca:/dev/antibot-build-ca.pem:ro" -v "$TMP/root:/root")
fi

step "podman build --format docker -t $TAG -f Containerfile ."
pm build -q --pull=never --format docker -t "$TAG" "${BUILD_OPTS[@]}" "${RUN_OPTS[@]}" -f Containerfile . >"$TMP/build.log" 2>&1 ||
  { tail -n 40 "$TMP/build.log" >&2; fail "the image did not build"; }

size="$(pm image inspect --format '{{.Size}}' "$TAG")"
step "image size $((size / 1000000)) MB"
[ "$size" -le 300000000 ] || fail "the image is $((size / 1000000)) MB, over 300 MB"
# (podman 4.3's --format cannot reach an image's Healthcheck, so the JSON is read.)
[ "$(pm image inspect "$TAG" | json_field '[0].Healthcheck?.Test?.length ?? 0')" -gt 0 ] || fail "the image has no HEALTHCHECK"

inside() { pm run --rm "${RUN_OPTS[@]}" --entrypoint sh "$TAG" -c "$1"; }
contents="$(inside 'bun --version; which -a bun; id -u; ls node_modules node_modules/@types node_modules/@oven 2>&1; ls node_modules/.bin; ls node_modules/@ip-location-db/*/')"
grep -qx '1.4.5' <<<"$contents" || fail "Bun in the image is not 1.4.5: $contents"
[ "$(grep -c '/bun$' <<<"$contents")" = 1 ] || fail "more than one bun on PATH: $contents"
grep -qx 1000 <<<"$contents" || fail "the image does not run as uid 1000"
for pkg in bun typescript bun-types @oven; do
  ! grep -qx "$pkg" <<<"$contents" || fail "the image holds node_modules/$pkg"
done
grep -q "cannot access 'node_modules/@types'" <<<"$contents" || fail "the image holds node_modules/@types"
for f in asn-ipv4-num.csv asn-ipv6-num.csv geo-whois-asn-country-ipv4-num.csv geo-whois-asn-country-ipv6-num.csv; do
  grep -qx "$f" <<<"$contents" || fail "the image lacks the IP database's $f"
done

# --- run -------------------------------------------------------------------------------------
# The memory a small container has (docs/operations.md#memory). --memory-swap the same: no swap.
MEMORY="${CONTAINER_MEMORY:-256m}"
PSS_WATCH=""
ADMIN_TOKEN="ct-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
start() { # name: the documented run, with ports on free loopback ports
  pm run -d --name "$1" "${RUN_OPTS[@]}" --memory "$MEMORY" --memory-swap "$MEMORY" -p 127.0.0.1::3000 -p 127.0.0.1::3443 \
    -v "$VOLUME:/data" -e ADMIN_TOKEN="$ADMIN_TOKEN" "$TAG" >/dev/null
  # The service's processes' memory from now on (PSS summed; printed by not_killed).
  "$BUN" tests/container/pss-peak.ts "$(pm inspect -f '{{.State.Pid}}' "$1")" >"$TMP/$1.pss" &
  PSS_WATCH=$!
  HTTP_PORT="$(pm port "$1" 3000/tcp | sed -n '1s/.*://p')"
  HTTPS_PORT="$(pm port "$1" 3443/tcp | sed -n '1s/.*://p')"
  local t0=$SECONDS
  until curl -fs -m 2 -o /dev/null "http://127.0.0.1:$HTTP_PORT/healthz"; do
    [ "$(pm inspect -f '{{.State.Running}}' "$1")" = true ] || { pm logs "$1" >&2; fail "$1 exited: $(pm inspect -f 'OOMKilled {{.State.OOMKilled}}, exit code {{.State.ExitCode}}' "$1")"; }
    [ $((SECONDS - t0)) -lt 180 ] || { pm logs "$1" >&2; fail "$1 did not answer /healthz within 180 s"; }
    sleep 1
  done
  step "$1 answers on 127.0.0.1:$HTTP_PORT (HTTP) and :$HTTPS_PORT (HTTPS) after $((SECONDS - t0)) s"
  if [ "$MEASURE" = 1 ]; then
    echo "memory: at the first answer $(awk '/^VmRSS/ { printf "%d MB", $2 / 1024 }' "/proc/$(pm inspect -f '{{.State.Pid}}' "$1")/status")"
  fi
}
not_killed() { # name: running, never OOM-killed or restarted; prints the memory cgroup's peak
  local state
  state="$(pm inspect -f '{{.State.Running}} {{.State.OOMKilled}} {{.RestartCount}}' "$1")"
  [ "$state" = "true false 0" ] || { pm logs "$1" 2>&1 | tail -n 20 >&2; fail "$1: running, OOM-killed, restarts = $state"; }
  # cgroup v1 (this machine) keeps the peak; cgroup v2 has memory.peak only on newer kernels.
  local cg dir peak="" now=""
  cg="$(awk -F: '$2 == "memory" || $2 == "" { print $3; exit }' "/proc/$(pm inspect -f '{{.State.Pid}}' "$1")/cgroup")"
  for d in "/sys/fs/cgroup/memory$cg" "/sys/fs/cgroup$cg"; do
    [ -r "$d/memory.stat" ] && { dir="$d"; break; }
  done
  if [ -n "${dir:-}" ]; then
    for f in "$dir/memory.max_usage_in_bytes" "$dir/memory.peak"; do
      [ -r "$f" ] && { peak="$(($(cat "$f") / 1048576)) MB"; break; }
    done
    # What the cgroup holds now: anonymous memory (the processes' own) and page cache (droppable).
    now="$(awk '$1 == "rss" || $1 == "anon" { a = $2 } $1 == "cache" || $1 == "file" { c = $2 } END { printf "; now %d MB anonymous, %d MB page cache", a / 1048576, c / 1048576 }' "$dir/memory.stat")"
  fi
  kill "$PSS_WATCH" && wait "$PSS_WATCH" || true
  step "$1: running, not OOM-killed, no restart; the service's processes peaked at $(cat "$TMP/$1.pss") PSS; the memory cgroup (page cache included) at ${peak:-unknown} of $MEMORY$now"
}
check_health() { # name
  local body
  body="$(curl -fsS -m 5 "http://127.0.0.1:$HTTP_PORT/healthz")" || fail "HTTP /healthz failed"
  [ "$body" = '{"status":"ok","database":"ok"}' ] || fail "HTTP /healthz said $body"
  body="$(curl -fsS -k -m 5 "https://127.0.0.1:$HTTPS_PORT/healthz")" || fail "HTTPS /healthz failed"
  [ "$body" = '{"status":"ok","database":"ok"}' ] || fail "HTTPS /healthz said $body"
  pm healthcheck run "$1" >/dev/null || fail "podman healthcheck run $1: unhealthy"
  step "$1: /healthz 200 over HTTP and HTTPS; podman healthcheck run: healthy"
}
cert_fingerprint() {
  openssl s_client -connect "127.0.0.1:$HTTPS_PORT" </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256
}

start "$NAME"
[ "$(pm exec "$NAME" id -u)" = 1000 ] || fail "the service does not run as uid 1000"
check_health "$NAME"

plans="$(pm exec "$NAME" bun run admin -- plans 2>/dev/null)" || fail "bun run admin -- plans failed"
grep -q '"name": "free"' <<<"$plans" || fail "bun run admin -- plans printed $plans"
created="$(pm exec "$NAME" bun src/cli/admin.ts key create --email container-test@example.com --plan free)" ||
  fail "bun src/cli/admin.ts key create failed"
KEY="$(json_field .key <<<"$created")"
[[ "$KEY" == ab_* ]] || fail "key create printed $created"
step "operator CLI in the container: bun run admin -- plans, bun src/cli/admin.ts key create"

scanned="$("$BUN" src/cli/scan.ts bot-detector --key "$KEY" --base-url "http://127.0.0.1:$HTTP_PORT")" ||
  fail "npm run scan against the container failed"
TASK="$(json_field .task_id <<<"$scanned")"
[ "$(json_field .tool <<<"$scanned")" = bot-detector ] || fail "scan printed $scanned"
step "tool page in Chromium: data-task $TASK, read back with the key"

# A key on a plan whose monthly limit the fetches do not reach.
LOAD_KEY="$(pm exec "$NAME" bun src/cli/admin.ts key create --email container-load@example.com --plan business | json_field .key)"
"$BUN" tests/container/submissions.ts --base-url "http://127.0.0.1:$HTTP_PORT" --key "$LOAD_KEY" --seconds 15 ||
  fail "submissions and keyed fetches against the container were not all answered"
check_health "$NAME"
not_killed "$NAME"

jwks="$(curl -fsS "http://127.0.0.1:$HTTP_PORT/.well-known/jwks.json")"
cert="$(cert_fingerprint)"
[ -n "$cert" ] || fail "no certificate on the HTTPS port"

if [ "$MEASURE" = 1 ]; then
  step "measuring memory (idle, then under load)"
  load_key="$(pm exec "$NAME" bun src/cli/admin.ts key create --email container-load@example.com --plan business | json_field .key)"
  "$BUN" tests/container/measure.ts --base-url "http://127.0.0.1:$HTTP_PORT" --key "$load_key" \
    --pid "$(pm inspect -f '{{.State.Pid}}' "$NAME")"
  pm stats --no-stream --format 'container: podman stats: {{.MemUsage}} memory (cgroup), {{.PIDs}} pids' "$NAME"
fi

# --- a new container on the same volume ------------------------------------------------------
pm stop -t 20 "$NAME" >/dev/null
grep -q 'SIGTERM: draining and closing' <<<"$(pm logs "$NAME" 2>&1)" || fail "$NAME did not stop on SIGTERM"
pm rm "$NAME" >/dev/null
step "stopped $NAME (SIGTERM); starting $NAME-2 on volume $VOLUME"
start "$NAME-2"
check_health "$NAME-2"
fetched="$(curl -fsS -H "Authorization: Bearer $KEY" "http://127.0.0.1:$HTTP_PORT/api/antibot/tasks/$TASK")" ||
  fail "the task or the key did not survive the restart"
[ "$(json_field .task_id <<<"$fetched")" = "$TASK" ] || fail "after the restart the task read $fetched"
[ "$(curl -fsS "http://127.0.0.1:$HTTP_PORT/.well-known/jwks.json")" = "$jwks" ] || fail "the signing key changed across the restart"
[ "$(cert_fingerprint)" = "$cert" ] || fail "the self-signed certificate changed across the restart"
pm exec "$NAME-2" bun run admin -- key show "$(json_field .id <<<"$created")" >/dev/null 2>&1 || fail "key show after the restart failed"
step "after the restart: the task, the key, the signing key and the certificate are the same"

# --- a second container on the volume in use (issue 45): it stops at once, naming the holder --
step "starting $NAME-3 on volume $VOLUME while $NAME-2 runs"
code=0
second="$(timeout 120 "${PODMAN[@]}" run --rm --name "$NAME-3" "${RUN_OPTS[@]}" --memory "$MEMORY" --memory-swap "$MEMORY" \
  -v "$VOLUME:/data" -e ADMIN_TOKEN="$ADMIN_TOKEN" "$TAG" 2>&1)" || code=$?
[ "$code" -ne 0 ] || fail "$NAME-3 ran on a DATA_DIR in use: $second"
grep -q 'DATA_DIR /data is in use by another Antibot service (pid' <<<"$second" || fail "$NAME-3 did not say the DATA_DIR is in use (exit $code): $second"
curl -fsS -H "Authorization: Bearer $KEY" "http://127.0.0.1:$HTTP_PORT/api/antibot/tasks/$TASK" >/dev/null || fail "$NAME-2 lost the task after $NAME-3 tried the volume"
step "$NAME-3 stopped at once (exit $code): $(grep -o 'DATA_DIR /data is in use[^:]*' <<<"$second")"

pm stop -t 20 "$NAME-2" >/dev/null
step "passed in $((SECONDS - started)) s"
