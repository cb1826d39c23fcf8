#!/bin/sh
# Install the compilers and interpreters of the judge's built-in languages
# (docs/languages.md) with the system package manager (Debian/Ubuntu apt).
#
#   scripts/install-toolchains.sh           # what is missing here
#   scripts/install-toolchains.sh --all     # every package, installed or not
#   scripts/install-toolchains.sh --list    # print "tool package" and exit
#   scripts/install-toolchains.sh go ghc    # only these tools' packages
#
# A tool already on PATH is left alone (a rustup rustc, a nodesource node):
# its package is not installed over it. Each line below is the program the
# judge checks and the Debian 12 package that provides it; tests/languages.rs
# checks that every package src/submission/languages/ names is listed here.
# Languages with no Debian 12 package (APL, Dart, Gerbil, Julia, Odin, Simula,
# Smalltalk, Snobol, Swift, Visual Basic, Zig, F#) are not installed: see
# docs/languages.md. Python 2 has no Debian 12 package either: where pyenv
# is installed, its 2.7.18 is (`pyenv install` builds it from python.org's
# source, so it needs that site) and made `python2` (below); `python3` is
# unchanged. Octave is left out by default (about 135 packages):
# name it (`scripts/install-toolchains.sh octave-cli`) to install it.
set -eu

packages() {
cat <<'LIST'
gcc gcc
g++ g++
gmp.h libgmp-dev
gnatmake gnat
a68g algol68g
bash bash
cobc gnucobol3
crystal crystal
mcs mono-mcs
gdc gdc
elixir elixir
erlc erlang-nox
gforth gforth
gfortran gfortran
go golang-go
ghc ghc
javac default-jdk-headless
kotlinc kotlin
node nodejs
sbcl sbcl
lua5.4 lua5.4
gm2 gm2
nim nim
gcc gobjc
ocamlopt ocaml-nox
fpc fpc
perl perl
php php-cli
swipl swi-prolog-nox
python3 python3
python3 python3-numpy
pypy3 pypy3
racket racket
ruby ruby
rustc rustc
scalac scala
tsc node-typescript
gawk gawk
Rscript r-base-core
LIST
}
optional() {
cat <<'LIST'
octave-cli octave
LIST
}

all=0; only=""
for a in "$@"; do
  case "$a" in
    --all) all=1 ;;
    --list) packages; optional; exit 0 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "install-toolchains: unknown option $a" >&2; exit 2 ;;
    *) only="$only $a" ;;
  esac
done

# Python 2 by pyenv (see above); without pyenv, say so and go on. pyenv's
# build lives under HOME (hidden from the sandbox) and links its libpython
# by an absolute run path there, so it is copied to /opt/python2.7 (its
# library found through ld.so.conf), `python2` on PATH is a link to it, and
# pyenv's global versions end with `system`, so that its `python2` shim
# finds that one (Python 2 finds its library from the link's target).
python2_by_pyenv() {
  if python2 -c 'import sys; sys.exit(sys.version_info[0] != 2)' >/dev/null 2>&1 \
      && [ "$(python2 -c 'import sys; print(sys.executable)')" = /usr/local/bin/python2 ]; then
    return 0
  fi
  if ! command -v pyenv >/dev/null 2>&1; then
    echo "install-toolchains: python2: no Debian package and no pyenv; Python 2 submissions will say it is not installed" >&2
    return 0
  fi
  version=2.7.18
  pyenv install -s "$version" || {
    echo "install-toolchains: python2: pyenv install $version failed (it downloads from python.org)" >&2
    return 0
  }
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo rm -rf /opt/python2.7
  $sudo cp -a "$(pyenv root)/versions/$version" /opt/python2.7
  $sudo chmod -R a+rX /opt/python2.7
  echo /opt/python2.7/lib | $sudo tee /etc/ld.so.conf.d/python2.7.conf >/dev/null
  $sudo ldconfig
  $sudo ln -sf /opt/python2.7/bin/python2.7 /usr/local/bin/python2
  current=$(pyenv global | grep -v -x -e system -e "$version" | tr '\n' ' ')
  # shellcheck disable=SC2086
  pyenv global $current system
  pyenv rehash
  echo "install-toolchains: python2 is /usr/local/bin/python2 (pyenv's $version, copied to /opt/python2.7)"
}
case " $only " in "  "|*" python2 "*) python2_by_pyenv ;; esac
[ "$only" = " python2" ] && exit 0

want=""
{ packages; [ -n "$only" ] && optional; } | {
  while read -r tool package; do
    if [ -n "$only" ]; then
      case " $only " in *" $tool "*|*" $package "*) ;; *) continue ;; esac
    fi
    # An installed package is left alone, and so is a tool already on
    # PATH from elsewhere (gobjc's and libgmp-dev's tools are not
    # programs of their own: only dpkg knows).
    if [ "$all" = 0 ]; then
      dpkg -s "$package" >/dev/null 2>&1 && continue
      case "$package" in
        gobjc|python3-numpy|libgmp-dev) ;;
        *) command -v "$tool" >/dev/null 2>&1 && continue ;;
      esac
    fi
    want="$want $package"
  done
  if [ -z "$want" ]; then
    echo "install-toolchains: every toolchain is installed already"
    exit 0
  fi
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "install-toolchains: installing$want"
  $sudo apt-get update
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $want
}
