/* Splitting a SQL script into statements on `;` outside quotes and comments
 * (the `catalyzer parse` / `run` input format). */
#include <stdbool.h>

#include "catalyzer.h"

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

void cz_split_statements(const char *text, size_t len, void (*fn)(void *ctx, const char *stmt, size_t len, size_t offset),
                         void *ctx) {
    size_t i = 0, start = 0;
    bool content = false; /* the current statement has something besides blanks and comments */
    size_t first = 0, last = 0;
    while (i <= len) {
        if (i == len || text[i] == ';') {
            if (content) fn(ctx, text + first, last - first, first);
            i++;
            start = i;
            content = false;
            continue;
        }
        char c = text[i];
        if (c == '-' && i + 1 < len && text[i + 1] == '-') {
            while (i < len && text[i] != '\n') i++;
            continue;
        }
        if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            int depth = 0;
            while (i < len) {
                if (text[i] == '/' && i + 1 < len && text[i + 1] == '*') depth++, i += 2;
                else if (text[i] == '*' && i + 1 < len && text[i + 1] == '/') {
                    depth--, i += 2;
                    if (!depth) break;
                } else i++;
            }
            continue;
        }
        if (is_space(c)) {
            i++;
            continue;
        }
        if (!content) {
            content = true;
            first = i;
        }
        if (c == '\'' || c == '"' || c == '`') {
            i++;
            while (i < len && text[i] != c) {
                if (c != '`' && text[i] == '\\' && i + 1 < len) i++;
                i++;
            }
            if (i < len) i++;
            last = i;
            continue;
        }
        i++;
        last = i;
    }
    (void)start;
}
