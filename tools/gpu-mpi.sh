#!/bin/sh
# Packs what tools/gpu-check.sh's stage `scaling` needs on a GPU host that
# has no MPI: Debian 12's Open MPI (mpirun, its libraries, plugins and help
# files, and the libraries they load) unpacked into .carry/mpi/root
# (git-ignored), and a scanlab built here with MPI and without CUDA (the
# stage measures the simulator's schedule search, which needs no GPU) as
# .carry/mpi/scanlab. Open MPI finds itself there through OPAL_PREFIX and
# PMIx through its plugin path (the stage sets both), so nothing is
# installed on the host. About 20 MB.
#
#   tools/gpu-mpi.sh [BUILD]    BUILD: a build configured with -Dmpi=enabled
#                               (default: build-mpi, set up here if missing)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-mpi}
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$root" -Dcuda=disabled -Dmpi=enabled >/dev/null
fi
grep -q 'define SCANLAB_HAVE_MPI 1' "$build/config.h" || { echo "gpu-mpi: $build is not built with MPI" >&2; exit 2; }
ninja -C "$build" scanlab >/dev/null
dest=$root/.carry/mpi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Open MPI and what its programs and plugins load, beyond a base system
# with glibc, zlib and libudev
pkgs="openmpi-bin libopenmpi3 openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7
libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200 libpsm-infinipath1 libpsm2-2 libnuma1
libmunge2 libltdl7"
(cd "$tmp" && apt-get download $pkgs >/dev/null 2>&1) || { echo "gpu-mpi: apt-get download failed" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest/root"
for f in "$tmp"/*.deb; do
    dpkg -x "$f" "$dest/root"
done
# what a C program's ranks never load: documentation, Fortran and Java
lib=$dest/root/usr/lib/x86_64-linux-gnu
rm -rf "$dest/root/usr/share/doc" "$dest/root/usr/share/man" "$lib/fortran" "$lib"/libmpi_java* "$lib"/libmpi_mpifh* \
    "$lib"/libmpi_usempi* "$lib"/libmpi_cxx* "$lib"/openmpi/lib/*.jar
cp "$build/scanlab" "$dest/scanlab"
strip "$dest/scanlab"
du -sh "$dest"
