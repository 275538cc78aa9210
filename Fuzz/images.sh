#!/usr/bin/env bash
# Fuzzes the image loading path (Sources/CImageCodecs over libjpeg-turbo, libpng, libwebp,
# giflib) with libFuzzer.
#   bash Fuzz/images.sh SECONDS
# Builds .build/fuzz/fuzz-images when a source changed, seeds .build/fuzz/image-corpus with the
# test images (Tests/Fixtures/images/make-test-images.py) and their truncated and bit-flipped
# forms, fuzzes for SECONDS and exits non-zero when a crash, a sanitizer report, a timeout
# (> 5 s), a leak or an out-of-memory was found. The libraries themselves are not instrumented
# (they are Debian's); our code is, with AddressSanitizer.
set -euo pipefail

seconds=${1:?usage: bash Fuzz/images.sh SECONDS}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

out=.build/fuzz
binary=$out/fuzz-images
corpus=$out/image-corpus
artifacts=$out/image-artifacts
log=$out/last-images-run.log
mkdir -p "$out" "$corpus" "$artifacts"

clang=${CLANG:-$(command -v clang || echo /opt/swift/usr/bin/clang)}
sources=(Fuzz/FuzzImages.c Sources/CImageCodecs/*.c)
lib=$(ls -d /usr/lib/*-linux-gnu 2>/dev/null | head -1)
lib=${lib:-/usr/lib}
needs_build=0
[[ -x $binary ]] || needs_build=1
for source in "${sources[@]}" Sources/CImageCodecs/*.h Sources/CImageCodecs/include/*.h; do
  [[ $source -nt $binary ]] && needs_build=1
done
if ((needs_build)); then
  echo "building $binary"
  linker=()
  [[ -x $(dirname "$clang")/ld.lld ]] && linker=(-fuse-ld=lld)
  "$clang" "${linker[@]}" -g -O1 -fsanitize=fuzzer,address -ISources/CImageCodecs/include -ISources/CImageCodecs \
    -I/usr/include/chafa -I"$lib/chafa/include" -I/usr/include/glib-2.0 \
    -I"$lib/glib-2.0/include" "${sources[@]}" -ldl -o "$binary.tmp"
  mv "$binary.tmp" "$binary"
fi

if [[ -z $(ls -A "$corpus") ]]; then
  seeds=$(mktemp -d)
  /usr/bin/python3 Tests/Fixtures/images/make-test-images.py "$seeds"
  /usr/bin/python3 - "$seeds" "$corpus" <<'PY'
import os, random, sys
source, target = sys.argv[1], sys.argv[2]
rng = random.Random(7)
for name in sorted(os.listdir(source)):
    data = open(os.path.join(source, name), "rb").read()
    open(os.path.join(target, name), "wb").write(data)
    for cut in (len(data) // 3, len(data) // 2, len(data) - 7):
        if cut > 0:
            open(os.path.join(target, f"{name}.cut{cut}"), "wb").write(data[:cut])
    flipped = bytearray(data)
    for _ in range(4):
        index = rng.randrange(len(flipped))
        flipped[index] ^= 1 << rng.randrange(8)
    open(os.path.join(target, f"{name}.flip"), "wb").write(bytes(flipped))
PY
  rm -rf "$seeds"
fi

before=$(find "$artifacts" -type f | wc -l)
status=0
"$binary" -max_len=65536 -timeout=5 -rss_limit_mb=2048 -max_total_time="$seconds" \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" >"$log" 2>&1 || status=$?
after=$(find "$artifacts" -type f | wc -l)
execs=$({ grep -E '^stat::number_of_executed_units:' "$log" || echo "x ?"; } | awk '{print $2}')
echo "image fuzzing: ${seconds}s, execs=$execs, corpus $(find "$corpus" -type f | wc -l) files," \
  "new_artifacts=$((after - before)) exit=$status"
if ((status != 0 || after > before)); then
  echo "libFuzzer found a problem (log: $log):" >&2
  grep -E "ERROR: |SUMMARY|Test unit written|ALARM|out-of-memory" "$log" | head -20 >&2
  exit 1
fi
