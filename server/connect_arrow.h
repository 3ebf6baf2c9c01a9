/* The little of Apache Arrow's IPC stream format Catalyzer reads: a local
 * relation's data (LocalRelation.data) is an Arrow IPC stream; analysis
 * needs only whether it holds rows (Spark prints an empty local relation as
 * `LocalRelation <empty>, [...]`), so this walks the stream's messages and
 * sums its record batches' lengths. The types come from LocalRelation.schema.
 * Reads flatbuffers by hand, bounds-checked; no allocation. */
#ifndef CZ_CONNECT_ARROW_H
#define CZ_CONNECT_ARROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The number of rows in the stream; false with a reason for a malformed one. */
bool arrow_stream_rows(const uint8_t *p, size_t n, uint64_t *rows, char *err, size_t errlen);

#endif
