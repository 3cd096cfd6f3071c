# Shared by load/curl.sh (closed loop, xargs -P) and load/curl-rate.sh (open loop): the
# command line, input checks, the per-run id prefix, the scratch folder, the probe, and
# the awk pieces that classify an echoed body and pick a percentile. Sourced, not run.

# die MESSAGE: one line on stderr naming the script, exit 1.
die() {
  printf '%s: %s\n' "$(basename "$0")" "$1" >&2
  exit 1
}

# parse_args USAGE ARG...: sets json (1 with --json) and args (the positionals); --help
# prints USAGE and exits 0; any other option is one line and exit 1.
parse_args() {
  local usage=$1 a
  shift
  json=0
  args=()
  for a in "$@"; do
    case "$a" in
      --json) json=1 ;;
      -h | --help)
        printf '%s\n' "$usage"
        exit 0
        ;;
      -*) die "unknown option '$a' ($usage)" ;;
      *) args+=("$a") ;;
    esac
  done
}

# check_common URL TOOL...: the tools are on PATH, URL is http(s), CURL_MAX_TIME (the
# sourcing script's max_time) is sane.
check_common() {
  local url=$1 tool
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' is required but was not found on PATH"
  done
  case "$url" in
    http://?* | https://?*) ;;
    *) die "URL must start with http:// or https://, got '$url'" ;;
  esac
  [[ "$max_time" =~ ^[1-9][0-9]{0,4}$ ]] || die "CURL_MAX_TIME must be a positive integer of seconds, got '$max_time'"
}

# Ids: 16 hex of a per-run random prefix + a 16-hex counter.
new_prefix() {
  printf '%04x%04x%04x%04x' "$RANDOM" "$RANDOM" "$RANDOM" "$RANDOM"
}

# start_run NAME URL: sets `prefix` and `dir` (a scratch folder removed on exit), then
# probes URL once: a dead URL fails here, fast, with one line.
start_run() {
  prefix=$(new_prefix)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/ctxbench-$1.XXXXXX") || die "mktemp failed"
  trap 'rm -rf "$dir"' EXIT
  if ! curl -sS -o /dev/null --max-time 10 -H "X-Cloud-Trace-Context: ${prefix}ffffffffffffffff/1;o=1" \
    "$2" 2>"$dir/probe.err"; then
    local reason
    reason=$(awk 'NR == 1 { sub(/^curl: \([0-9]+\) /, ""); print; exit }' "$dir/probe.err")
    die "no response from $2 (${reason:-curl failed})"
  fi
}

# awk: classify(id) reads the body curl saved for a 2xx answer and counts it kept (our
# id), mismatches (ANOTHER request's id: context leaked) or lost (no id of ours).
# Needs -v prefix= -v bodies=.
# shellcheck disable=SC2034 # used by the sourcing scripts
CLASSIFY_AWK='
  function classify(id,    f, body) {
    f = bodies "/" id; body = ""
    if ((getline body < f) <= 0) body = ""
    close(f)
    if (body == id) kept++
    else if (length(body) == 32 && substr(body, 1, 16) == prefix && body ~ /^[0-9a-f]+$/) mismatches++
    else lost++
  }
'

# awk: pct(q) is the q-quantile (nearest rank) of v[1..m], sorted ascending.
# shellcheck disable=SC2034 # used by the sourcing scripts
PCT_AWK='
  function pct(q,    k) {
    if (m == 0) return 0
    k = int(q * m); if (k < q * m) k++
    if (k < 1) k = 1
    return v[k]
  }
'
