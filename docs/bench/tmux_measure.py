#!/usr/bin/env python3
"""Measure an interactive terminal program the way a person perceives it.

The program runs in a pane of a private tmux server (its own socket, no user
config), 100x30, TERM=xterm-256color, LANG=C.UTF-8. One tmux client in control
mode (`tmux -C`) stays connected for the whole measurement, so that each screen
capture is a line written to a pipe rather than a new process: that keeps the
polling cheap and its floor low.

Figures, each the median of --runs runs (with min and max):
  first frame    launch -> the screen shows --ready-text
  key            a key sent -> the screen content (text or attributes) changes
  key settled    a key sent -> the last change before the screen is quiet
  quit           the quit keys sent -> the program's process has exited
  peak RSS       the largest VmHWM in the program's process tree, just before quit

`--floor` measures the same figures on a trivial program (printf a marker, then
`cat`, whose echo is done by the terminal driver): that is what tmux and the
polling alone cost, the floor under every other number.

Standard library only.
"""

import argparse
import hashlib
import json
import os
import re
import select
import signal
import statistics
import subprocess
import sys
import time

WIDTH, HEIGHT = 100, 30
FLOOR_MARKER = "FLOOR-READY"


class TmuxError(RuntimeError):
    pass


class Tmux:
    """A private tmux server driven through one control-mode client."""

    def __init__(self, socket_name):
        self.socket = socket_name
        self.env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color")
        self.env.pop("TMUX", None)
        # The holder session keeps the server alive between runs; the measured
        # program always gets a fresh session of its own.
        self.proc = subprocess.Popen(
            ["tmux", "-L", socket_name, "-f", "/dev/null", "-u", "-C",
             "new-session", "-s", "holder", "-x", str(WIDTH), "-y", str(HEIGHT),
             "sleep 100000"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=self.env, bufsize=0)
        self.fd = self.proc.stdout.fileno()
        self.buf = b""
        self._read_block()  # the reply to new-session
        for opt in ("default-terminal xterm-256color", "remain-on-exit on",
                    "status off", "history-limit 100",
                    "default-size %dx%d" % (WIDTH, HEIGHT), "escape-time 0"):
            self.cmd("set-option -g " + opt)
        # (window-size stays "latest": the run sessions have no client, so
        # they keep the -x/-y they are made with.)
        self.cmd("refresh-client -C %d,%d" % (WIDTH, HEIGHT))
        self.socket_path = self.cmd("display-message -p '#{socket_path}'")[0].decode()
        self.cmd("set-environment -g LANG C.UTF-8")
        self.cmd("set-environment -g LC_ALL C.UTF-8")

    # -- control-mode protocol ------------------------------------------------

    def _readline(self, deadline):
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TmuxError("tmux control client did not answer")
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    raise TmuxError("tmux control client ended")
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def _read_block(self, timeout=10.0):
        """Lines between %begin and %end (or %error); notifications are skipped."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._readline(deadline)
            if line.startswith(b"%begin "):
                tag = line.split(b" ")[2]
                break
        out = []
        while True:
            line = self._readline(deadline)
            if (line.startswith(b"%end ") or line.startswith(b"%error ")) and \
                    line.split(b" ")[2] == tag:
                if line.startswith(b"%error "):
                    raise TmuxError(b"\n".join(out).decode("utf-8", "replace"))
                return out
            out.append(line)

    def cmd(self, command):
        self.proc.stdin.write(command.encode("utf-8") + b"\n")
        return self._read_block()

    @staticmethod
    def quote(s):
        return "'" + s.replace("'", "'\\''") + "'"

    # -- operations -----------------------------------------------------------

    def capture(self, target, attrs=True):
        """The pane's text; with attrs, also its colours and the cursor position,
        so that a moved highlight or cursor counts as a change."""
        if not attrs:
            return b"\n".join(self.cmd("capture-pane -p -t %s" % target))
        self.proc.stdin.write(("capture-pane -p -e -t %s ; display-message -p -t %s "
                               "'#{cursor_x},#{cursor_y},#{cursor_flag}'\n"
                               % (target, target)).encode())
        text = self._read_block()
        cursor = self._read_block()
        return b"\n".join(text + [b"cursor"] + cursor)

    def send_key(self, target, key):
        self.cmd("send-keys -t %s %s" % (target, self.quote(key)))

    def pane_pid(self, target):
        return int(self.cmd("display-message -p -t %s '#{pane_pid}'" % target)[0])

    def close(self):
        try:
            self.cmd("kill-server")
        except (TmuxError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        try:
            os.unlink(self.socket_path)
        except OSError:
            pass


# -- process helpers ------------------------------------------------------------

def proc_state(pid):
    """The state letter of a process, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data[data.rfind(b")") + 2:data.rfind(b")") + 3].decode()


def process_tree(root):
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                data = f.read()
        except OSError:
            continue
        fields = data[data.rfind(b")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(int(name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def status_kb(pid, field):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def comm(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return "?"


# -- one run --------------------------------------------------------------------

def digest(screen, masked=()):
    if masked:
        lines = screen.split(b"\n")
        rows = [i for i in range(HEIGHT)]
        drop = {rows[m] for m in masked if -HEIGHT <= m < HEIGHT}
        screen = b"\n".join(l for i, l in enumerate(lines) if i not in drop)
    return hashlib.blake2b(screen, digest_size=16).digest()


def pause(poll, since):
    """Sleep between captures: --poll-ms, growing to 0.5% of the time waited so
    far (at most 50 ms), so that waiting minutes for a slow program does not
    take a core away from it. The figure is then good to about 0.5%."""
    time.sleep(max(poll, min(0.05, (time.perf_counter() - since) * 0.005)))


def run_once(tm, run_no, opts, log):
    if opts.setup:
        subprocess.run(opts.setup, shell=True, check=True, env=dict(os.environ, **opts.env_map))
    target = "run%d" % run_no
    env_args = " ".join("-e %s" % tm.quote("%s=%s" % kv) for kv in
                        [("TERM", "xterm-256color"), ("LANG", "C.UTF-8"), ("LC_ALL", "C.UTF-8")]
                        + list(opts.env_map.items()))
    cwd = "-c %s " % tm.quote(opts.cwd) if opts.cwd else ""
    command = opts.cmd
    ready = opts.ready_text.encode("utf-8")
    poll = opts.poll_ms / 1000.0
    res = {"key_ms": [], "key_settled_ms": [], "key_timeouts": 0, "per_key": {}, "unchanged": {}}

    # First frame: from just before the session is made to the first capture
    # that shows the ready text.
    t0 = time.perf_counter()
    tm.cmd("new-session -d -s %s -x %d -y %d %s%s %s"
           % (target, WIDTH, HEIGHT, cwd, env_args, tm.quote(command)))
    deadline = t0 + opts.timeout
    screen = b""
    while True:
        screen = tm.capture(target, attrs=False)
        now = time.perf_counter()
        if ready in screen:
            res["first_frame_ms"] = (now - t0) * 1000
            break
        if now > deadline:
            log("  run %d: ready text %r never shown; last screen:\n%s"
                % (run_no, opts.ready_text, screen.decode("utf-8", "replace")))
            tm.cmd("kill-session -t %s" % target)
            return None
        pause(poll, t0)
    pid = tm.pane_pid(target)
    mask = opts.mask_list

    def wait_quiet(quiet_s, max_s, base):
        """Capture until nothing changed for quiet_s; returns the time of the last change."""
        last = digest(tm.capture(target), mask)
        last_change = time.perf_counter()
        end = last_change + max_s
        while True:
            time.sleep(poll)
            cur = digest(tm.capture(target), mask)
            now = time.perf_counter()
            if cur != last:
                last, last_change = cur, now
            elif now - last_change >= quiet_s or now > end:
                return last_change - base, last

    settled, state = wait_quiet(opts.quiet_ms / 1000.0, opts.timeout, t0)
    res["settled_frame_ms"] = settled * 1000

    # Keys that bring the program to the screen under test (not timed).
    # Each must change the screen (a slow program may take long to redraw)
    # before the screen is let settle.
    for key in opts.pre_list:
        tm.send_key(target, key)
        since = time.perf_counter()
        end = since + opts.timeout
        while digest(tm.capture(target), mask) == state and time.perf_counter() < end:
            pause(poll, since)
        if time.perf_counter() >= end:
            res["error"] = "pre-key %s left the screen unchanged for %g s" % (key, opts.timeout)
            log("  run %d: %s" % (run_no, res["error"]))
            break
        _, state = wait_quiet(opts.quiet_ms / 1000.0, opts.timeout, t0)
    if opts.pre_ready and "error" not in res:
        want = opts.pre_ready.encode("utf-8")
        since = time.perf_counter()
        end = since + opts.timeout
        while want not in tm.capture(target, attrs=False):
            if time.perf_counter() > end:
                res["error"] = "%r not shown %g s after the pre-keys" % (opts.pre_ready, opts.timeout)
                log("  run %d: %s" % (run_no, res["error"]))
                break
            pause(poll, since)
        else:
            _, state = wait_quiet(opts.quiet_ms / 1000.0, opts.timeout, t0)

    # Keystrokes.
    keys = opts.key_list
    for i in range(opts.key_count if keys and "error" not in res else 0):
        key = keys[i % len(keys)]
        before = state
        t1 = time.perf_counter()
        tm.send_key(target, key)
        end = t1 + opts.key_timeout
        changed = None
        while True:
            cur = digest(tm.capture(target), mask)
            now = time.perf_counter()
            if cur != before:
                changed = now
                break
            if now > end:
                break
            pause(poll, t1)
        if changed is None:
            res["key_timeouts"] += 1
            res["unchanged"][key] = res["unchanged"].get(key, 0) + 1
            # A late redraw must not be taken for the next key's.
            _, state = wait_quiet(opts.settle_ms / 1000.0, opts.key_timeout, t1)
            continue
        res["key_ms"].append((changed - t1) * 1000)
        res["per_key"].setdefault(key, []).append((changed - t1) * 1000)
        # Quiet period so the next key meets an idle program.
        settled, state = wait_quiet(opts.settle_ms / 1000.0, opts.key_timeout, t1)
        res["key_settled_ms"].append(settled * 1000)

    # Peak RSS just before quitting.
    tree = process_tree(pid)
    hwm = [(status_kb(p, "VmHWM") or 0, p) for p in tree]
    best = max(hwm)
    res["peak_rss_kb"] = best[0]
    res["process"] = comm(best[1])
    res["screen"] = tm.capture(target, attrs=False).decode("utf-8", "replace")

    # Quit: keys sent -> the pane's process has exited.
    t2 = time.perf_counter()
    for key in opts.quit_list:
        tm.send_key(target, key)
    end = t2 + opts.timeout
    while True:
        st = proc_state(pid)
        now = time.perf_counter()
        if st is None or st in "ZX":
            res["quit_ms"] = (now - t2) * 1000
            break
        if now > end:
            log("  run %d: program did not exit after quit keys %r" % (run_no, opts.quit_keys))
            res["quit_ms"] = None
            break
        pause(poll, t2)
    try:
        tm.cmd("kill-session -t %s" % target)
    except TmuxError:
        pass
    if res.get("quit_ms") is None:
        # Leave nothing behind: end the program that this run started.
        for p in reversed(tree):
            try:
                os.kill(p, 9)
            except OSError:
                pass
    return res


# -- statistics and output ------------------------------------------------------

def summary(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "n": len(values)}


FIGURES = [
    ("first_frame_ms", "first frame", "ms"),
    ("settled_frame_ms", "first frame settled", "ms"),
    ("key_ms", "key -> screen", "ms"),
    ("key_settled_ms", "key -> settled", "ms"),
    ("quit_ms", "quit (exit)", "ms"),
    ("peak_rss_kb", "peak RSS", "MiB"),
]


def fmt(value, unit):
    if value is None:
        return "-"
    if unit == "MiB":
        return "%.1f" % (value / 1024.0)
    return "%.1f" % value


def measure(opts, log):
    sock = "bench-%d-%d" % (os.getpid(), int(time.time() * 1000) % 100000)
    tm = Tmux(sock)
    runs = []
    try:
        for i in range(opts.runs):
            r = run_once(tm, i, opts, log)
            if r is None:
                break
            runs.append(r)
            if r.get("error"):
                break  # the same would happen again: spare the other runs
            log("  run %d: first frame %.1f ms, key median %s ms, quit %s ms, RSS %.1f MiB (%s)"
                % (i, r["first_frame_ms"],
                   fmt(statistics.median(r["key_ms"]) if r["key_ms"] else None, "ms"),
                   fmt(r["quit_ms"], "ms"), r["peak_rss_kb"] / 1024.0, r["process"]))
    finally:
        tm.close()
    out = {"name": opts.name, "cmd": opts.cmd, "ready_text": opts.ready_text,
           "pre_keys": opts.pre_list, "keys": opts.key_list, "key_count": opts.key_count, "quit_keys": opts.quit_list,
           "runs": len(runs), "figures": {}}
    if not runs:
        out["error"] = "no run reached the ready text"
        return out
    for key, _, _ in FIGURES:
        if key in ("key_ms", "key_settled_ms"):
            # Per-run medians, so that each run weighs the same.
            vals = [statistics.median(r[key]) for r in runs if r[key]]
        else:
            vals = [r.get(key) for r in runs]
        out["figures"][key] = summary(vals)
    errors = [r["error"] for r in runs if r.get("error")]
    if errors:
        out["note"] = errors[0]
    out["key_timeouts"] = sum(r["key_timeouts"] for r in runs)
    out["unchanged_keys"] = {}
    for r in runs:
        for k, c in r["unchanged"].items():
            out["unchanged_keys"][k] = out["unchanged_keys"].get(k, 0) + c
    out["per_key_ms"] = {k: summary([statistics.median(r["per_key"][k]) for r in runs
                                     if r["per_key"].get(k)]) for k in opts.key_list}
    out["process"] = runs[-1]["process"]
    out["last_screen"] = runs[-1]["screen"]
    return out


def print_table(results, file=sys.stdout):
    print("%-22s %-20s %10s %10s %10s" % ("", "", "median", "min", "max"), file=file)
    for res in results:
        title = res["name"]
        if res.get("error"):
            print("%-22s %s" % (title, res["error"]), file=file)
            continue
        for key, label, unit in FIGURES:
            s = res["figures"].get(key)
            if not s:
                continue
            print("%-22s %-20s %10s %10s %10s  %s" % (
                title, label, fmt(s["median"], unit),
                fmt(s["min"], unit), fmt(s["max"], unit), unit), file=file)
            title = ""
        for k, s in (res.get("per_key_ms") or {}).items():
            if s and len(res["per_key_ms"]) > 1:
                print("%-22s %-20s %10s %10s %10s  ms" % (
                    "", "  key " + k, fmt(s["median"], "ms"), fmt(s["min"], "ms"),
                    fmt(s["max"], "ms")), file=file)
        if res.get("note"):
            print("%-22s %s" % ("", res["note"]), file=file)
        if res.get("key_timeouts"):
            print("%-22s %d key(s) left the screen unchanged within --key-timeout: %s" % (
                "", res["key_timeouts"], res.get("unchanged_keys")), file=file)


def key_rows(results):
    """One extra figure per position in --keys: "key 1" is each program's first
    key (a move), "key 2" its second (a toggle), whatever their names."""
    count = max((len(r.get("keys") or []) for r in results), default=0)
    rows = []
    for i in range(count):
        fig = "key_%d" % (i + 1)
        for r in results:
            keys = r.get("keys") or []
            per = r.get("per_key_ms") or {}
            if not r.get("figures") or i >= len(keys):
                continue
            if per.get(keys[i]):
                r["figures"][fig] = per[keys[i]]
            elif len(keys) == 1:
                r["figures"][fig] = r["figures"].get("key_ms")
        rows.append((fig, "key %d -> screen" % (i + 1), "ms"))
    return rows


def print_compare(results, baseline, file=sys.stdout):
    """Medians side by side, and each peer's median divided by the baseline's."""
    base = next((r for r in results if r["name"] == baseline), None)
    names = [r["name"] for r in results]
    rows = FIGURES + key_rows(results)
    print("%-20s" % "median" + "".join("%14s" % n[:13] for n in names), file=file)
    for key, label, unit in rows:
        row = "%-20s" % ("%s (%s)" % (label, unit))[:20]
        for r in results:
            s = (r.get("figures") or {}).get(key)
            row += "%14s" % (fmt(s["median"], unit) if s else "-")
        print(row, file=file)
    row = "%-20s" % "keys 1,2"
    for r in results:
        row += "%14s" % ",".join(r.get("keys") or [])[:13]
    print(row, file=file)
    for r in results:
        if r.get("note") or r.get("error"):
            print("  %s: %s" % (r["name"], r.get("note") or r.get("error")), file=file)
    if not base or not base.get("figures"):
        return
    print("", file=file)
    print("%-20s" % ("ratio / " + baseline)[:20]
          + "".join("%14s" % n[:13] for n in names), file=file)
    for key, label, unit in rows:
        row = "%-20s" % label[:20]
        b = base["figures"].get(key)
        for r in results:
            s = (r.get("figures") or {}).get(key)
            if s and b and b["median"] > 0:
                row += "%14s" % ("%.2fx" % (s["median"] / b["median"]))
            else:
                row += "%14s" % "-"
        print(row, file=file)


def split_keys(text):
    return [k for k in (text or "").split(",") if k != ""]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--name", default="program")
    ap.add_argument("--cmd", help="shell command that starts the program")
    ap.add_argument("--ready-text", help="text whose appearance marks the first frame")
    ap.add_argument("--keys", default="", help="comma-separated tmux key names, cycled (Down,Space)")
    ap.add_argument("--key-count", type=int, default=20, help="keys sent per run")
    ap.add_argument("--pre-keys", default="",
                    help="keys sent after the first frame, untimed, to reach the screen under test")
    ap.add_argument("--pre-ready", help="text the screen under test shows once the pre-keys took effect")
    ap.add_argument("--mask-rows", default="",
                    help="comma-separated screen rows (0-based, negative from the bottom) left out "
                         "of change detection, e.g. -1 for a status line with a ticking clock")
    ap.add_argument("--quit-keys", default="q", help="comma-separated keys that quit and save")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--setup", help="shell command run before each launch (not timed)")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the program")
    ap.add_argument("--cwd", help="directory the program starts in")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds allowed for start and quit")
    ap.add_argument("--key-timeout", type=float, default=2.0, help="seconds a key may take")
    ap.add_argument("--poll-ms", type=float, default=1.0, help="pause between captures")
    ap.add_argument("--quiet-ms", type=float, default=300.0,
                    help="no change for this long after the first frame means it settled")
    ap.add_argument("--settle-ms", type=float, default=40.0,
                    help="no change for this long after a key means it settled")
    ap.add_argument("--floor", action="store_true",
                    help="also measure a trivial program (printf marker; cat) as the tmux floor")
    ap.add_argument("--json", help="write the results to this file")
    ap.add_argument("--show-screen", action="store_true", help="print the last screen seen")
    ap.add_argument("--compare", nargs="+", metavar="JSON",
                    help="only print earlier results side by side (with --baseline NAME ratios)")
    ap.add_argument("--baseline", help="name whose medians the ratios divide by")
    opts = ap.parse_args(argv)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    def stop(signum, frame):
        raise SystemExit(128 + signum)  # so that the private tmux server is ended

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)

    if opts.compare:
        results = []
        for path in opts.compare:
            with open(path) as f:
                data = json.load(f)
            results.extend(data if isinstance(data, list) else [data])
        print_compare(results, opts.baseline)
        return 0

    if not opts.cmd or not opts.ready_text:
        ap.error("--cmd and --ready-text are required")
    opts.key_list = split_keys(opts.keys)
    opts.quit_list = split_keys(opts.quit_keys)
    opts.pre_list = split_keys(opts.pre_keys)
    opts.mask_list = [int(r) for r in split_keys(opts.mask_rows)]
    opts.env_map = dict(e.split("=", 1) for e in opts.env)

    results = []
    if opts.floor:
        floor = argparse.Namespace(**vars(opts))
        floor.name = "tmux floor"
        floor.cmd = "printf '%s\\n'; exec cat" % FLOOR_MARKER
        floor.ready_text = FLOOR_MARKER
        floor.key_list, floor.quit_list, floor.quit_keys = ["x"], ["C-c"], "C-c"
        floor.setup, floor.env_map = None, {}
        floor.pre_list, floor.mask_list, floor.cwd, floor.pre_ready = [], [], None, None
        log("measuring %s" % floor.name)
        results.append(measure(floor, log))
    log("measuring %s: %s" % (opts.name, opts.cmd))
    results.append(measure(opts, log))

    print_table(results)
    if opts.show_screen and results[-1].get("last_screen"):
        print(results[-1]["last_screen"])
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results if len(results) > 1 else results[0], f, indent=1, ensure_ascii=False)
    return 0 if all(not r.get("error") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
