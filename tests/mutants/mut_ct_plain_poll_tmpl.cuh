/* ct-plain-poll: Reader's ordering removed: the poll of a tile's status
 * word is a plain load instead of a relaxed (strong) one, as when the
 * volatile is forgotten (sp_status.cuh holds the change); the compiler may
 * hoist it out of the spin, and it races with the publishing store. */
#define MUT_NAME mut_ct_plain_poll
#define MUT_SP_PLAIN_POLL
#include "tests/mutants/chained_family.cuh"
