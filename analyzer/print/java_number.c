/* Numbers as the JVM prints them: Double.toString / Float.toString (the
 * shortest decimal that reads back as the same value, plain between 1e-3 and
 * 1e7, computerized scientific `1.0E10` outside) and BigDecimal.toString. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print_internal.h"

/* Java prints at least two significant digits in scientific form (`4.9E-324`,
 * not `5.0E-324`): the digit after the point must distinguish the value too. */
static bool sci_form(int e) { return !(e > -3 && e <= 7); }

/* digits (no leading zeros) and decimal exponent e: value = 0.d1d2... × 10^e */
static void java_format(StrBuf *sb, bool neg, const char *digits, int nd, int e) {
    if (neg) sb_putc(sb, '-');
    /* Java: plain when 10^-3 <= |v| < 10^7, i.e. -2 <= e <= 7 */
    if (e > -3 && e <= 7) {
        if (e <= 0) {
            sb_puts(sb, "0.");
            for (int i = 0; i < -e; i++) sb_putc(sb, '0');
            sb_putn(sb, digits, (size_t)nd);
        } else if (nd <= e) {
            sb_putn(sb, digits, (size_t)nd);
            for (int i = nd; i < e; i++) sb_putc(sb, '0');
            sb_puts(sb, ".0");
        } else {
            sb_putn(sb, digits, (size_t)e);
            sb_putc(sb, '.');
            sb_putn(sb, digits + e, (size_t)(nd - e));
        }
        return;
    }
    sb_putc(sb, digits[0]);
    sb_putc(sb, '.');
    if (nd > 1)
        sb_putn(sb, digits + 1, (size_t)(nd - 1));
    else
        sb_putc(sb, '0');
    sb_printf(sb, "E%d", e - 1);
}

/* Splits a "%.*e" rendering into significant digits and exponent. */
static int split_e(const char *buf, char *digits, int *e) {
    const char *p = buf;
    if (*p == '-') p++;
    int nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[nd++] = *p;
    int x = *p == 'e' ? atoi(p + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0') nd--; /* Java never prints trailing zeros */
    digits[nd] = 0;
    *e = x + 1;
    return nd;
}

static bool special(StrBuf *sb, double d) {
    if (isnan(d)) {
        sb_puts(sb, "NaN");
        return true;
    }
    if (isinf(d)) {
        sb_puts(sb, d < 0 ? "-Infinity" : "Infinity");
        return true;
    }
    if (d == 0) {
        sb_puts(sb, signbit(d) ? "-0.0" : "0.0");
        return true;
    }
    return false;
}

void java_double_print(StrBuf *sb, double d) {
    if (special(sb, d)) return;
    char buf[64], digits[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, d);
        if (strtod(buf, NULL) == d || p == 17) {
            int e, nd = split_e(buf, digits, &e);
            if (p == 1 && sci_form(e)) {
                snprintf(buf, sizeof buf, "%.*e", 1, d);
                nd = split_e(buf, digits, &e);
            }
            java_format(sb, d < 0, digits, nd, e);
            return;
        }
    }
}

void java_float_print(StrBuf *sb, float f) {
    if (special(sb, (double)f)) return;
    char buf[64], digits[40];
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, (double)f);
        if (strtof(buf, NULL) == f || p == 9) {
            int e, nd = split_e(buf, digits, &e);
            if (p == 1 && sci_form(e)) {
                snprintf(buf, sizeof buf, "%.*e", 1, (double)f);
                nd = split_e(buf, digits, &e);
            }
            java_format(sb, f < 0, digits, nd, e);
            return;
        }
    }
}

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
    if (neg) sb_putc(sb, '-');
    if (scale == 0) {
        sb_putn(sb, d, (size_t)n);
        return;
    }
    if (scale > 0 && adjusted >= -6) {
        if (n > scale) {
            sb_putn(sb, d, (size_t)(n - scale));
            sb_putc(sb, '.');
            sb_putn(sb, d + n - scale, (size_t)scale);
        } else {
            sb_puts(sb, "0.");
            for (int i = 0; i < scale - n; i++) sb_putc(sb, '0');
            sb_putn(sb, d, (size_t)n);
        }
        return;
    }
    sb_putc(sb, d[0]);
    if (n > 1) {
        sb_putc(sb, '.');
        sb_putn(sb, d + 1, (size_t)(n - 1));
    }
    sb_printf(sb, "E%s%ld", adjusted >= 0 ? "+" : "", adjusted);
}

void decimal_print_plain_stripped(StrBuf *sb, int64_t unscaled, int scale) {
    bool neg = unscaled < 0;
    unsigned __int128 mag = neg ? (unsigned __int128)0 - (unsigned __int128)(__int128)unscaled
                                : (unsigned __int128)unscaled;
    while (scale > 0 && mag % 10 == 0 && mag) {
        mag /= 10;
        scale--;
    }
    char d[48];
    int n = u128_digits(mag, d);
    if (neg && mag) sb_putc(sb, '-');
    if (scale <= 0 || mag == 0) {
        sb_putn(sb, d, (size_t)n);
        return;
    }
    if (n > scale) {
        sb_putn(sb, d, (size_t)(n - scale));
        sb_putc(sb, '.');
        sb_putn(sb, d + n - scale, (size_t)scale);
    } else {
        sb_puts(sb, "0.");
        for (int i = 0; i < scale - n; i++) sb_putc(sb, '0');
        sb_putn(sb, d, (size_t)n);
    }
}
