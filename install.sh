#!/bin/sh
# Installs report-deployment's standalone executable (no Node.js needed) for this machine:
#
#   sh install.sh [--version X.Y.Z] [--dir DIR]
#
# It downloads one version's executable for this OS and architecture from the GitHub release (with
# curl, or wget: proxies as they honour them, e.g. https_proxy), checks its SHA-256 against the one
# this copy's release wrote into it (another version's: against that release's SHA256SUMS) before
# anything is installed, runs it once (--version), and only then puts it
# into DIR as report-deployment (report-deployment.exe on Windows). It never uses sudo: DIR must be
# one you may write to. Where that version is in DIR already, it downloads nothing (for another
# version than its own, only that release's SHA256SUMS, to check the copy).
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

# The release this copy is attached to: its workflow writes the version here, and the SHA-256 of each
# of its executables ("<hash> <file> <hash> <file> ..."). For that version, what it downloads and what
# it finds installed already are checked against these, not against a SHA256SUMS it downloads.
pinned_version=''
pinned_sums=''

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

The executable is Node.js with report-deployment inside: its licenses are the release's
report-deployment-licenses.txt.
EOF
}

# All of it in one function, called on the last line: a download cut short (curl ... | sh) runs nothing.
main() {
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
  printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$' ||
    usage_error "--version must be a version such as 1.2.3, got '$version'"
  if [ -z "$dir" ]; then
    [ -n "${HOME:-}" ] || usage_error "HOME is not set: give the directory to install into with --dir DIR"
    dir="$HOME/.local/bin"
  fi
  base="${base%/}"
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
  # mv would put the file into a directory of that name, and say it was installed.
  [ ! -d "$target" ] || fail "$target is a directory: remove it, or give another --dir. Nothing was installed."

  checksum_tool=''
  if command -v sha256sum > /dev/null 2>&1; then
    checksum_tool=sha256sum
  elif command -v shasum > /dev/null 2>&1; then
    checksum_tool=shasum
  fi

  # The executable's SHA-256 as this copy's release gives it, where this copy is that version's.
  expected=''
  if [ "$version" = "$pinned_version" ] && [ -n "$pinned_sums" ]; then
    # shellcheck disable=SC2086 # a hash or a file name a word, none with white space
    expected=$(printf '%s\n' $pinned_sums | awk -v file="$asset" 'NR % 2 == 1 { hash = $0; next } $0 == file { print hash; exit }')
    [ -n "$expected" ] || fail "this install.sh lists no $asset for $version: nothing was installed." "$other_ways"
  fi

  if command -v curl > /dev/null 2>&1; then
    # A download that stalls (under 1 KB/s for 30 s) fails rather than holding the job until its timeout.
    download() {
      curl --fail --silent --show-error --location --retry 3 --connect-timeout 30 --speed-limit 1024 --speed-time 30 \
        --output "$2" "$1"
    }
  elif command -v wget > /dev/null 2>&1 && wget --version 2> /dev/null | grep -q 'GNU Wget'; then
    download() { wget -q --tries=3 --timeout=30 -O "$2" "$1"; }
  elif command -v wget > /dev/null 2>&1; then
    # BusyBox's: some builds have no -T, and Debian's crashes on it.
    download() { wget -q -O "$2" "$1"; }
  else
    fail "neither curl nor wget is installed: install one of them, or download $url/$asset yourself and check it against $url/SHA256SUMS."
  fi
  need_checksum_tool

  work=$(mktemp -d 2> /dev/null || mktemp -d -t report-deployment 2> /dev/null) ||
    fail "could not make a temporary directory (TMPDIR=${TMPDIR:-unset}): set TMPDIR to one you may write to."
  # The half-written copy in DIR goes too, however this ends (an interrupted copy of 100 MB).
  partial=''
  trap 'rm -rf "$work"; [ -z "$partial" ] || rm -f "$partial"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  # Another version than this copy's: its checksum from that release's SHA256SUMS.
  sums_from='this install.sh'
  if [ -z "$expected" ]; then
    sums_from=SHA256SUMS
    download "$url/SHA256SUMS" "$work/SHA256SUMS" ||
      fail "could not download $url/SHA256SUMS: is $version a release ($repository/releases)? Nothing was installed."
    # SHA256SUMS as sha256sum writes it: "<hash>  <file>" (or "<hash> *<file>"), one a line.
    # A mirror may have given it Windows line ends.
    expected=$(awk -v file="$asset" '{ sub(/\r$/, "") } $2 == file || $2 == "*" file { print $1; exit }' "$work/SHA256SUMS")
  fi

  # That version installed already (a CI's cache): nothing more to download. The file must be the
  # release's: a copy that is not (a cache others can write to) is never run, and is replaced.
  if [ -n "$expected" ] && [ -f "$target" ]; then
    if [ "$(sha256 "$target")" = "$expected" ]; then
      say "report-deployment $version is installed already: $target"
      printf '%s\n' "$target"
      exit 0
    fi
    say "$target is not the release's report-deployment $version (its SHA-256 differs): it is replaced."
  fi

  say "downloading report-deployment $version for $os-$arch from $url/"
  download "$url/$asset" "$work/$asset" ||
    fail "could not download $url/$asset: is $version a release, with an executable for $os-$arch? Nothing was installed." "$other_ways"
  [ -n "$expected" ] || fail "$url/SHA256SUMS lists no $asset: nothing was installed."

  actual=$(sha256 "$work/$asset")
  if [ "$actual" != "$expected" ]; then
    fail "the SHA-256 of $asset is not the one $sums_from gives: nothing was installed." \
      "expected $expected" \
      "got      $actual" \
      "The download was changed or cut short: run this again, or check the mirror ($url/)."
  fi

  chmod 755 "$work/$asset"
  if ! installed_version=$("$work/$asset" --version 2>&1); then
    fail "the executable does not run on this machine, so nothing was installed:" "$installed_version" "$other_ways"
  fi

  mkdir -p "$dir" 2>/dev/null || fail "could not create $dir: give a directory you may write to with --dir DIR. Nothing was installed."
  # Into place by a rename in DIR: never half a file, and a running copy is not disturbed.
  partial="$dir/.$name.partial.$$"
  if ! cp "$work/$asset" "$partial" 2>/dev/null; then
    fail "could not write to $dir: give a directory you may write to with --dir DIR. Nothing was installed."
  fi
  chmod 755 "$partial"
  mv -f "$partial" "$target" || fail "could not replace $target. Nothing was installed."
  partial=''

  say "installed report-deployment $installed_version: $target"
  case ":${PATH:-}:" in
    *":$dir:"*) ;;
    *) say "$dir is not on PATH: run it as $target, or add it: export PATH=\"$dir:\$PATH\"" ;;
  esac
  printf '%s\n' "$target"
}

main "$@"
