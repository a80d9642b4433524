/* The catalogue's nvcc PTX served to its C host drivers (catalogue.c). */
#ifndef SCANLAB_PTX_CATALOGUE_H
#define SCANLAB_PTX_CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>

/* Loads every <stem>_<tn>.ptx of dir and sends the dialect's launches
 * there from now on: 0, or -1 with a message in err. */
int model_ptx_catalogue_open(const char *dir, char *err, size_t errlen);
/* The module whose launches serve algorithm algo (its command-line name)
 * for type number tn (1 i32, 2 i64, 3 f32, 4 f64); false when there is
 * none (launches then run the dialect build). */
bool model_ptx_catalogue_select(const char *algo, unsigned tn);
/* Launches served from PTX, and launches with no entry of their name in
 * the selected module (the last one's name). */
void model_ptx_catalogue_counts(unsigned long *served, unsigned long *missed, const char **last_missed);
/* Back to the dialect builds; the modules freed. */
void model_ptx_catalogue_close(void);

#endif
