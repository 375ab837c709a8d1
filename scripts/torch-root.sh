#!/usr/bin/env bash
# shellcheck disable=SC2016  # single-quoted $ is meant for dpkg-query / the inner shell
# A Debian root with another PyTorch than the host's (python3-torch, libtorch-dev of version V),
# for building and checking dtypeflow against that version's semantics while the host keeps
# Debian 12's PyTorch 1.13. V is a version of the versions list whose oracle is not the host:
# 2.6 (Debian 13 trixie's) or 2.14 (sid's). Needs root (chroot, mount, debootstrap).
#
#   scripts/torch-root.sh V ensure        make the root if missing (debootstrap SUITE minbase + the
#                                         packages below: ~3 min with apt's cache warm, up to ~25
#                                         when every package is downloaded); otherwise install whatever
#                                         package is missing; fail unless its torch is V.x
#   scripts/torch-root.sh V run CMD...    run CMD inside the root, in the current directory; the
#                                         host's /work is bind-mounted at /work inside, so absolute
#                                         paths under /work mean the same file inside and out
#   scripts/torch-root.sh V build [ARGS]  configure + build this source tree inside the root into
#                                         build-V/ (ARGS go to `cmake --build`, e.g. --target X)
#   scripts/torch-root.sh V test [ARGS]   ctest in build-V/ inside the root (ARGS go to ctest)
#   scripts/torch-root.sh V umount        unmount /work and /proc inside the root (before deleting
#                                         it; other users of the same root lose them too)
# (scripts/torch214-root.sh CMD is scripts/torch-root.sh 2.14 CMD.)
#
# Env (VV is the version without its dot: 214, 26): DTF_TORCH_ROOT or DTF_TORCHVV_ROOT (default
# /var/cache/dtypeflow/SUITE-torchV), DTF_TORCH_BIND or DTF_TORCHVV_BIND (the host directory
# bind-mounted at the same path inside, default /work when the source tree is under it, else the
# tree's parent directory; the source tree must be under it), DTF_TORCH_MIRROR or
# DTF_TORCHVV_MIRROR (default http://deb.debian.org/debian), DTF_JOBS (build jobs, default nproc),
# DTF_TORCH_CXXFLAGS or DTF_TORCHVV_CXXFLAGS (CMAKE_CXX_FLAGS of build-V; see `build` below).
# The per-version name wins over the generic DTF_TORCH_* one (which applies to any V).
# Mounts are made once and reused (never stacked); a lock next to the root
# serializes ensure/mount/umount between concurrent calls (commands themselves run unlocked).
set -euo pipefail

say() { echo "torch-root${VERSION:+ $VERSION}: $*" >&2; }
die() { say "error: $*"; exit 1; }

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
VERSION=${1:-}
case $VERSION in -h|--help|help|"") VERSION= ;; *) shift ;; esac

# suite_of V: the Debian suite whose python3-torch is V (the third column of the versions list).
suite_of() {
  sed -n "s/^DTF_TORCH_VERSION([A-Z0-9_]*, *\"${1//./\\.}\", *\([a-z]*\)).*/\1/p" "$SRC/src/dtype/torch_versions.def"
}
# env_of NAME: DTF_TORCHVV_NAME (VV = the version without its dot), else DTF_TORCH_NAME, else empty.
env_of() {
  local generic=DTF_TORCH_$1 specific=DTF_TORCH${VERSION//./}_$1
  if [[ -n ${!specific+x} ]]; then echo "${!specific}"; else echo "${!generic-}"; fi
}
SUITE=
if [[ -n $VERSION ]]; then
  SUITE=$(suite_of "$VERSION")
  [[ -n $SUITE ]] || die "no version $VERSION in the versions list (src/dtype/torch_versions.def)"
  [[ $SUITE != bookworm ]] || die "$VERSION is the host's PyTorch (Debian 12): no root needed"
fi

ROOT=$(env_of ROOT); ROOT=${ROOT:-/var/cache/dtypeflow/$SUITE-torch$VERSION}
ROOT=${ROOT%/}
# The host directory visible inside the root at the same path: /work when the
# source tree is under it, else the tree's parent directory (a CI checkout
# at /check/work/main binds /check/work), unless DTF_TORCH_BIND says.
BIND=$(env_of BIND)
if [[ -n $BIND ]]; then :
elif [[ $SRC/ == /work/* ]]; then BIND=/work
else BIND=$(dirname "$SRC"); [[ $BIND == / ]] && BIND=$SRC
fi
BIND=${BIND%/}
MIRROR=$(env_of MIRROR); MIRROR=${MIRROR:-http://deb.debian.org/debian}
BUILD_DIR=build-$VERSION
LOCK="$(dirname "$ROOT")/.$(basename "$ROOT").lock"
# The same set for every suite: trixie (2.6.0+dfsg-7, torchvision 0.21.0) and sid
# have each of them (checked with apt-cache policy in both roots).
PKGS=(
  python3-torch libtorch-dev python3-torchvision  # the oracle and its Python
  g++ cmake ninja-build ccache                      # toolchain (g++ 14 in trixie, 16 in sid)
  libfmt-dev nlohmann-json3-dev libcli11-dev        # core and CLI
  libtomlplusplus-dev pkgconf                       # rule files (core); the installed package's pkg-config test
  libsimdjson-dev libdeflate-dev                    # the .pt2 program's JSON, its CRC-32 (core)
  libgtest-dev libgmock-dev libbenchmark-dev        # tests, benchmarks
  libzip-dev pybind11-dev python3-dev               # what libtorch-dev's CMake config looks for
)

# usage [CODE]: the header above; --help asks for it (exit 0, stdout), a mistake gets it (exit 2, stderr).
usage() {
  local code=${1:-2}
  if [ "$code" = 0 ]; then sed -n '/^# A Debian root/,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
  else sed -n '/^# A Debian root/,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; fi
  exit "$code"
}

# --- locking -------------------------------------------------------------
lock() {
  mkdir -p "$(dirname "$LOCK")"
  exec 9>"$LOCK"
  if ! flock -n 9; then
    say "waiting for the lock $LOCK (another call is preparing the root)"
    flock 9
  fi
}
unlock() { flock -u 9; exec 9>&-; }

# --- inside the root -----------------------------------------------------
# A clean environment inside: the host's PATH (pyenv shims ...) and Python
# variables mean nothing there; DTF_*, CCACHE_* and CTEST_* pass through.
in_root() {
  local cwd=$1; shift
  local -a envs=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
                 LANG=C.UTF-8 TERM="${TERM:-dumb}" DEBIAN_FRONTEND=noninteractive)
  local v
  for v in $(compgen -e); do
    case $v in DTF_*|CCACHE_*|CTEST_*|GTEST_*|OMP_*|MKL_*|TORCH_*|CI) envs+=("$v=${!v}");; esac
  done
  env -i "${envs[@]}" chroot "$ROOT" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$cwd" "$@"
}

is_mounted() { mountpoint -q "$1"; }

mount_all() {
  [[ -d $BIND ]] || die "$BIND (DTF_TORCH_BIND) does not exist"
  case "$ROOT/" in "$BIND"/*) die "the root $ROOT must not be inside $BIND";; esac
  mkdir -p "$ROOT/proc" "$ROOT$BIND"
  if ! is_mounted "$ROOT/proc"; then
    say "mounting proc on $ROOT/proc"
    mount -t proc proc "$ROOT/proc"
  fi
  # A mount left by an earlier run can outlive the host directory it showed (a CI
  # checkout deleted and cloned again at the same path): the path then names an
  # empty, deleted directory inside. Same device and inode means the same directory.
  if is_mounted "$ROOT$BIND" && [[ $(stat -c %d:%i "$ROOT$BIND") != $(stat -c %d:%i "$BIND") ]]; then
    say "$ROOT$BIND is a stale mount (no longer $BIND): mounting again"
    umount -R "$ROOT$BIND" 2>/dev/null || umount -R -l "$ROOT$BIND"
  fi
  if ! is_mounted "$ROOT$BIND"; then
    say "bind-mounting $BIND on $ROOT$BIND"
    mount --rbind "$BIND" "$ROOT$BIND"
    mount --make-rslave "$ROOT$BIND" # nothing done inside propagates back to the host
  fi
  [[ $(stat -c %d:%i "$ROOT$BIND") == $(stat -c %d:%i "$BIND") ]] ||
    die "$ROOT$BIND does not show $BIND after mounting"
}

umount_all() {
  if is_mounted "$ROOT$BIND"; then say "unmounting $ROOT$BIND"; umount -R "$ROOT$BIND"; fi
  if is_mounted "$ROOT/proc"; then say "unmounting $ROOT/proc"; umount "$ROOT/proc"; fi
}

copy_resolv() {
  # The root's file is replaced, never followed (a symlink there would point into the host).
  if ! cmp -s /etc/resolv.conf "$ROOT/etc/resolv.conf"; then
    cp --remove-destination -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
  fi
}

missing_pkgs() {
  local installed p
  installed=$(in_root / dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PKGS[@]}" 2>/dev/null |
              awk '$2 == "installed" { print $1 }' || true)
  for p in "${PKGS[@]}"; do grep -qx "$p" <<<"$installed" || echo "$p"; done
}

# Unmount whatever is mounted below $1 (debootstrap's own proc/sys), deepest first.
umount_under() {
  local m
  awk -v p="$1/" 'index($2, p) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
    umount "$m" || umount -l "$m" || true
  done
}

bootstrap() {
  command -v debootstrap >/dev/null || {
    say "installing debootstrap on the host"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  }
  local partial="$ROOT.partial"
  if [[ -e $partial ]]; then
    say "removing an unfinished $partial"
    # Whatever debootstrap left mounted there goes first; --one-file-system
    # keeps rm from ever crossing into a mount.
    umount_under "$partial"
    rm -rf --one-file-system "$partial"
  fi
  say "debootstrap --variant=minbase $SUITE $partial $MIRROR (a few minutes)"
  local t0=$SECONDS
  debootstrap --variant=minbase "$SUITE" "$partial" "$MIRROR" >"$partial.log" 2>&1 ||
    { tail -20 "$partial.log" >&2; die "debootstrap failed (log: $partial.log)"; }
  umount_under "$partial"
  mv "$partial" "$ROOT"
  mv "$partial.log" "$ROOT/var/log/dtypeflow-debootstrap.log"
  say "debootstrap done in $((SECONDS - t0)) s"
}

# Make the root usable: create it if missing, apt config, mounts, packages, version check.
ensure() {
  local full=$1 # 1: also import torch in Python and print versions
  lock
  if [[ ! -x $ROOT/usr/bin/apt-get ]]; then
    [[ -e $ROOT ]] && [[ -n $(ls -A "$ROOT" 2>/dev/null) ]] && die "$ROOT exists but is not a Debian root; move it away"
    [[ -d $ROOT ]] && rmdir "$ROOT"
    say "no root at $ROOT: building it"
    bootstrap
  elif [[ $full == 1 ]]; then
    say "reusing the root at $ROOT"
  fi
  # Debian's mirror signs sid's (and a stable's -updates) Release with a short Valid-Until; a stale
  # snapshot must still be usable.
  local conf="$ROOT/etc/apt/apt.conf.d/99no-valid-until"
  [[ -f $conf ]] || echo 'Acquire::Check-Valid-Until "false";' >"$conf"
  copy_resolv
  mount_all
  local missing
  missing=$(missing_pkgs)
  if [[ -n $missing ]]; then
    say "installing into the root: ${missing//$'\n'/ }"
    local t0=$SECONDS
    local log="$ROOT/var/log/dtypeflow-apt.log"
    # shellcheck disable=SC2086
    { in_root / apt-get update -qq && in_root / apt-get install -y -qq -o Dpkg::Use-Pty=0 $missing &&
      in_root / apt-get clean; } >"$log" 2>&1 ||
      { tail -20 "$log" >&2; die "apt-get failed in the root (log: $log)"; }
    say "packages installed in $((SECONDS - t0)) s"
  fi
  local v
  v=$(in_root / dpkg-query -W -f='${Version}' python3-torch)
  [[ $v == "$VERSION".* ]] || die "the root's python3-torch is $v, not $VERSION.x ($SUITE moved on?): use another DTF_TORCH_ROOT or pin it"
  v=$(in_root / dpkg-query -W -f='${Version}' libtorch-dev)
  [[ $v == "$VERSION".* ]] || die "the root's libtorch-dev is $v, not $VERSION.x"
  if [[ $full == 1 ]]; then
    local got
    got=$(in_root / python3 -c 'import torch, torchvision; print(torch.__version__, torchvision.__version__)' 2>&1) ||
      die "python3 cannot import torch in the root: $got"
    [[ $got == "$VERSION".* ]] || die "torch in the root is $got, not $VERSION.x"
    say "ok: torch/torchvision $got, $(in_root / g++ --version | head -1), $(in_root / cmake --version | head -1)"
  fi
  unlock
}

source_in_bind() {
  case "$SRC/" in "$BIND"/*) ;; *) die "the source tree $SRC is not under $BIND (the only host path visible in the root)";; esac
}

cmd=${1:-}
[[ $# -gt 0 ]] && shift
case $cmd in -h|--help|help) usage 0 ;; esac
[[ -n $VERSION ]] || usage 2
[[ $(id -u) == 0 ]] || die "needs root (chroot, mount)"
case $cmd in
  ensure)
    ensure 1
    ;;
  run)
    [[ $# -gt 0 ]] || die "run: no command"
    ensure 0
    cwd=$(pwd -P)
    case "$cwd/" in "$BIND"/*) ;; *) say "warning: $cwd is not under $BIND: running in / inside the root"; cwd=/;; esac
    in_root "$cwd" "$@"
    ;;
  build)
    source_in_bind
    ensure 0
    jobs=${DTF_JOBS:-$(nproc)}
    # Extra CMAKE_CXX_FLAGS for build-V (none by default: sid's g++ 16 and fmt 11 are
    # stricter about transitive includes, so the sources include what they use).
    cxxflags=$(env_of CXXFLAGS)
    t0=$SECONDS
    say "configuring $SRC/$BUILD_DIR"
    CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BIND} in_root "$SRC" cmake -S . -B "$BUILD_DIR" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
      -DCMAKE_CXX_FLAGS="$cxxflags" >/dev/null
    say "building $SRC/$BUILD_DIR with -j$jobs"
    CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BIND} in_root "$SRC" cmake --build "$BUILD_DIR" -j "$jobs" "$@"
    say "build done in $((SECONDS - t0)) s"
    ;;
  test)
    source_in_bind
    ensure 0
    [[ -f $SRC/$BUILD_DIR/CTestTestfile.cmake ]] || die "no $SRC/$BUILD_DIR: run '$0 build' first"
    in_root "$SRC" ctest --test-dir "$BUILD_DIR" -j "${DTF_JOBS:-$(nproc)}" --output-on-failure "$@"
    ;;
  umount)
    [[ -d $ROOT ]] || die "no root at $ROOT"
    lock
    umount_all
    unlock
    ;;
  -h|--help|help) usage 0 ;;
  "") usage 2 ;;
  *) say "unknown subcommand '$cmd'"; usage ;;
esac
