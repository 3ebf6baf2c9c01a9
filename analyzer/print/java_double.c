/* Double.toString / Float.toString as the JVM that produced Spark 4's golden
 * files prints them (FloatingDecimal of JDK 8-17): not always the shortest
 * digits — it stops on a symmetric half-ULP test, uses int / long arithmetic
 * (overflow included) when the numbers fit and exact big integers otherwise,
 * and prints integer values below 2^63 from their long digits. Reproduced
 * step by step; the format is plain between 1e-3 and 1e7, else `1.0E10`. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "print_internal.h"

/* digits (no leading zeros) and decimal exponent e: value = 0.d1d2... × 10^e */
static void java_format(StrBuf *sb, bool neg, const char *digits, int nd, int e) {
    if (neg) pr_putc(sb, '-');
    /* Java: plain when 10^-3 <= |v| < 10^7, i.e. -2 <= e <= 7 */
    if (e > -3 && e <= 7) {
        if (e <= 0) {
            pr_puts(sb, "0.");
            for (int i = 0; i < -e; i++) pr_putc(sb, '0');
            pr_putn(sb, digits, (size_t)nd);
        } else if (nd <= e) {
            pr_putn(sb, digits, (size_t)nd);
            for (int i = nd; i < e; i++) pr_putc(sb, '0');
            pr_puts(sb, ".0");
        } else {
            pr_putn(sb, digits, (size_t)e);
            pr_putc(sb, '.');
            pr_putn(sb, digits + e, (size_t)(nd - e));
        }
        return;
    }
    pr_putc(sb, digits[0]);
    pr_putc(sb, '.');
    if (nd > 1)
        pr_putn(sb, digits + 1, (size_t)(nd - 1));
    else
        pr_putc(sb, '0');
    sb_printf(sb, "E%d", e - 1);
}

/* ---- unsigned big integers: little-endian 32-bit limbs; 2^1100 · 5^350 fits ---- */

enum { BN_LIMBS = 96 };
typedef struct Big {
    int n;
    uint32_t v[BN_LIMBS];
} Big;

static void bn_set(Big *b, uint64_t x) {
    b->n = 0;
    while (x) {
        b->v[b->n++] = (uint32_t)x;
        x >>= 32;
    }
}

static void bn_mul_small(Big *b, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->v[i] * m + carry;
        b->v[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < BN_LIMBS) b->v[b->n++] = (uint32_t)carry;
}

static void bn_pow5(Big *b, int e) {
    static const uint32_t p5[] = {1,       5,        25,        125,        625,       3125,     15625,
                                  78125,   390625,   1953125,   9765625,    48828125,  244140625};
    for (; e >= 13; e -= 13) bn_mul_small(b, 1220703125u); /* 5^13 */
    if (e > 0) bn_mul_small(b, p5[e]);
}

static void bn_shl(Big *b, int s) {
    if (!b->n || s <= 0) return;
    int words = s / 32, bits = s % 32;
    int n = b->n + words + 1;
    if (n > BN_LIMBS) n = BN_LIMBS;
    for (int i = n - 1; i >= 0; i--) {
        int src = i - words;
        uint64_t hi = src >= 0 && src < b->n ? b->v[src] : 0;
        uint64_t lo = src >= 1 && src - 1 < b->n ? b->v[src - 1] : 0;
        b->v[i] = bits ? (uint32_t)((hi << bits) | (lo >> (32 - bits))) : (uint32_t)hi;
    }
    b->n = n;
    while (b->n && !b->v[b->n - 1]) b->n--;
}

static int bn_cmp(const Big *a, const Big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
    return 0;
}

static void bn_sub(Big *a, const Big *b) { /* a -= b, a >= b */
    uint32_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t sub = (uint64_t)(i < b->n ? b->v[i] : 0) + borrow;
        borrow = (uint64_t)a->v[i] < sub;
        a->v[i] = (uint32_t)((uint64_t)a->v[i] - sub);
    }
    while (a->n && !a->v[a->n - 1]) a->n--;
}

static void bn_add(Big *r, const Big *a, const Big *b) {
    uint64_t carry = 0;
    int n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        uint64_t t = (uint64_t)(i < a->n ? a->v[i] : 0) + (i < b->n ? b->v[i] : 0) + carry;
        r->v[i] = (uint32_t)t;
        carry = t >> 32;
    }
    r->n = n;
    if (carry && n < BN_LIMBS) r->v[r->n++] = (uint32_t)carry;
}

/* FDBigInteger.quoRemIteration: returns b / s (< 10), leaves b = (b % s) * 10 */
static int bn_quorem10(Big *b, const Big *s) {
    int q = 0;
    while (bn_cmp(b, s) >= 0) {
        bn_sub(b, s);
        q++;
    }
    bn_mul_small(b, 10);
    return q;
}

static Big bn_pow52(uint64_t m, int p5, int p2) {
    Big b;
    bn_set(&b, m);
    bn_pow5(&b, p5);
    bn_shl(&b, p2);
    return b;
}

/* ---- FloatingDecimal.BinaryToASCIIBuffer ---- */

/* ceil(log2(5^i)) */
static const int N_5_BITS[] = {0,  3,  5,  7,  10, 12, 14, 17, 19, 21, 24, 26, 28, 31,
                               33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61};
enum { N_5_BITS_LEN = sizeof N_5_BITS / sizeof N_5_BITS[0] };
static const int INSIGNIFICANT_DIGITS[] = {0,  0,  0,  0,  1,  1,  1,  2,  2,  2,  3,  3,  3,  3,  4,  4,
                                           4,  5,  5,  5,  6,  6,  6,  6,  7,  7,  7,  8,  8,  8,  9,  9,
                                           9,  9,  10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14,
                                           14, 14, 15, 15, 15, 15, 16, 16, 16, 17, 17, 17, 18, 18, 18, 19};
enum { INSIGNIFICANT_LEN = sizeof INSIGNIFICANT_DIGITS / sizeof INSIGNIFICANT_DIGITS[0] };

static int64_t pow5_long(int i) {
    int64_t r = 1;
    while (i-- > 0) r *= 5;
    return r;
}

typedef struct Digits {
    char d[40];
    int n;       /* digit count */
    int dec_exp; /* value = 0.d1d2... × 10^dec_exp (Java's decExponent) */
} Digits;

enum { EXP_SHIFT = 52 };
#define FRACT_HOB ((uint64_t)1 << EXP_SHIFT)

static int estimate_dec_exp(uint64_t fract_bits, int bin_exp) {
    uint64_t bits = ((uint64_t)0x3FF << EXP_SHIFT) | (fract_bits & (FRACT_HOB - 1));
    double d2;
    memcpy(&d2, &bits, 8);
    double d = (d2 - 1.5) * 0.289529654 + 0.176091259 + (double)bin_exp * 0.301029995663981;
    return (int)floor(d);
}

static void develop_long_digits(Digits *o, int dec_exp, int64_t lvalue, int insignificant) {
    if (insignificant) {
        int64_t pow10 = pow5_long(insignificant) << insignificant;
        int64_t residue = lvalue % pow10;
        lvalue /= pow10;
        dec_exp += insignificant;
        if (residue >= (pow10 >> 1)) lvalue++;
    }
    char tmp[24];
    int n = 0;
    int64_t c = lvalue % 10;
    lvalue /= 10;
    while (c == 0) {
        dec_exp++;
        c = lvalue % 10;
        lvalue /= 10;
    }
    while (lvalue != 0) {
        tmp[n++] = (char)('0' + c);
        dec_exp++;
        c = lvalue % 10;
        lvalue /= 10;
    }
    tmp[n++] = (char)('0' + c);
    for (int i = 0; i < n; i++) o->d[i] = tmp[n - 1 - i];
    o->n = n;
    o->dec_exp = dec_exp + 1;
}

static void roundup(Digits *o) {
    int i = o->n - 1;
    char q = o->d[i];
    if (q == '9') {
        while (q == '9' && i > 0) {
            o->d[i] = '0';
            q = o->d[--i];
        }
        if (q == '9') {
            o->dec_exp += 1;
            o->d[0] = '1';
            return;
        }
    }
    o->d[i] = (char)(q + 1);
}

/* Java: "at least one digit after the point" means two digits in E-form */
static bool e_form(int dec_exp) { return dec_exp < -3 || dec_exp >= 8; }

static void dtoa(Digits *o, int bin_exp, uint64_t fract_bits, int nsig) {
    int tail_zeros = __builtin_ctzll(fract_bits);
    int nfract = EXP_SHIFT + 1 - tail_zeros;
    int ntiny = nfract - bin_exp - 1;
    if (ntiny < 0) ntiny = 0;
    if (bin_exp <= 62 && bin_exp >= -21 && ntiny == 0) {
        /* an integer that fits a long */
        int insignificant = 0;
        if (bin_exp > nsig) {
            int p2 = bin_exp - nsig - 1;
            insignificant = p2 > 1 && p2 < INSIGNIFICANT_LEN ? INSIGNIFICANT_DIGITS[p2] : 0;
        }
        uint64_t fb = bin_exp >= EXP_SHIFT ? fract_bits << (bin_exp - EXP_SHIFT) : fract_bits >> (EXP_SHIFT - bin_exp);
        develop_long_digits(o, 0, (int64_t)fb, insignificant);
        return;
    }
    /* d = B/S · 10^decExp with 1 <= B/S < 10; M = half an ULP scaled like B */
    int dec_exp = estimate_dec_exp(fract_bits, bin_exp);
    int B5 = dec_exp < 0 ? -dec_exp : 0;
    int B2 = B5 + ntiny + bin_exp;
    int S5 = dec_exp > 0 ? dec_exp : 0;
    int S2 = S5 + ntiny;
    int M5 = B5;
    int M2 = B2 - nsig;
    fract_bits >>= tail_zeros;
    B2 -= nfract - 1;
    int common2 = B2 < S2 ? B2 : S2;
    B2 -= common2;
    S2 -= common2;
    M2 -= common2;
    if (nfract == 1) M2 -= 1; /* exact powers of two: the next smaller value is closer */
    if (M2 < 0) {
        B2 -= M2;
        S2 -= M2;
        M2 = 0;
    }
    int nd = 0, q;
    bool low = false, high = false;
    int64_t low_diff = 0;
    int bbits = nfract + B2 + (B5 < N_5_BITS_LEN ? N_5_BITS[B5] : B5 * 3);
    int tens_bits = S2 + 1 + (S5 + 1 < N_5_BITS_LEN ? N_5_BITS[S5 + 1] : (S5 + 1) * 3);
    if (bbits < 32 && tens_bits < 32) {
        /* int arithmetic, wrapping as the JVM's does */
        int32_t b = (int32_t)(((uint32_t)fract_bits * (uint32_t)pow5_long(B5)) << B2);
        int32_t s = (int32_t)((uint32_t)pow5_long(S5) << S2);
        int32_t m = (int32_t)((uint32_t)pow5_long(M5) << M2);
        int32_t tens = (int32_t)((uint32_t)s * 10u);
        q = b / s;
        b = (int32_t)(10u * (uint32_t)(b % s));
        m = (int32_t)((uint32_t)m * 10u);
        low = b < m;
        high = (int32_t)((uint32_t)b + (uint32_t)m) > tens;
        if (q == 0 && !high)
            dec_exp--;
        else
            o->d[nd++] = (char)('0' + q);
        if (e_form(dec_exp)) high = low = false;
        while (!low && !high && nd < 38) {
            q = b / s;
            b = (int32_t)(10u * (uint32_t)(b % s));
            m = (int32_t)((uint32_t)m * 10u);
            if (m > 0) {
                low = b < m;
                high = (int32_t)((uint32_t)b + (uint32_t)m) > tens;
            } else {
                low = high = true; /* m overflowed: certainly past both bounds */
            }
            o->d[nd++] = (char)('0' + q);
        }
        low_diff = (int32_t)(((uint32_t)b << 1) - (uint32_t)tens); /* int arithmetic, wrapping */
    } else if (bbits < 64 && tens_bits < 64) {
        int64_t b = (int64_t)((fract_bits * (uint64_t)pow5_long(B5)) << B2);
        int64_t s = (int64_t)((uint64_t)pow5_long(S5) << S2);
        int64_t m = (int64_t)((uint64_t)pow5_long(M5) << M2);
        int64_t tens = (int64_t)((uint64_t)s * 10u);
        q = (int)(b / s);
        b = (int64_t)(10u * (uint64_t)(b % s));
        m = (int64_t)((uint64_t)m * 10u);
        low = b < m;
        high = (int64_t)((uint64_t)b + (uint64_t)m) > tens;
        if (q == 0 && !high)
            dec_exp--;
        else
            o->d[nd++] = (char)('0' + q);
        if (e_form(dec_exp)) high = low = false;
        while (!low && !high && nd < 38) {
            q = (int)(b / s);
            b = (int64_t)(10u * (uint64_t)(b % s));
            m = (int64_t)((uint64_t)m * 10u);
            if (m > 0) {
                low = b < m;
                high = (int64_t)((uint64_t)b + (uint64_t)m) > tens;
            } else {
                low = high = true;
            }
            o->d[nd++] = (char)('0' + q);
        }
        low_diff = (int64_t)(((uint64_t)b << 1) - (uint64_t)tens);
    } else {
        /* big integers; the high test is `>=` here, unlike the int/long paths */
        Big S = bn_pow52(1, S5, S2);
        Big B = bn_pow52(fract_bits, B5, B2);
        Big M = bn_pow52(1, M5 + 1, M2 + 1);
        Big T = bn_pow52(1, S5 + 1, S2 + 1);
        Big sum;
        q = bn_quorem10(&B, &S);
        low = bn_cmp(&B, &M) < 0;
        bn_add(&sum, &B, &M);
        high = bn_cmp(&T, &sum) <= 0;
        if (q == 0 && !high)
            dec_exp--;
        else
            o->d[nd++] = (char)('0' + q);
        if (e_form(dec_exp)) high = low = false;
        while (!low && !high && nd < 38) {
            q = bn_quorem10(&B, &S);
            bn_mul_small(&M, 10);
            low = bn_cmp(&B, &M) < 0;
            bn_add(&sum, &B, &M);
            high = bn_cmp(&T, &sum) <= 0;
            o->d[nd++] = (char)('0' + q);
        }
        if (high && low) {
            bn_shl(&B, 1);
            low_diff = bn_cmp(&B, &T);
        }
    }
    o->dec_exp = dec_exp + 1;
    o->n = nd;
    if (high) {
        if (low) {
            if (low_diff == 0) {
                if ((o->d[nd - 1] - '0') & 1) roundup(o); /* a tie: round to even */
            } else if (low_diff > 0) {
                roundup(o);
            }
        } else {
            roundup(o);
        }
    }
}

static bool special(StrBuf *sb, double d) {
    if (isnan(d)) {
        pr_puts(sb, "NaN");
        return true;
    }
    if (isinf(d)) {
        pr_puts(sb, d < 0 ? "-Infinity" : "Infinity");
        return true;
    }
    if (d == 0) {
        pr_puts(sb, signbit(d) ? "-0.0" : "0.0");
        return true;
    }
    return false;
}

void java_double_print(StrBuf *sb, double d) {
    if (special(sb, d)) return;
    uint64_t bits;
    memcpy(&bits, &d, 8);
    uint64_t fract = bits & (FRACT_HOB - 1);
    int bin_exp = (int)((bits >> EXP_SHIFT) & 0x7FF);
    int nsig;
    if (bin_exp == 0) { /* subnormal: normalise */
        int lz = __builtin_clzll(fract);
        int shift = lz - (63 - EXP_SHIFT);
        fract <<= shift;
        bin_exp = 1 - shift;
        nsig = 64 - lz;
    } else {
        fract |= FRACT_HOB;
        nsig = EXP_SHIFT + 1;
    }
    Digits o;
    dtoa(&o, bin_exp - 1023, fract, nsig);
    java_format(sb, signbit(d) != 0, o.d, o.n, o.dec_exp);
}

void java_float_print(StrBuf *sb, float f) {
    if (special(sb, (double)f)) return;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    uint32_t fract = bits & 0x7FFFFF;
    int bin_exp = (int)((bits >> 23) & 0xFF);
    int nsig;
    if (bin_exp == 0) {
        int lz = __builtin_clz(fract);
        int shift = lz - (31 - 23);
        fract <<= shift;
        bin_exp = 1 - shift;
        nsig = 32 - lz;
    } else {
        fract |= 0x800000;
        nsig = 24;
    }
    Digits o;
    dtoa(&o, bin_exp - 127, (uint64_t)fract << (EXP_SHIFT - 23), nsig);
    java_format(sb, signbit(f) != 0, o.d, o.n, o.dec_exp);
}
