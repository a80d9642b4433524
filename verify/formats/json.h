/* A small streaming JSON writer: enough for the documents scanlab prints.
 * Commas and nesting are tracked here so callers only name keys and values. */
#ifndef SCANLAB_JSON_H
#define SCANLAB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    int depth;
    bool need_comma[32];
} json_writer;

void json_init(json_writer *w, FILE *f);
void json_begin_object(json_writer *w, const char *key); /* key NULL inside arrays/top level */
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w, const char *key);
void json_end_array(json_writer *w);
void json_string(json_writer *w, const char *key, const char *value);
void json_int(json_writer *w, const char *key, long long value);
void json_uint(json_writer *w, const char *key, unsigned long long value);
/* Non-finite numbers are written as null: JSON has no NaN or infinity. */
void json_double(json_writer *w, const char *key, double value);
void json_bool(json_writer *w, const char *key, bool value);
void json_null(json_writer *w, const char *key);
/* A value written elsewhere by a writer of its own (text[0..len), one
 * complete JSON value), placed here as the next value: commas are the
 * writer's, so parts made apart (by the ranks of a campaign) join into
 * one document. */
void json_raw_value(json_writer *w, const char *text, size_t len);
/* Ends the document with a newline. */
void json_finish(json_writer *w);

#endif
