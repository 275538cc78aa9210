#!/usr/bin/env bash
# Compare checklists with other terminal to-do programs on the same number of items.
#
#   peers.sh [N] [--runs R] [--only "vim calcurse ..."] [--out DIR]
#            [--ours CMD] [--ours-setup CMD] [--ours-ready TEXT]
#            [--ours-pre-keys KEYS] [--ours-pre-ready TEXT] [--ours-keys KEYS]
#            [--ours-quit-keys KEYS]
#
# N items (default 100000) are written in each program's own format in a
# private HOME under a temporary folder; before every launch that HOME is
# restored from a pristine copy, so that each run starts from the same data.
# Each program is then measured with tmux_measure.py (first frame, key ->
# screen, quit, peak RSS) and a table of medians and of the ratios
# program / ours is printed (the ratios are taken against vim when --ours is
# not given).
#
# Peers: vim (plain text, the baseline of a program that only shows lines),
# calcurse (todo panel), tudu, vit (taskwarrior's full-screen front end),
# dooit (Textual). Missing ones are installed: Debian packages with apt-get,
# dooit with pip in a venv under /tmp.
#
# Our app: --ours "checklists --file FILE" with --ours-setup writing FILE ("{N}"
# in either is replaced by N, so one command line serves every size); it
# is measured after opening the first list (--ours-pre-keys Enter), moving and
# checking items (--ours-keys Down,Space), and quitting with q (which saves).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
N=100000
RUNS=5
ONLY="vim calcurse tudu vit dooit"
OUT=""
OURS=""
OURS_SETUP=""
OURS_READY="Remaining"
OURS_PRE="Enter"
OURS_PRE_READY=""
OURS_KEYS="Down,Space"
OURS_QUIT="q"
DOOIT_VENV=${DOOIT_VENV:-/tmp/bench-dooit-venv}

while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift 2 ;;
        --only) ONLY=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --ours) OURS=$2; shift 2 ;;
        --ours-setup) OURS_SETUP=$2; shift 2 ;;
        --ours-ready) OURS_READY=$2; shift 2 ;;
        --ours-pre-keys) OURS_PRE=$2; shift 2 ;;
        --ours-pre-ready) OURS_PRE_READY=$2; shift 2 ;;
        --ours-keys) OURS_KEYS=$2; shift 2 ;;
        --ours-quit-keys) OURS_QUIT=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        [0-9]*) N=$1; shift ;;
        *) echo "peers.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

# "{N}" in the commands of our app stands for the number of items.
OURS=${OURS//\{N\}/$N}
OURS_SETUP=${OURS_SETUP//\{N\}/$N}

WORK=$(mktemp -d "/tmp/bench-peers.$N.XXXXXX")
OUT=${OUT:-$WORK/results}
mkdir -p "$OUT"
echo "peers.sh: N=$N runs=$RUNS work=$WORK results=$OUT" >&2

# -- install what is missing --------------------------------------------------
want_pkgs=()
command -v tmux >/dev/null || want_pkgs+=(tmux)
command -v vim >/dev/null || want_pkgs+=(vim)
for p in $ONLY; do
    case $p in
        calcurse) command -v calcurse >/dev/null || want_pkgs+=(calcurse) ;;
        tudu) command -v tudu >/dev/null || want_pkgs+=(tudu) ;;
        vit) command -v task >/dev/null || want_pkgs+=(taskwarrior)
             command -v vit >/dev/null || want_pkgs+=(vit) ;;
    esac
done
if [ ${#want_pkgs[@]} -gt 0 ]; then
    echo "installing ${want_pkgs[*]}" >&2
    apt-get update -qq >&2 && apt-get install -y -qq "${want_pkgs[@]}" >&2
fi
case " $ONLY " in *" dooit "*)
    if [ ! -x "$DOOIT_VENV/bin/dooit" ]; then
        echo "installing dooit into $DOOIT_VENV" >&2
        python3 -m venv "$DOOIT_VENV" >&2
        "$DOOIT_VENV/bin/pip" install -q dooit >&2
    fi ;;
esac

GEN="python3 $HERE/gen_peer_data.py"
MEASURE=(python3 "$HERE/tmux_measure.py" --runs "$RUNS" --timeout 300 --key-count 20 --key-timeout 5)
READY="Pack the passport"   # the first item of every generated data set
restore() { echo "rm -rf '$WORK/$1/live' && cp -a '$WORK/$1/seed' '$WORK/$1/live'"; }
results=()

# -- vim: N lines of plain text; also measures the tmux floor -----------------
if [[ " $ONLY " == *" vim "* ]]; then
    mkdir -p "$WORK/vim/seed"
    $GEN text "$N" "$WORK/vim/seed/items.txt"
    "${MEASURE[@]}" --floor --name vim --setup "$(restore vim)" \
        --cmd "vim -u NONE -N -n '$WORK/vim/live/items.txt'" --ready-text "$READY" \
        --keys Down --quit-keys ":wq,Enter" --json "$OUT/vim.json" || true
    results+=("$OUT/vim.json")
fi

# -- calcurse: the todo file; Tab twice reaches the todo panel ------------------
if [[ " $ONLY " == *" calcurse "* ]]; then
    mkdir -p "$WORK/calcurse/seed/.local/share/calcurse"
    $GEN calcurse "$N" "$WORK/calcurse/seed/.local/share/calcurse/todo"
    : > "$WORK/calcurse/seed/.local/share/calcurse/apts"
    # "!" marks the selected todo completed (it moves down the list). The
    # status line's clock ticks every second: row -3 is left out.
    "${MEASURE[@]}" --name calcurse --setup "$(restore calcurse)" \
        --env HOME="$WORK/calcurse/live" --cmd calcurse --ready-text "$READY" \
        --pre-keys Tab,Tab --keys 'Down,!' --mask-rows -3 --quit-keys q,y \
        --json "$OUT/calcurse.json" || true
    results+=("$OUT/calcurse.json")
fi

# -- tudu: ~/.tudu.xml; m marks done; q quits and saves -------------------------
if [[ " $ONLY " == *" tudu "* ]]; then
    mkdir -p "$WORK/tudu/seed"
    $GEN tudu "$N" "$WORK/tudu/seed/.tudu.xml"
    "${MEASURE[@]}" --name tudu --setup "$(restore tudu)" \
        --env HOME="$WORK/tudu/live" --cmd tudu --ready-text "$READY" \
        --keys Down,m --quit-keys q --json "$OUT/tudu.json" || true
    results+=("$OUT/tudu.json")
fi

# -- vit: taskwarrior's pending.data; Q quits (q asks first) --------------------
if [[ " $ONLY " == *" vit "* ]]; then
    mkdir -p "$WORK/vit/seed/.task" "$WORK/vit/seed/.vit"
    $GEN taskwarrior "$N" "$WORK/vit/seed/.task/pending.data"
    : > "$WORK/vit/seed/.vit/config.ini"
    printf 'data.location=%s\nnews.version=2.6.0\n' "$WORK/vit/live/.task" > "$WORK/vit/seed/.taskrc"
    "${MEASURE[@]}" --name vit --setup "$(restore vit)" \
        --env HOME="$WORK/vit/live" --cmd vit --ready-text "$READY" \
        --keys Down --quit-keys Q --json "$OUT/vit.json" || true
    results+=("$OUT/vit.json")
fi

# -- dooit: its SQLite database, written through its own model -----------------
if [[ " $ONLY " == *" dooit "* ]]; then
    mkdir -p "$WORK/dooit/seed"
    "$DOOIT_VENV/bin/python" "$HERE/gen_peer_data.py" dooit "$N" "$WORK/dooit/seed/dooit.db"
    # The first frame shows the workspace "Chores"; j selects it and Tab
    # moves into its todos, measured once the first todo shows. c toggles complete. The bar's clock ticks: row -1
    # is left out. Every change is committed at once; Ctrl-Q quits.
    "${MEASURE[@]}" --name dooit --setup "$(restore dooit)" \
        --env HOME="$WORK/dooit/live" --cmd "$DOOIT_VENV/bin/dooit --db '$WORK/dooit/live/dooit.db'" \
        --ready-text "Chores" --pre-keys j,Tab --pre-ready "$READY" --keys j,c --mask-rows -1 --quit-keys C-q --timeout 150 \
        --json "$OUT/dooit.json" || true
    results+=("$OUT/dooit.json")
fi

# -- ours ------------------------------------------------------------------------
baseline=vim
if [ -n "$OURS" ]; then
    args=(--name ours --cmd "$OURS" --ready-text "$OURS_READY" --pre-keys "$OURS_PRE"
          --keys "$OURS_KEYS" --quit-keys "$OURS_QUIT" --json "$OUT/ours.json")
    [ -n "$OURS_SETUP" ] && args+=(--setup "$OURS_SETUP")
    [ -n "$OURS_PRE_READY" ] && args+=(--pre-ready "$OURS_PRE_READY")
    "${MEASURE[@]}" "${args[@]}" || true
    results+=("$OUT/ours.json")
    baseline=ours
fi

existing=()
for f in "${results[@]}"; do [ -s "$f" ] && existing+=("$f"); done
echo
echo "N=$N items, $RUNS runs each; medians; ratios are program / $baseline (above 1: slower or bigger)"
python3 "$HERE/tmux_measure.py" --compare "${existing[@]}" --baseline "$baseline"
echo "(results: $OUT; data: $WORK)"
