set -e
cd "$(dirname "$0")/.."
mkdir -p /tmp/b && printf '#define SCANLAB_HAVE_OPENMP 1\n#define SCANLAB_HAVE_CUDA 0\n#define SCANLAB_VERSION "x"\n' > /tmp/b/config.h
gcc -std=gnu11 -O3 -fopenmp -D_GNU_SOURCE -I. -I/tmp/b .perf_cpu/drv.c cpu/seq.c cpu/omp.c cpu/stream.c -o /tmp/b/drv
for args in "$@"; do /tmp/b/drv $args; done
