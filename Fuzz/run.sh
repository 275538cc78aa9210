#!/usr/bin/env bash
# Fuzzes the Checklists.plist loader with libFuzzer.
#   bash Fuzz/run.sh SECONDS [JOBS]
# Builds .build/fuzz/fuzz-loader when a source changed, seeds .build/fuzz/corpus from
# Fuzz/seeds/ (and the shared iOS fixture when present), fuzzes for SECONDS, prints the stats and
# exits non-zero when a crash, round-trip mismatch, timeout (> 5 s), leak or OOM was found.
set -euo pipefail

seconds=${1:?usage: bash Fuzz/run.sh SECONDS [JOBS]}
jobs=${2:-1}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

out=.build/fuzz
binary=$out/fuzz-loader
corpus=$out/corpus
artifacts=$out/artifacts
log=$out/last-run.log
mkdir -p "$out" "$corpus" "$artifacts"

swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
mapfile -t sources < <(find Sources/ChecklistsCore -name '*.swift' | LC_ALL=C sort)
sources+=(Fuzz/FuzzLoader.swift)

needs_build=0
if [[ ! -x $binary ]]; then
  needs_build=1
else
  for source in "${sources[@]}"; do
    if [[ $source -nt $binary ]]; then needs_build=1; break; fi
  done
fi
if ((needs_build)); then
  echo "building $binary ($("$swiftc" --version 2>&1 | head -1))"
  # lld ships with the toolchain; the default gold linker also works but prints hundreds of
  # "Cannot export local symbol '__asan_check_…'" warnings.
  linker=()
  if "$swiftc" -print-target-info >/dev/null 2>&1 && [[ -x $(dirname "$swiftc")/ld.lld ]]; then
    linker=(-use-ld=lld)
  fi
  "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -module-name ChecklistsFuzz \
    "${linker[@]}" "${sources[@]}" -o "$binary.tmp" 2>&1 | grep -v "Cannot export local symbol" || true
  [[ -x $binary.tmp ]] || { echo "fuzz target did not build" >&2; exit 2; }
  mv "$binary.tmp" "$binary"
fi

cp -n Fuzz/seeds/* "$corpus"/ 2>/dev/null || true
fixture=$root/Tests/Fixtures/Checklists-ios.plist
[[ -f $fixture ]] && cp -n "$fixture" "$corpus/fixture-shared-ios.plist" 2>/dev/null || true

before=$(find "$artifacts" -type f | wc -l)
options=(
  -max_len=1048576 -timeout=5 -rss_limit_mb=2048 -max_total_time="$seconds"
  -dict=Fuzz/dict -artifact_prefix="$artifacts/" -print_final_stats=1
)
if ((jobs > 1)); then options+=(-fork="$jobs"); fi

echo "fuzzing for ${seconds}s with $jobs job(s): $binary ${options[*]} $corpus"
status=0
# Swift's own crash reporter would race libFuzzer's handlers; let libFuzzer report.
SWIFT_BACKTRACE=enable=no "$binary" "${options[@]}" "$corpus" >"$log" 2>&1 || status=$?

after=$(find "$artifacts" -type f | wc -l)
stat() { { grep -E "^stat::$1:" "$log" || echo "x ?"; } | tail -1 | awk '{print $2}'; }
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
execs=$(stat number_of_executed_units)
[[ $execs != "?" ]] || execs=
# In fork mode there are no final stats: the last "#N:" line counts the executions.
[[ -n $execs ]] || execs=$(sed -nE 's/^#([0-9]+).*/\1/p' "$log" | tail -1)
echo "${done_line:-$(grep -E '^#[0-9]+' "$log" | tail -1)}"
active=$({ grep -oE 'corp: [0-9]+(/[0-9]+[a-zA-Z]*)?' "$log" || true; } | tail -1 | cut -d' ' -f2)
echo "stats: execs=${execs:-?} exec/s=$(stat average_exec_per_sec) time=${seconds}s" \
  "corpus=${active:-?} units in use, $(find "$corpus" -type f | wc -l) files in $corpus" \
  "peak_rss=$(stat peak_rss_mb) MB new_artifacts=$((after - before)) exit=$status"

if ((status != 0 || after > before)); then
  echo "libFuzzer found a problem (log: $log):" >&2
  grep -E "ERROR: |round trip: |SUMMARY|Test unit written|ALARM|out-of-memory|Fatal error" "$log" | head -20 >&2
  find "$artifacts" -type f -newer "$binary" >&2
  exit 1
fi
