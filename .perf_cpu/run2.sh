set -e
cd "$(dirname "$0")/.."
mkdir -p /tmp/b && printf '#define SCANLAB_HAVE_OPENMP 1\n#define SCANLAB_HAVE_CUDA 0\n#define SCANLAB_VERSION "x"\n' > /tmp/b/config.h
for v in "-DCPU_TILE_BYTES=131072u" "" "-DCPU_TILE_BYTES=524288u" "-DCPU_TILE_BYTES=1048576u" "-DCPU_STREAM_BLOCK_BYTES=16384u" "-march=native"; do
gcc -std=gnu11 -O3 -fopenmp -D_GNU_SOURCE $v -I. -I/tmp/b .perf_cpu/drv.c cpu/seq.c cpu/omp.c cpu/stream.c -o /tmp/b/drv
echo "== $v"; /tmp/b/drv 268435456 16 5 | grep -v "seq\|dir"
done
