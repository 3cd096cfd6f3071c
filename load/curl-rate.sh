#!/usr/bin/env bash
# The App Engine study's curl method at a FIXED LOAD: a scheduler launches one curl every
# 1/RATE s for DURATION s, whatever the earlier ones are doing (open loop), each request
# with its own X-Cloud-Trace-Context; every echoed body is checked against its id.
# Each latency is counted from the request's INTENDED launch time (the scheduler's own
# lateness + curl's time_total), so a stall of the server or of this machine counts in
# full. load/curl.sh (xargs -P) is the closed-loop form.
#
#   load/curl-rate.sh URL RATE DURATION [--json]
#
# Prints scheduled, sent (launched before the window closed), count answered, errors,
# non2xx, mismatches, lost, latency p50/p90/p99/p99.9 in ms; --json one JSON object that
# also lists every latency in µs (latenciesUs) so ctxbench can build an HDR histogram.
# Bash forks one process per request: a few hundred requests per second is the most this
# can hold on one machine; the held-rate check (sent vs scheduled) says when it did not.
# Env: CURL_MAX_TIME (s, default 30) bounds each request.
set -euo pipefail

# shellcheck source=load/curl-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/curl-lib.sh"
usage='usage: load/curl-rate.sh URL RATE DURATION [--json]'
parse_args "$usage" "$@"
[ "${#args[@]}" -eq 3 ] || die "expected URL RATE DURATION ($usage)"
url=${args[0]}
rate=${args[1]}
duration=${args[2]}
max_time=${CURL_MAX_TIME:-30}

check_common "$url" curl awk sort mktemp
[ -n "${EPOCHREALTIME:-}" ] || die "bash 5 or newer is required (EPOCHREALTIME)"
[[ "$rate" =~ ^[1-9][0-9]{0,4}$ ]] || die "RATE (requests per second) must be an integer from 1 to 99999, got '$rate'"
[[ "$duration" =~ ^[1-9][0-9]{0,4}$ ]] || die "DURATION (seconds) must be a positive integer, got '$duration'"

start_run curl-rate "$url"

us() { printf '%s' "${EPOCHREALTIME/[.,]/}"; }
# A sleep without forking: read with a timeout on a descriptor that never has data.
exec {never}<> <(:)
nap() { read -r -t "$1" -u "$never" _ || true; }

mkdir "$dir/body"
n=$((rate * duration))
start=$(($(us) + 20000))
window_end=$((start + duration * 1000000))
: >"$dir/results"
for ((i = 0; i < n; i++)); do
  intended=$((start + i * 1000000 / rate))
  now=$(us)
  wait_us=$((intended - now))
  if [ "$wait_us" -gt 0 ]; then nap "$(printf '0.%06d' "$wait_us")"; fi
  id=$(printf '%s%016x' "$prefix" "$i")
  # One short line per request: id, status, time_total, intended and actual launch (µs).
  (
    launched=$(us)
    exec curl -s --max-time "$max_time" --connect-timeout 10 -H "X-Cloud-Trace-Context: $id/1;o=1" \
      -o "$dir/body/$id" -w "$id\t%{http_code}\t%{time_total}\t$intended\t$launched\n" "$url" 2>/dev/null
  ) >>"$dir/results" &
done
wait || true

awk -F '\t' -v prefix="$prefix" -v bodies="$dir/body" -v lat="$dir/lat" -v counts="$dir/counts" -v wend="$window_end" '
  {
    id = $1; code = $2; seen++
    if ($5 <= wend) sent++
    if (code == "000" || code == "") { failed++; next }
    answered++
    printf "%d\n", ($5 - $4) + $3 * 1000000 > lat
    if (code !~ /^2/) { non2xx++; next }
    classify(id)
  }
  END { printf "%d %d %d %d %d %d %d %d\n", seen, sent, failed, answered, non2xx, kept, mismatches, lost > counts }
'"$CLASSIFY_AWK" "$dir/results"
: >>"$dir/lat"
sort -n "$dir/lat" >"$dir/lat.sorted"
read -r seen sent failed answered non2xx kept mismatches lost <"$dir/counts"

awk -v n="$n" -v seen="$seen" -v sent="$sent" -v failed="$failed" -v answered="$answered" -v non2xx="$non2xx" \
  -v kept="$kept" -v mismatches="$mismatches" -v lost="$lost" -v json="$json" -v url="$url" -v rate="$rate" -v duration="$duration" "$PCT_AWK"'
  { v[++m] = $1 }
  function ms(q) { return pct(q) / 1000 }
  END {
    errors = failed + (n - seen)
    gsub(/\\/, "\\\\", url); gsub(/"/, "\\\"", url)
    if (json) {
      printf "{\"url\":\"%s\",\"rate\":%d,\"durationS\":%d,\"scheduled\":%d,\"sent\":%d,\"count\":%d,\"errors\":%d,\"non2xx\":%d,\"mismatches\":%d,\"lost\":%d,\"kept\":%d,", url, rate, duration, n, sent, answered, errors, non2xx, mismatches, lost, kept
      printf "\"latency\":{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,\"p99_9\":%.3f},\"latenciesUs\":[", ms(0.5), ms(0.9), ms(0.99), ms(0.999)
      for (i = 1; i <= m; i++) printf "%s%d", (i > 1 ? "," : ""), v[i]
      printf "]}\n"
    } else {
      printf "url         %s\n", url
      printf "rate        %d req/s for %d s: %d scheduled, %d sent on time (%.1f%%)\n", rate, duration, n, sent, 100 * sent / n
      printf "answered    %d; errors %d (%d non-2xx)\n", answered, errors + non2xx, non2xx
      printf "mismatches  %d (answered with another request'"'"'s id)\n", mismatches
      printf "lost        %d (2xx without an id of ours)\n", lost
      printf "latency ms  from intended send: p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f\n", ms(0.5), ms(0.9), ms(0.99), ms(0.999)
    }
  }
' "$dir/lat.sorted"
