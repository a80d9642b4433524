/* mg-gpu-scope: the shard total's flag published with st.release.gpu and
 * read with ld.acquire.gpu where the devices need system scope: neither
 * reaches a thread of another device, so the plain store of the total and
 * its plain load on the next device are unordered. A model that ignored
 * which device a thread is on would see a release/acquire pair and pass it. */
#define SL_MG_NAME mut_mg_gpu_scope
#define SL_MG_PUBLISH(a, i, v) ST_RELEASE(a, i, v) /* mutated: GPU scope */
#define SL_MG_OBSERVE(a, i) LD_ACQUIRE(a, i)       /* mutated: GPU scope */
#include "cuda/device/multi_gpu_tmpl.cuh"
