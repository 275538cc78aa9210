#!/usr/bin/env bash
# Builds checklists in release mode and installs the binary and the man page under PREFIX
# (default /usr/local): PREFIX/bin/checklists, PREFIX/share/man/man1/checklists.1.
#   ./install.sh                   # install
#   PREFIX=~/.local ./install.sh   # install for one user (no sudo)
#   ./install.sh --uninstall       # remove both again
# The reminder service is each user's own: `checklists reminders --install` (see the man page).
set -euo pipefail
cd "$(dirname "$0")"
prefix=${PREFIX:-/usr/local}
bin="$prefix/bin/checklists"
man="$prefix/share/man/man1/checklists.1"

if [[ ${1:-} == --uninstall ]]; then
  rm -f "$bin" "$man"
  echo "removed $bin and $man"
  exit 0
elif [[ $# -gt 0 ]]; then
  echo "usage: [PREFIX=DIR] $0 [--uninstall]" >&2
  exit 2
fi

swift build -c release --product checklists
install -d "$prefix/bin" "$prefix/share/man/man1"
install -m 755 "$(swift build -c release --show-bin-path)/checklists" "$bin"
install -m 644 docs/checklists.1 "$man"
echo "installed $bin and $man"
echo "for reminders on the desktop while the app is closed: $bin reminders --install"
echo "  (a systemd user service; it prints what to do where there is none)"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on your PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
# man (man-db) looks in the share/man beside each bin on the PATH, unless MANPATH is set: then
# only in MANPATH's folders (an empty part, as in a leading or trailing ":", adds the system's).
if [[ -n ${MANPATH:-} ]]; then
  case ":$MANPATH:" in
    *":$prefix/share/man:"* | *"::"*) ;;
    *) echo "note: MANPATH leaves out $prefix/share/man, so man checklists will not find the page; add it, e.g. export MANPATH=\"$prefix/share/man:\$MANPATH\"" ;;
  esac
else
  echo "man checklists finds the page in $prefix/share/man while $prefix/bin is on your PATH (or add $prefix/share/man to MANPATH)"
fi
