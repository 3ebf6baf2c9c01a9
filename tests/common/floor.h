/* The floors of the corpus figures: every figure a corpus test measures has
 * a key in tests/conformance/baseline.json (one file, so one history check
 * keeps them all from going down: tests/conformance/ratchet.py). A figure
 * fails when it falls below its floor, and also when it rises more than one
 * point above it (raise the floor in the same change), so the floors stay
 * within one point of what is measured. */
#ifndef CZ_TEST_FLOOR_H
#define CZ_TEST_FLOOR_H

#include <stdbool.h>

/* Prints "figure KEY: pass/total (pct%), floor F%" and whether it holds;
 * false when below the floor, more than a point above it, the key is
 * missing, or total is 0. Reads $CATALYZER_SOURCE/tests/conformance/baseline.json. */
bool floor_check(const char *key, long pass, long total);

#endif
