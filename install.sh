#!/bin/sh
# Installs report-deployment's standalone executable (no Node.js needed) for this machine:
#
#   sh install.sh [--version X.Y.Z] [--dir DIR]
#
# It downloads one version's executable for this OS and architecture from the GitHub release (with
# curl, or wget: proxies as they honour them, e.g. https_proxy) into a folder of its own in DIR,
# checks its SHA-256 against the one this copy's release wrote into it (another version's: against
# that release's SHA256SUMS) before anything is installed, runs it once there (--version), and only
# then renames it into place as DIR/report-deployment (report-deployment.exe on Windows). It never
# uses sudo: DIR must be one you may write to. Where that version is in DIR already, it downloads
# nothing (for another version than its own, only that release's SHA256SUMS, to check the copy).
# Each download is bounded: no larger than the release's own size of the file (this copy's
# version; another's: 512 MiB), over within 10 minutes, and given up after 30 s without a byte.
#
#   --version X.Y.Z   the version (default: the release this copy is attached to)
#   --dir DIR         where to install it (default: ~/.local/bin; made if missing)
#
# Environment (the flags win):
#   REPORT_DEPLOYMENT_VERSION       as --version
#   REPORT_DEPLOYMENT_INSTALL_DIR   as --dir
#   REPORT_DEPLOYMENT_DOWNLOAD_URL  where releases are downloaded from, for a mirror: files are read
#                                   from $REPORT_DEPLOYMENT_DOWNLOAD_URL/vX.Y.Z/ (default:
#                                   https://github.com/acme/report-deployment/releases/download)
#
# Exit codes: 0 installed (or there already); 1 it could not be installed (nothing was); 2 a usage error.
# The executable is Node.js with report-deployment inside: its licenses (ours, Node.js's and those of
# what both bundle) are the release's report-deployment-licenses.txt, beside it in the release; DIR
# holds programs, so it is not installed there.
# Where no executable fits (Alpine and other musl Linux, other systems or architectures), it says so
# and names the other way: the npm package, on Node.js 22 or later.
set -eu

# The release this copy is attached to: its workflow writes the version here, the SHA-256 of each of
# its executables ("<hash> <file> <hash> <file> ...") and their sizes in bytes ("<size> <file> ...").
# For that version, what it downloads and what it finds installed already are checked against
# these, not against a SHA256SUMS it downloads.
pinned_version=''
pinned_sums=''
pinned_sizes=''

# A download's bounds: given up after this many seconds without a byte, or in all; no larger than
# this where the release gives no size (another version's executable), nor SHA256SUMS than that.
stall_seconds=30
max_seconds=600
max_bytes=536870912
max_sums_bytes=1048576

repository='https://github.com/acme/report-deployment'
default_base="$repository/releases/download"

say() { printf 'install.sh: %s\n' "$*" >&2; }
sha256() {
  # From stdin: GNU sha256sum escapes a file name holding a backslash, and marks the line so.
  if [ "$checksum_tool" = sha256sum ]; then sha256sum < "$1"; else shasum -a 256 < "$1"; fi | cut -d ' ' -f 1
}
need_checksum_tool() {
  [ -n "$checksum_tool" ] ||
    fail "neither sha256sum nor shasum is installed, so the download could not be checked: nothing was installed." \
      "Install one of them (coreutils, or perl's shasum) and run this again."
}
fail() {
  for line in "$@"; do printf 'install.sh: %s\n' "$line" >&2; done
  exit 1
}
# A URL as it may be printed: a mirror's user and password (https://user:token@mirror/) left out.
shown() {
  shown_rest=${1#*://}
  shown_authority=${shown_rest%%/*}
  case "$shown_authority" in
    *@*) printf '%s://***@%s%s' "${1%%://*}" "${shown_authority##*@}" "${shown_rest#"$shown_authority"}" ;;
    *) printf '%s' "$1" ;;
  esac
}

# Downloads URL $1 into file $2, at most $3 bytes, within the bounds above, whichever downloader:
# it writes to a pipe that stops taking bytes past the limit, and a watchdog stops it when no byte
# came for stall_seconds or it took max_seconds in all (that fails here); a failed download returns 1.
fetch() {
  rm -f "$work/downloader" "$work/status" "$work/why"
  # In a subshell of its own, so that waiting for it waits for the whole pipe.
  (
    {
      download "$1" &
      printf '%s\n' "$!" > "$work/downloader"
      wait "$!"
      printf '%s\n' "$?" > "$work/status"
    } | head -c "$(($3 + 1))" > "$2"
  ) &
  fetching=$!
  watchdog "$2" "$fetching" > /dev/null 2>&1 < /dev/null &
  watching=$!
  wait "$fetching" || true
  fetching=''
  # It also ends by itself within a second: a kill sent as it starts can be lost.
  kill "$watching" 2> /dev/null || true
  watching=''
  fetch_problem=''
  if [ -s "$work/why" ]; then
    fetch_problem=$(cat "$work/why")
  elif [ "$(wc -c < "$2")" -gt "$3" ]; then
    fetch_problem="it is larger than the $3 bytes the release gives"
  fi
  [ -z "$fetch_problem" ] ||
    fail "the download of $(shown "$1") was stopped: $fetch_problem. Nothing was installed." \
      "Run this again, or check the network and the mirror."
  [ "$(cat "$work/status" 2> /dev/null)" = 0 ]
}
watchdog() {
  watch_size=0 watch_still=0 watch_elapsed=0
  while sleep 1 && kill -0 "$2" 2> /dev/null; do
    watch_elapsed=$((watch_elapsed + 1))
    watch_now=$(wc -c < "$1")
    if [ "$watch_now" -gt "$watch_size" ]; then watch_size=$watch_now watch_still=0; else watch_still=$((watch_still + 1)); fi
    if [ "$watch_still" -ge "$stall_seconds" ]; then
      printf 'no data came for %s s' "$stall_seconds" > "$work/why"
    elif [ "$watch_elapsed" -ge "$max_seconds" ]; then
      printf 'it took longer than %s s' "$max_seconds" > "$work/why"
    else
      continue
    fi
    kill "$(cat "$work/downloader")" 2> /dev/null
    exit 0
  done
}

# However this ends: the downloader stopped, the temporary folders removed, and the folders made for
# DIR removed again where nothing was installed (rmdir: only empty ones).
cleanup() {
  [ -z "${watching:-}" ] || kill "$watching" 2> /dev/null || true
  if [ -n "${fetching:-}" ] && [ -s "$work/downloader" ]; then kill "$(cat "$work/downloader")" 2> /dev/null || true; fi
  [ -z "${work:-}" ] || rm -rf "$work"
  [ -z "${stage:-}" ] || rm -rf "$stage"
  if [ -n "${made:-}" ]; then
    cleanup_dir=$dir
    while rmdir "$cleanup_dir" 2> /dev/null && [ "$cleanup_dir" != "$made" ]; do cleanup_dir=${cleanup_dir%/*}; done
  fi
}
# A signal: the same cleanup, then the exit code a shell gives for that signal (128 + its number,
# the same on every system for these); USR1 and USR2, numbered differently, end the shell by it.
on_signal() {
  trap '' EXIT
  cleanup
  [ -z "${2:-}" ] || exit "$((128 + $2))"
  trap - "$1"
  kill -s "$1" "$$"
  exit 1
}

usage_error() {
  printf 'install.sh: %s\n' "$1" >&2
  printf 'Usage: sh install.sh [--version X.Y.Z] [--dir DIR]; sh install.sh --help says more.\n' >&2
  exit 2
}
help() {
  default_version=${pinned_version:-none, this copy is not from a release}
  cat << EOF
Installs report-deployment's standalone executable (no Node.js needed) for this machine.

Usage: sh install.sh [--version X.Y.Z] [--dir DIR]

  --version X.Y.Z   the version (default: $default_version)
  --dir DIR         where to install it (default: ~/.local/bin; made if missing)

Environment (the flags win):
  REPORT_DEPLOYMENT_VERSION       as --version
  REPORT_DEPLOYMENT_INSTALL_DIR   as --dir
  REPORT_DEPLOYMENT_DOWNLOAD_URL  where releases are downloaded from, for a mirror: files are read
                                  from it/vX.Y.Z/ (default: $default_base)

It checks the download's SHA-256 before anything is installed (against the checksums its release
wrote into this copy, or another version's SHA256SUMS), never uses sudo, and downloads no
executable where that version is in DIR already (a copy there is checked the same way, and never
run unless it is the release's). Proxies: as curl or wget honour them (https_proxy, no_proxy). Prints the installed executable's path on stdout.
A download is given up after 30 s without a byte, or 10 minutes in all.

The executable is Node.js with report-deployment inside: its licenses are the release's
report-deployment-licenses.txt.
EOF
}

# All of it in one function, called on the last line: a download cut short (curl ... | sh) runs nothing.
main() {
  # What cleanup removes or stops: never a value from the environment.
  work='' stage='' made='' fetching='' watching=''
  version="${REPORT_DEPLOYMENT_VERSION:-$pinned_version}"
  dir="${REPORT_DEPLOYMENT_INSTALL_DIR:-}"
  base="${REPORT_DEPLOYMENT_DOWNLOAD_URL:-$default_base}"

  while [ "$#" -gt 0 ]; do
    case "$1" in
      --version | --dir)
        [ "$#" -ge 2 ] || usage_error "$1 needs a value"
        if [ "$1" = --version ]; then version="$2"; else dir="$2"; fi
        shift 2
        ;;
      --version=*) version="${1#--version=}" && shift ;;
      --dir=*) dir="${1#--dir=}" && shift ;;
      -h | --help)
        help
        exit 0
        ;;
      *) usage_error "unknown argument '$1'" ;;
    esac
  done

  version="${version#v}"
  [ -n "$version" ] || usage_error "this copy of install.sh is not from a release: give the version, e.g. --version 1.2.3 ($repository/releases)"
  # grep reads line by line: a version holding a line end would pass on its first line.
  case "$version" in *[!0-9A-Za-z.-]*) usage_error "--version must be a version such as 1.2.3, got '$version'" ;; esac
  printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$' ||
    usage_error "--version must be a version such as 1.2.3, got '$version'"
  if [ -z "$dir" ]; then
    [ -n "${HOME:-}" ] || usage_error "HOME is not set: give the directory to install into with --dir DIR"
    dir="$HOME/.local/bin"
  fi
  base="${base%/}"
  case "$dir" in ?*/) dir=${dir%/} ;; esac
  # A directory named like an option (--dir -x) is a path to mkdir, cp and mv.
  case "$dir" in -*) dir="./$dir" ;; esac

  other_ways="Use the npm package instead, with Node.js 22 or later: npm install --global report-deployment@$version"

  # This machine: the release's name for its OS and architecture.
  os=$(uname -s)
  arch=$(uname -m)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) os=win ;;
    *) fail "there is no executable for $os ($arch)." "$other_ways" ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "there is no executable for $os on $arch." "$other_ways" ;;
  esac
  # A shell under Rosetta on Apple silicon: the native one.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  if [ "$os" = win ] && [ "$arch" != x64 ]; then
    fail "there is no executable for Windows on $arch." "$other_ways"
  fi
  if [ "$os" = linux ]; then
    # The executables are built for glibc: Alpine and other musl systems cannot run them.
    if (ldd --version 2>&1 || true) | grep -qi musl || ls /lib/ld-musl-* > /dev/null 2>&1; then
      fail "this Linux uses musl libc (Alpine?), and the executable needs glibc." \
        "Use the npm package with the image's Node.js instead: apk add nodejs npm && npm install --global report-deployment@$version"
    fi
  fi

  asset="report-deployment-$os-$arch"
  name=report-deployment
  if [ "$os" = win ]; then
    asset="$asset.exe"
    name=report-deployment.exe
  fi
  target="$dir/$name"
  url="$base/v$version"
  # The URL as progress and error lines show it: never a mirror's credentials.
  shown_url=$(shown "$url")
  # mv would put the file into a directory of that name, and say it was installed.
  [ ! -d "$target" ] || fail "$target is a directory: remove it, or give another --dir. Nothing was installed."

  checksum_tool=''
  if command -v sha256sum > /dev/null 2>&1; then
    checksum_tool=sha256sum
  elif command -v shasum > /dev/null 2>&1; then
    checksum_tool=shasum
  fi

  # The executable's SHA-256 and size as this copy's release gives them, where this copy is that version's.
  expected=''
  limit=$max_bytes
  if [ "$version" = "$pinned_version" ] && [ -n "$pinned_sums" ]; then
    # shellcheck disable=SC2086 # a hash, a size or a file name a word, none with white space
    expected=$(printf '%s\n' $pinned_sums | awk -v file="$asset" 'NR % 2 == 1 { hash = $0; next } $0 == file { print hash; exit }')
    [ -n "$expected" ] || fail "this install.sh lists no $asset for $version: nothing was installed." "$other_ways"
    # shellcheck disable=SC2086
    size=$(printf '%s\n' $pinned_sizes | awk -v file="$asset" 'NR % 2 == 1 { size = $0; next } $0 == file { print size; exit }')
    [ -z "$size" ] || limit=$size
  fi

  # Each writes the file to stdout; `exec`: the process fetch starts is the downloader itself.
  if command -v curl > /dev/null 2>&1; then
    # Retries only within the first stall_seconds: a stall is not waited out four times.
    download() {
      exec curl --fail --silent --show-error --location --retry 3 --retry-max-time "$stall_seconds" \
        --connect-timeout "$stall_seconds" "$1"
    }
  elif command -v wget > /dev/null 2>&1 && wget --version 2> /dev/null | grep -q 'GNU Wget'; then
    download() { exec wget -q --tries=3 --timeout="$stall_seconds" -O - "$1"; }
  elif command -v wget > /dev/null 2>&1; then
    # BusyBox's: some builds have no -T, and Debian's crashes on it (fetch's watchdog bounds it). It
    # sends a URL's user and password on to whatever host a redirect names: not given them.
    if [ "$shown_url" != "$url" ]; then
      fail "BusyBox's wget would send the user and password in REPORT_DEPLOYMENT_DOWNLOAD_URL on to any host a redirect names: nothing was downloaded." \
        "Install curl or GNU wget, or give a mirror URL without them."
    fi
    download() { exec wget -q -O - "$1"; }
  else
    fail "neither curl nor wget is installed: install one of them, or download $shown_url/$asset yourself and check it against $shown_url/SHA256SUMS."
  fi
  need_checksum_tool

  # Nothing left behind however this ends: an error, or any signal that would end the shell (set
  # first: one that comes while mktemp runs is handled once it has made the folder).
  trap cleanup EXIT
  for signal in HUP:1 INT:2 QUIT:3 ABRT:6 PIPE:13 ALRM:14 TERM:15 USR1 USR2; do
    # shellcheck disable=SC2064 # the signal's name and number, now
    trap "on_signal ${signal%:*} $(case "$signal" in *:*) printf '%s' "${signal#*:}" ;; esac)" "${signal%:*}"
  done

  work=$(mktemp -d 2> /dev/null || mktemp -d -t report-deployment 2> /dev/null) ||
    fail "could not make a temporary directory (TMPDIR=${TMPDIR:-unset}): set TMPDIR to one you may write to."

  # Another version than this copy's: its checksum from that release's SHA256SUMS.
  sums_from='this install.sh'
  if [ -z "$expected" ]; then
    sums_from=SHA256SUMS
    fetch "$url/SHA256SUMS" "$work/SHA256SUMS" "$max_sums_bytes" ||
      fail "could not download $shown_url/SHA256SUMS: is $version a release ($repository/releases)? Nothing was installed."
    # SHA256SUMS as sha256sum writes it: "<hash>  <file>" (or "<hash> *<file>"), one a line.
    # A mirror may have given it Windows line ends.
    expected=$(awk -v file="$asset" '{ sub(/\r$/, "") } $2 == file || $2 == "*" file { print $1; exit }' "$work/SHA256SUMS")
    # Before downloading 100 MB that could not be checked.
    [ -n "$expected" ] || fail "$shown_url/SHA256SUMS lists no $asset: nothing was installed." "$other_ways"
  fi

  # That version installed already (a CI's cache): nothing more to download. The file must be the
  # release's: a copy that is not (a cache others can write to) is never run, and is replaced.
  if [ -f "$target" ]; then
    if [ "$(sha256 "$target")" = "$expected" ]; then
      # A cache that keeps no file modes: the release's file, made runnable again (not through a link).
      if [ ! -x "$target" ] && [ ! -L "$target" ]; then chmod 755 "$target"; fi
      if [ -x "$target" ]; then
        say "report-deployment $version is installed already: $target"
        printf '%s\n' "$target"
        exit 0
      fi
    else
      say "$target is not the release's report-deployment $version (its SHA-256 differs): it is replaced."
    fi
  fi

  # The download goes into a folder of its own in DIR, made with a name no one can guess (a link
  # planted at a predictable name would have it written elsewhere), and it is checked and run there:
  # where it will run, not in TMPDIR (which may not let programs run).
  made=''
  made_from=$dir
  while [ ! -e "$made_from" ] && [ ! -L "$made_from" ]; do
    made=$made_from
    case "$made_from" in */?*) made_from=${made_from%/*} ;; *) break ;; esac
  done
  mkdir -p "$dir" 2> /dev/null || fail "could not create $dir: give a directory you may write to with --dir DIR. Nothing was installed."
  stage=$(mktemp -d "$dir/.report-deployment.XXXXXXXXXX" 2> /dev/null) ||
    fail "could not write to $dir: give a directory you may write to with --dir DIR. Nothing was installed."
  printf '#!/bin/sh\nexit 0\n' > "$stage/probe" && chmod 755 "$stage/probe"
  "$stage/probe" 2> /dev/null ||
    fail "$dir does not let programs run (a file system mounted noexec?): give another --dir. Nothing was installed."

  say "downloading report-deployment $version for $os-$arch from $shown_url/"
  fetch "$url/$asset" "$stage/$name" "$limit" ||
    fail "could not download $shown_url/$asset: is $version a release, with an executable for $os-$arch? Nothing was installed." "$other_ways"

  actual=$(sha256 "$stage/$name")
  if [ "$actual" != "$expected" ]; then
    fail "the SHA-256 of $asset is not the one $sums_from gives: nothing was installed." \
      "expected $expected" \
      "got      $actual" \
      "The download was changed or cut short: run this again, or check the mirror ($shown_url/)."
  fi

  chmod 755 "$stage/$name"
  if ! installed_version=$("$stage/$name" --version 2>&1); then
    fail "the executable does not run on this machine, so nothing was installed:" "$installed_version" "$other_ways"
  fi

  # Into place by a rename in DIR: never half a file, and a running copy is not disturbed.
  mv -f "$stage/$name" "$target" || fail "could not replace $target. Nothing was installed."
  made=''

  say "installed report-deployment $installed_version: $target"
  case ":${PATH:-}:" in
    *":$dir:"*) ;;
    *) say "$dir is not on PATH: run it as $target, or add it: export PATH=\"$dir:\$PATH\"" ;;
  esac
  printf '%s\n' "$target"
}

main "$@"
