/* Time zones: fixed offsets, ZoneId.SHORT_IDS and TZif files (tz.h). */
#include "tz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TZ_DIR "/usr/share/zoneinfo/"

/* `+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss` (ZoneOffset.of) */
static bool parse_offset(const char *v, int32_t *off) {
    if (*v != '+' && *v != '-') return false;
    int sign = *v++ == '-' ? -1 : 1;
    int d[6], n = 0;
    size_t len = strlen(v);
    bool colons = strchr(v, ':') != NULL;
    for (const char *q = v; *q; q++) {
        if (*q == ':') continue;
        if (*q < '0' || *q > '9' || n == 6) return false;
        d[n++] = *q - '0';
    }
    int h, m = 0, s = 0;
    if (n == 1) h = d[0];
    else if (n == 2 || n == 4 || n == 6) {
        h = d[0] * 10 + d[1];
        if (n >= 4) m = d[2] * 10 + d[3];
        if (n == 6) s = d[4] * 10 + d[5];
        if (colons && len != (size_t)(n + n / 2 - 1)) return false;
    } else return false;
    if (h > 18 || m > 59 || s > 59 || (h == 18 && (m || s))) return false;
    *off = sign * (h * 3600 + m * 60 + s);
    return true;
}

/* ZoneId.SHORT_IDS */
static const char *short_id(const char *z) {
    static const char *const IDS[][2] = {
        {"ACT", "Australia/Darwin"}, {"AET", "Australia/Sydney"}, {"AGT", "America/Argentina/Buenos_Aires"},
        {"ART", "Africa/Cairo"}, {"AST", "America/Anchorage"}, {"BET", "America/Sao_Paulo"}, {"BST", "Asia/Dhaka"},
        {"CAT", "Africa/Harare"}, {"CNT", "America/St_Johns"}, {"CST", "America/Chicago"}, {"CTT", "Asia/Shanghai"},
        {"EAT", "Africa/Addis_Ababa"}, {"ECT", "Europe/Paris"}, {"IET", "America/Indiana/Indianapolis"},
        {"IST", "Asia/Kolkata"}, {"JST", "Asia/Tokyo"}, {"MIT", "Pacific/Apia"}, {"NET", "Asia/Yerevan"},
        {"NST", "Pacific/Auckland"}, {"PLT", "Asia/Karachi"}, {"PNT", "America/Phoenix"},
        {"PRT", "America/Puerto_Rico"}, {"PST", "America/Los_Angeles"}, {"SST", "Pacific/Guadalcanal"},
        {"VST", "Asia/Ho_Chi_Minh"}, {"EST", "-05:00"}, {"MST", "-07:00"}, {"HST", "-10:00"},
    };
    for (size_t i = 0; i < sizeof IDS / sizeof IDS[0]; i++)
        if (!strcmp(z, IDS[i][0])) return IDS[i][1];
    return z;
}

/* A fixed zone: Z, an offset, UTC/GMT/UT[offset]. */
static bool fixed_zone(const char *z, int32_t *off) {
    if (!strcmp(z, "Z")) return *off = 0, true;
    if (parse_offset(z, off)) return true;
    static const char *const PREFIX[] = {"UTC", "GMT", "UT"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(PREFIX[i]);
        if (!strncmp(z, PREFIX[i], n)) {
            if (!z[n]) return *off = 0, true;
            if (parse_offset(z + n, off)) return true;
        }
    }
    return false;
}

typedef struct Tzif {
    unsigned char *data;
    uint32_t ntrans, ntypes;
    int width;                       /* 4 or 8 bytes a transition time */
    const unsigned char *trans, *idx, *types;
} Tzif;

static int64_t be(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = (v << 8) | p[i];
    if (n == 4) return (int32_t)(uint32_t)v;
    return (int64_t)v;
}

static bool region_name_ok(const char *z) {
    if (!*z || z[0] == '/' || z[0] == '.' || strstr(z, "..")) return false;
    for (const char *q = z; *q; q++)
        if (!((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || strchr("~/._+-", *q)))
            return false;
    return true;
}

static bool tzif_load(const char *zone, Tzif *t) {
    memset(t, 0, sizeof *t);
    if (!region_name_ok(zone)) return false;
    char path[512];
    snprintf(path, sizeof path, TZ_DIR "%s", zone);
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    unsigned char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    if (n < 44 || memcmp(buf, "TZif", 4) != 0) {
        free(buf);
        return false;
    }
    const unsigned char *h = buf;
    int width = 4;
    size_t off = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (off + 44 > n || memcmp(h, "TZif", 4) != 0) break;
        uint32_t isut = (uint32_t)be(h + 20, 4), isstd = (uint32_t)be(h + 24, 4), leap = (uint32_t)be(h + 28, 4);
        uint32_t tc = (uint32_t)be(h + 32, 4), ty = (uint32_t)be(h + 36, 4), ch = (uint32_t)be(h + 40, 4);
        size_t body = (size_t)tc * (size_t)width + tc + (size_t)ty * 6 + ch + (size_t)leap * (size_t)(width + 4) + isstd + isut;
        if (off + 44 + body > n) break;
        t->ntrans = tc;
        t->ntypes = ty;
        t->width = width;
        t->trans = h + 44;
        t->idx = t->trans + (size_t)tc * (size_t)width;
        t->types = t->idx + tc;
        if (h[4] < '2' || pass == 1) break;
        off += 44 + body; /* version 2+: the 64-bit block follows */
        h = buf + off;
        width = 8;
    }
    if (!t->ntypes) {
        free(buf);
        return false;
    }
    t->data = buf;
    return true;
}

static int32_t type_offset(const Tzif *t, uint32_t i) {
    if (i >= t->ntypes) i = 0;
    return (int32_t)be(t->types + (size_t)i * 6, 4);
}

static int32_t tzif_offset(const Tzif *t, int64_t utc) {
    if (!t->ntrans || utc < be(t->trans, t->width)) {
        /* before the first transition: the first standard-time type */
        for (uint32_t i = 0; i < t->ntypes; i++)
            if (!t->types[i * 6 + 4]) return type_offset(t, i);
        return type_offset(t, 0);
    }
    uint32_t lo = 0, hi = t->ntrans - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (be(t->trans + (size_t)mid * (size_t)t->width, t->width) <= utc) lo = mid;
        else hi = mid - 1;
    }
    return type_offset(t, t->idx[lo]);
}

bool tz_offset_at_instant(const char *zone, int64_t utc_seconds, int32_t *offset) {
    if (!zone) return false;
    zone = short_id(zone);
    if (fixed_zone(zone, offset)) return true;
    Tzif t;
    if (!tzif_load(zone, &t)) return false;
    *offset = tzif_offset(&t, utc_seconds);
    free(t.data);
    return true;
}

bool tz_offset_at_local(const char *zone, int64_t local, int32_t *offset) {
    if (!zone) return false;
    zone = short_id(zone);
    if (fixed_zone(zone, offset)) return true;
    Tzif t;
    if (!tzif_load(zone, &t)) return false;
    /* the offsets a day either side; in an overlap the earlier (before the
       transition), in a gap the one before it too (the instant lands after) */
    int32_t before = tzif_offset(&t, local - 93600), after = tzif_offset(&t, local + 93600);
    if (tzif_offset(&t, local - before) == before) *offset = before;
    else if (tzif_offset(&t, local - after) == after) *offset = after;
    else *offset = before;
    free(t.data);
    return true;
}

bool tz_convert_local(const char *from, const char *to, int64_t micros, int64_t *out) {
    int64_t secs = micros >= 0 ? micros / 1000000 : -((-micros + 999999) / 1000000);
    int32_t of, ot;
    if (!tz_offset_at_local(from, secs, &of)) return false;
    int64_t instant = micros - (int64_t)of * 1000000;
    int64_t isecs = instant >= 0 ? instant / 1000000 : -((-instant + 999999) / 1000000);
    if (!tz_offset_at_instant(to, isecs, &ot)) return false;
    *out = instant + (int64_t)ot * 1000000;
    return true;
}
