/* Time zones as java.time.ZoneId knows them (DateTimeUtils.getZoneId): a
 * region of the tz database (read from its TZif file under
 * /usr/share/zoneinfo, the Debian tzdata package), a fixed offset
 * (`+hh:mm`, `-h`, `Z`) or UTC/GMT/UT with or without one.
 *
 * Catalyzer keeps a TIMESTAMP value as the wall-clock time of the session
 * time zone in microseconds; these functions convert a time given in
 * another zone (a literal's `Z`, `+01:00` or `Europe/Paris`) to it. Nothing
 * is cached: each call reads the zone's file. */
#ifndef CZ_CORE_TZ_H
#define CZ_CORE_TZ_H

#include <stdbool.h>
#include <stdint.h>

/* The zone's offset from UTC (seconds) at the instant utc_seconds; false if
 * the zone is unknown. */
bool tz_offset_at_instant(const char *zone, int64_t utc_seconds, int32_t *offset);

/* The offset of a wall-clock time local_seconds of the zone (ZonedDateTime.of:
 * in a gap the offset before it, in an overlap the earlier one). */
bool tz_offset_at_local(const char *zone, int64_t local_seconds, int32_t *offset);

/* A wall-clock time of zone `from` as the wall-clock time of zone `to`
 * (micros); false if either zone is unknown. */
bool tz_convert_local(const char *from, const char *to, int64_t micros, int64_t *out);

#endif
