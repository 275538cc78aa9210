#!/usr/bin/env bash
# Our own benchmark table, in one run: release build, file load/save against the raw floor and
# Foundation, in-process key cost, then the real binary in tmux (first frame, key -> screen,
# quit with save, peak RSS) at each size.
#
#   docs/bench/run.sh [--runs R] [--sizes "1000 10000 100000"] [--peers]
#
# --peers also runs peers.sh at each size with our app as the yardstick.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=5
SIZES="1000 10000 100000"
PEERS=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --peers) PEERS=1; shift ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

swift build -c release >/dev/null
BIN=$(swift build -c release --show-bin-path)
WORK=$(mktemp -d /tmp/checklists-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo

"$BIN/checklists-bench" files $SIZES
echo
"$BIN/checklists-bench" keys 10 100000
echo

for n in $SIZES; do
  "$BIN/checklists-bench" generate "$n" "$WORK/seed-$n.plist" >/dev/null
  "$BIN/checklists-bench" generate "$n" "$WORK/one-$n.plist" --lists 1 >/dev/null
  echo "== $n items, 100 per list: open the first list, Down and Space, quit with q"
  python3 docs/bench/tmux_measure.py --name "ours-$n" --runs "$RUNS" \
    --setup "rm -rf $WORK/state && cp $WORK/seed-$n.plist $WORK/run.plist" \
    --env "XDG_STATE_HOME=$WORK/state" \
    --cmd "$BIN/checklists --file $WORK/run.plist" --ready-text "Birthdays" \
    --pre-keys Enter --keys Down,Space --quit-keys q --json "$WORK/ours-$n.json" | tail -n 12
  echo "== $n items in one list: Down, Space, PgDn"
  python3 docs/bench/tmux_measure.py --name "one-list-$n" --runs "$RUNS" \
    --setup "rm -rf $WORK/state && cp $WORK/one-$n.plist $WORK/run.plist" \
    --env "XDG_STATE_HOME=$WORK/state" \
    --cmd "$BIN/checklists --file $WORK/run.plist" --ready-text "Groceries 1" \
    --pre-keys Enter --keys Down,Space,NPage --quit-keys q | tail -n 13
  if [ "$PEERS" = 1 ]; then
    bash docs/bench/peers.sh "$n" --runs "$RUNS" \
      --ours "$BIN/checklists --file $WORK/run.plist" \
      --ours-setup "rm -rf $WORK/state && cp $WORK/seed-{N}.plist $WORK/run.plist" \
      --ours-ready "Birthdays"
  fi
done
