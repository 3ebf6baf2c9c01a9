/* Decimals as Java's BigDecimal prints them: toString (plain, or scientific
 * `1E-10` when the exponent is small) and stripTrailingZeros.toPlainString
 * (used by interval seconds). */
#include <stdint.h>

#include "print_internal.h"

static int u128_digits(unsigned __int128 v, char *out) {
    char tmp[48];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
    out[n] = 0;
    return n;
}

void decimal_print(StrBuf *sb, __int128 unscaled, int scale) {
    char d[48];
    bool neg = unscaled < 0;
    unsigned __int128 mag = neg ? (unsigned __int128)0 - (unsigned __int128)unscaled : (unsigned __int128)unscaled;
    int n = u128_digits(mag, d);
    long adjusted = -(long)scale + (n - 1);
    if (neg) pr_putc(sb, '-');
    if (scale == 0) {
        pr_putn(sb, d, (size_t)n);
        return;
    }
    if (scale > 0 && adjusted >= -6) {
        if (n > scale) {
            pr_putn(sb, d, (size_t)(n - scale));
            pr_putc(sb, '.');
            pr_putn(sb, d + n - scale, (size_t)scale);
        } else {
            pr_puts(sb, "0.");
            for (int i = 0; i < scale - n; i++) pr_putc(sb, '0');
            pr_putn(sb, d, (size_t)n);
        }
        return;
    }
    pr_putc(sb, d[0]);
    if (n > 1) {
        pr_putc(sb, '.');
        pr_putn(sb, d + 1, (size_t)(n - 1));
    }
    sb_printf(sb, "E%s%ld", adjusted >= 0 ? "+" : "", adjusted);
}

void decimal_print_plain_stripped(StrBuf *sb, __int128 unscaled, int scale) {
    bool neg = unscaled < 0;
    unsigned __int128 mag = neg ? (unsigned __int128)0 - (unsigned __int128)(__int128)unscaled
                                : (unsigned __int128)unscaled;
    while (scale > 0 && mag % 10 == 0 && mag) {
        mag /= 10;
        scale--;
    }
    char d[48];
    int n = u128_digits(mag, d);
    if (neg && mag) pr_putc(sb, '-');
    if (scale <= 0 || mag == 0) {
        pr_putn(sb, d, (size_t)n);
        return;
    }
    if (n > scale) {
        pr_putn(sb, d, (size_t)(n - scale));
        pr_putc(sb, '.');
        pr_putn(sb, d + n - scale, (size_t)scale);
    } else {
        pr_puts(sb, "0.");
        for (int i = 0; i < scale - n; i++) pr_putc(sb, '0');
        pr_putn(sb, d, (size_t)n);
    }
}
