/* Structured logs: one JSON object per line on stderr, written with a single
 * write() so lines from workers and the loop never interleave. */
#ifndef CZ_LOG_H
#define CZ_LOG_H

#include <jansson.h>

enum { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

/* Adds ts, level and msg to fields (stolen; may be NULL) and writes it if
 * level >= min_level. */
void log_json(int min_level, int level, const char *msg, json_t *fields);

#endif
