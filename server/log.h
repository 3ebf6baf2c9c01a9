/* Structured logs: one JSON object per line on stderr, written with a single
 * write() so lines from workers and the loop never interleave.
 *
 * What a default-level (info) line may carry is limited: never a session id
 * (a credential: log_session_tag stands in for it), a token, SQL text or a
 * literal (request lines carry the status message only at debug level).
 * Lines that a client can make the daemon repeat (warnings per call) go
 * through log_json_limited. */
#ifndef CZ_LOG_H
#define CZ_LOG_H

#include <jansson.h>

enum { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

/* At most this many lines of one key a second; the rest are counted. */
enum { LOG_BURST_PER_SECOND = 10 };

/* Adds ts, level and msg to fields (stolen; may be NULL) and writes it if
 * level >= min_level. */
void log_json(int min_level, int level, const char *msg, json_t *fields);

/* The same, rate-limited per key: past LOG_BURST_PER_SECOND lines of one key
 * in a second the rest are dropped and counted; a "log lines suppressed" line
 * with the count follows once the second is over. */
void log_json_limited(int min_level, int level, const char *key, const char *msg, json_t *fields);

/* Writes the pending "suppressed" counts of seconds that are over (the loop
 * calls it now and then, so a flood that stops is still reported). */
void log_flush_suppressed(int min_level);

/* A 12-hex-digit tag for a session id: HMAC-SHA256 under a key drawn at
 * start, so the lines of one session correlate within a run while the id
 * cannot be read back (nor guessed ids confirmed) from the log. */
void log_session_tag(const char *id, char out[13]);

#endif
