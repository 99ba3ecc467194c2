#!/usr/bin/env sh
# A throwaway recording desktop: Xvfb 1280x800 on a free display (:90-:99), a D-Bus session,
# the at-spi bus and registry, openbox and gtk3-demo. Pids live in a private state dir.
#   eval "$(scripts/desktop.sh start)"   # exports DISPLAY, DBUS_SESSION_BUS_ADDRESS, CUA_DESKTOP_STATE, …
#   scripts/desktop.sh stop              # tears down $CUA_DESKTOP_STATE by pid
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
exec node "$here/bin/cua-contract.js" desktop "$@"
