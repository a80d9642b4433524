/* ct-carry-swapped: a section-combine bug beyond one tile: a tile
 * publishes OP(its total, the prefix before it) for OP(prefix, total), so
 * the prefix of every tile from the third on is wrong for a
 * non-commutative operator. Tiles of the default 384 x 24 elements: no
 * size up to 4097 has a third tile. */
#define MUT_NAME mut_ct_carry_swapped
#define MUT_CT_CARRY_SWAPPED
#include "tests/mutants/chained_family.cuh"
