/* main() of the C corpus tests: without the shared corpus the program exits
 * 77 (meson's SKIP) before criterion runs anything, so a clone without
 * ../shared reports these tests as skipped, never as passed. */
#include <criterion/criterion.h>
#include <criterion/options.h>

#include "corpus.h"

int main(int argc, char *argv[]) {
    corpus_require();
    /* One test after the other: they are long and meson already runs test
     * programs in parallel; and criterion's parallel runner leaks 48 bytes
     * under LeakSanitizer when two long tests overlap (--jobs N overrides). */
    criterion_options.jobs = 1;
    struct criterion_test_set *tests = criterion_initialize();
    int result = 0;
    if (criterion_handle_args(argc, argv, true)) result = !criterion_run_all_tests(tests);
    criterion_finalize(tests);
    return result;
}
