#!/usr/bin/env bash
# The App Engine study's load method: N curl processes, P at a time (xargs -P), each
# request with its own X-Cloud-Trace-Context; every echoed body is checked against the
# id that request sent.
#
#   load/curl.sh URL [N=10000] [P=100] [--json]
#
# Prints count, ok (2xx answers), errors (curl failure or non-2xx), mismatches (the body
# is ANOTHER request's id: context leaked), lost (a 2xx whose body is no id of ours),
# req/s of the 2xx answers alone (a failed request is not throughput: a server refusing
# everything fast must not look fast), mean latency and p50/p90/p99 in ms (curl's
# time_total of every request that got an HTTP answer).
# --json prints one JSON object instead. A depth sweep goes through the URL:
#   load/curl.sh https://als-dot-PROJECT.appspot.com/depth/256 10000 100
# Env: CURL_MAX_TIME (s, default 30) bounds each request; the probe waits 10 s at most.
set -euo pipefail

# shellcheck source=load/curl-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/curl-lib.sh"
usage='usage: load/curl.sh URL [N=10000] [P=100] [--json]'
parse_args "$usage" "$@"
[ "${#args[@]}" -ge 1 ] || die "missing URL ($usage)"
[ "${#args[@]}" -le 3 ] || die "too many arguments ($usage)"
url=${args[0]}
n=${args[1]:-10000}
p=${args[2]:-100}
max_time=${CURL_MAX_TIME:-30}

check_common "$url" curl xargs awk sort mktemp
[[ "$n" =~ ^[1-9][0-9]{0,8}$ ]] || die "N (number of requests) must be a positive integer, got '$n'"
[[ "$p" =~ ^[1-9][0-9]{0,4}$ ]] || die "P (parallel requests) must be a positive integer, got '$p'"

start_run curl "$url"

now() {
  if [ -n "${EPOCHREALTIME:-}" ]; then printf '%s' "${EPOCHREALTIME/,/.}"; else date +%s; fi
}

awk -v n="$n" -v prefix="$prefix" 'BEGIN { for (i = 0; i < n; i++) printf "%s%016x\n", prefix, i }' >"$dir/ids"
mkdir "$dir/body"

start=$(now)
# One curl per id; each writes its body to its own file and one short line
# "id<TAB>status<TAB>time_total" (a single write, so parallel lines never interleave).
# curl exits non-zero on failures (status 000): xargs then returns 123, which is expected.
xargs -P "$p" -I '{}' curl -s --max-time "$max_time" --connect-timeout 10 \
  -H 'X-Cloud-Trace-Context: {}/1;o=1' -o "$dir/body/{}" \
  -w '{}\t%{http_code}\t%{time_total}\n' "$url" <"$dir/ids" >"$dir/results" 2>/dev/null || true
end=$(now)

# Classify every request; latencies (ms) of the answered ones go to a file for sorting.
awk -F '\t' -v prefix="$prefix" -v bodies="$dir/body" -v lat="$dir/lat" -v counts="$dir/counts" '
  {
    id = $1; code = $2; seen++
    if (code == "000" || code == "") { failed++; next }
    printf "%.3f\n", $3 * 1000 > lat
    if (code !~ /^2/) { non2xx++; next }
    classify(id)
  }
  END {
    printf "%d %d %d %d %d %d\n", seen, failed, non2xx, kept, mismatches, lost > counts
  }
'"$CLASSIFY_AWK" "$dir/results"
: >>"$dir/lat"
sort -n "$dir/lat" >"$dir/lat.sorted"

read -r seen failed non2xx kept mismatches lost <"$dir/counts"

awk -v n="$n" -v seen="$seen" -v failed="$failed" -v non2xx="$non2xx" -v kept="$kept" \
  -v mismatches="$mismatches" -v lost="$lost" -v start="$start" -v end="$end" -v json="$json" \
  -v url="$url" -v p="$p" "$PCT_AWK"'
  { v[++m] = $1; sum += $1 }
  END {
    missing = n - seen          # no line at all from curl: counted as curl failures
    errors = failed + missing + non2xx
    avg = m ? sum / m : 0
    dur = end - start; if (dur <= 0) dur = 0.001
    ok = kept + mismatches + lost
    rps = ok / dur
    gsub(/\\/, "\\\\", url); gsub(/"/, "\\\"", url)
    if (json) {
      printf "{\"url\":\"%s\",\"count\":%d,\"ok\":%d,\"concurrency\":%d,\"errors\":%d,\"non2xx\":%d,\"mismatches\":%d,\"lost\":%d,\"kept\":%d,", url, n, ok, p, errors, non2xx, mismatches, lost, kept
      printf "\"latency\":{\"avg\":%.3f,\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f},\"durationS\":%.3f,\"rps\":%.1f}\n", avg, pct(0.5), pct(0.9), pct(0.99), dur, rps
    } else {
      printf "url         %s\n", url
      printf "count       %d (%d in parallel, %.1f s)\n", n, p, dur
      printf "ok          %d answered 2xx (%.1f req/s)\n", ok, rps
      printf "errors      %d (%d curl failures, %d non-2xx)\n", errors, failed + missing, non2xx
      printf "mismatches  %d (answered with another request'"'"'s id)\n", mismatches
      printf "lost        %d (2xx without an id of ours)\n", lost
      printf "latency ms  mean %.2f  p50 %.2f  p90 %.2f  p99 %.2f\n", avg, pct(0.5), pct(0.9), pct(0.99)
    }
  }
' "$dir/lat.sorted"
