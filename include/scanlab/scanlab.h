/* libscanlab: every public part. Link with `pkg-config --libs scanlab`
 * (add --static for libscanlab.a) or, in Meson, dependency('scanlab'). */
#ifndef SCANLAB_PUBLIC_H
#define SCANLAB_PUBLIC_H

#include <scanlab/types.h>
#include <scanlab/kernels.h>
#include <scanlab/simulator.h>
#include <scanlab/harness.h>
#include <scanlab/exact.h>
#include <scanlab/ptx.h>

#endif
