#include "stream.h"

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

enum { VEC = sizeof(__m128i) };

void cpu_stream_store(void *dst, const void *src, size_t bytes)
{
    char *d = dst;
    const char *s = src;
    size_t head = (size_t)(-(uintptr_t)d & (VEC - 1));
    if (head > bytes)
        head = bytes;
    memcpy(d, s, head);
    d += head, s += head, bytes -= head;
    for (; bytes >= VEC; d += VEC, s += VEC, bytes -= VEC)
        _mm_stream_si128((__m128i *)(void *)d, _mm_loadu_si128((const __m128i *)(const void *)s));
    memcpy(d, s, bytes);
}

void cpu_stream_fence(void) { _mm_sfence(); }

#else

void cpu_stream_store(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }

void cpu_stream_fence(void) {}

#endif
