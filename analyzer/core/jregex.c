/* A java.util.regex subset: compile to a tree, match by backtracking with
 * explicit continuations (jregex.h says the syntax). */
#include "jregex.h"

#include <string.h>

typedef enum { R_CHAR, R_ANY, R_CLASS, R_BOL, R_EOL, R_GROUP, R_REPEAT } RKind;
typedef enum { Q_GREEDY, Q_LAZY, Q_POSSESSIVE } QMode;

typedef struct RNode {
    RKind kind;
    struct RNode *next;        /* the next node of the sequence this node is in */
    unsigned char c;           /* R_CHAR */
    unsigned char set[32];     /* R_CLASS: a bitmap over bytes */
    struct RNode **alts;       /* R_GROUP: alternatives (heads of sequences; NULL: empty) */
    int nalts;
    struct RNode *body;        /* R_REPEAT: the repeated node (its next is NULL) */
    int min, max;              /* max < 0: unbounded */
    QMode mode;
    bool ci;                   /* R_CHAR / R_CLASS: ASCII case-insensitive */
} RNode;

struct JRegex {
    RNode *head;
};

typedef struct {
    Arena *a;
    const char *p;
    const char *err;
    bool ci;
    int depth;
} RParse;

static unsigned char fold(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c; }
static void set_add(unsigned char *set, unsigned c) { set[c >> 3] |= (unsigned char)(1u << (c & 7)); }
static bool set_has(const unsigned char *set, unsigned c) { return set[c >> 3] & (1u << (c & 7)); }

static RNode *mk(RParse *ps, RKind k) {
    RNode *n = ARENA_NEW(ps->a, RNode);
    n->kind = k;
    n->ci = ps->ci;
    return n;
}

/* \d \w \s (and upper-case negations) into set; false if not a class escape */
static bool class_escape(unsigned char e, unsigned char *set) {
    unsigned char tmp[32] = {0};
    unsigned char lower = fold(e);
    if (lower == 'd') {
        for (unsigned c = '0'; c <= '9'; c++) set_add(tmp, c);
    } else if (lower == 'w') {
        for (unsigned c = 0; c < 128; c++)
            if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') set_add(tmp, c);
    } else if (lower == 's') {
        const char *ws = " \t\n\x0b\f\r";
        for (const char *w = ws; *w; w++) set_add(tmp, (unsigned char)*w);
    } else {
        return false;
    }
    bool neg = e != lower;
    for (int i = 0; i < 32; i++) set[i] |= neg ? (unsigned char)~tmp[i] : tmp[i];
    return true;
}

static unsigned char escape_char(unsigned char e) {
    switch (e) {
    case 't': return '\t';
    case 'n': return '\n';
    case 'r': return '\r';
    case 'f': return '\f';
    case 'e': return 0x1b;
    case 'a': return 0x07;
    default: return e;
    }
}

static RNode *parse_alt(RParse *ps);

static RNode *parse_class(RParse *ps) {
    RNode *n = mk(ps, R_CLASS);
    bool neg = false;
    if (*ps->p == '^') {
        neg = true;
        ps->p++;
    }
    bool first = true;
    while (*ps->p && (*ps->p != ']' || first)) {
        first = false;
        unsigned char lo = (unsigned char)*ps->p++;
        if (lo == '[') {
            ps->err = "nested character classes";
            return NULL;
        }
        if (lo == '\\') {
            if (!*ps->p) break;
            unsigned char e = (unsigned char)*ps->p++;
            if (class_escape(e, n->set)) continue;
            lo = escape_char(e);
        }
        unsigned char hi = lo;
        if (ps->p[0] == '-' && ps->p[1] && ps->p[1] != ']') {
            ps->p++;
            hi = (unsigned char)*ps->p++;
            if (hi == '\\' && *ps->p) hi = escape_char((unsigned char)*ps->p++);
            if (hi < lo) {
                ps->err = "illegal character range";
                return NULL;
            }
        }
        for (unsigned c = lo; c <= hi; c++) {
            set_add(n->set, c);
            if (ps->ci) {
                if (c >= 'a' && c <= 'z') set_add(n->set, c - 32);
                if (c >= 'A' && c <= 'Z') set_add(n->set, c + 32);
            }
        }
    }
    if (*ps->p != ']') {
        ps->err = "unclosed character class";
        return NULL;
    }
    ps->p++;
    if (neg)
        for (int i = 0; i < 32; i++) n->set[i] = (unsigned char)~n->set[i];
    return n;
}

static bool parse_int(RParse *ps, int *out) {
    if (*ps->p < '0' || *ps->p > '9') return false;
    long v = 0;
    while (*ps->p >= '0' && *ps->p <= '9') {
        v = v * 10 + (*ps->p++ - '0');
        if (v > 100000) v = 100000;
    }
    *out = (int)v;
    return true;
}

/* one atom, or NULL with ps->err set; *skip: an inline flag group, no atom */
static RNode *parse_atom(RParse *ps, bool *skip) {
    *skip = false;
    unsigned char c = (unsigned char)*ps->p++;
    switch (c) {
    case '.': return mk(ps, R_ANY);
    case '^': return mk(ps, R_BOL);
    case '$': return mk(ps, R_EOL);
    case '[': return parse_class(ps);
    case '(': {
        if (ps->p[0] == '?') {
            if (ps->p[1] == ':') {
                ps->p += 2;
            } else if (ps->p[1] == 'i' && ps->p[2] == ')') {
                ps->p += 3;
                ps->ci = true;
                *skip = true;
                return NULL;
            } else {
                ps->err = "unsupported group construct";
                return NULL;
            }
        }
        if (++ps->depth > 200) {
            ps->err = "nested too deeply";
            return NULL;
        }
        bool saved_ci = ps->ci;
        RNode *g = parse_alt(ps);
        ps->ci = saved_ci;
        ps->depth--;
        if (!g) return NULL;
        if (*ps->p != ')') {
            ps->err = "unclosed group";
            return NULL;
        }
        ps->p++;
        return g;
    }
    case ')':
    case '|':
        ps->p--;
        ps->err = "unexpected";
        return NULL;
    case '*':
    case '+':
    case '?':
    case '{':
        ps->err = "dangling meta character";
        return NULL;
    case '\\': {
        if (!*ps->p) {
            ps->err = "trailing backslash";
            return NULL;
        }
        unsigned char e = (unsigned char)*ps->p++;
        RNode *n = mk(ps, R_CLASS);
        if (class_escape(e, n->set)) return n;
        if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
            unsigned char l = escape_char(e);
            if (l == e) {
                ps->err = "unsupported escape";
                return NULL;
            }
            e = l;
        }
        n->kind = R_CHAR;
        n->c = e;
        return n;
    }
    default: {
        RNode *n = mk(ps, R_CHAR);
        n->c = c;
        return n;
    }
    }
}

/* a sequence of quantified atoms, up to `|`, `)` or the end */
static RNode *parse_seq(RParse *ps, bool *empty) {
    RNode *head = NULL, **tail = &head;
    while (*ps->p && *ps->p != '|' && *ps->p != ')') {
        bool skip;
        RNode *atom = parse_atom(ps, &skip);
        if (skip) continue;
        if (!atom) return NULL;
        int min = -1, max = -1;
        const char *q = ps->p;
        if (*q == '*') min = 0, max = -1, ps->p++;
        else if (*q == '+') min = 1, max = -1, ps->p++;
        else if (*q == '?') min = 0, max = 1, ps->p++;
        else if (*q == '{') {
            ps->p++;
            if (!parse_int(ps, &min)) {
                ps->err = "illegal repetition";
                return NULL;
            }
            max = min;
            if (*ps->p == ',') {
                ps->p++;
                max = -1;
                parse_int(ps, &max);
            }
            if (*ps->p != '}' || (max >= 0 && max < min)) {
                ps->err = "illegal repetition";
                return NULL;
            }
            ps->p++;
        }
        if (min >= 0) {
            RNode *r = mk(ps, R_REPEAT);
            r->body = atom;
            r->min = min;
            r->max = max;
            r->mode = Q_GREEDY;
            if (*ps->p == '?') r->mode = Q_LAZY, ps->p++;
            else if (*ps->p == '+') r->mode = Q_POSSESSIVE, ps->p++;
            atom = r;
        }
        *tail = atom;
        tail = &atom->next;
    }
    *empty = head == NULL;
    return head;
}

/* alternatives: always a group node */
static RNode *parse_alt(RParse *ps) {
    RNode *g = mk(ps, R_GROUP);
    RNode *alts[64];
    int n = 0;
    for (;;) {
        bool empty = false;
        RNode *s = parse_seq(ps, &empty);
        if (!s && !empty) return NULL;
        if (n == 64) {
            ps->err = "too many alternatives";
            return NULL;
        }
        alts[n++] = s;
        if (*ps->p != '|') break;
        ps->p++;
    }
    g->alts = ARENA_ARRAY(ps->a, RNode *, n);
    memcpy(g->alts, alts, sizeof(RNode *) * (size_t)n);
    g->nalts = n;
    return g;
}

JRegex *jregex_compile(Arena *a, const char *pattern, bool case_insensitive, const char **err) {
    RParse ps = {a, pattern, NULL, case_insensitive, 0};
    RNode *g = parse_alt(&ps);
    if (g && *ps.p) ps.err = "unmatched closing ')'";
    if (!g || ps.err) {
        if (err) *err = ps.err ? ps.err : "invalid pattern";
        return NULL;
    }
    JRegex *re = ARENA_NEW(a, JRegex);
    re->head = g;
    return re;
}

/* ---- matching ---- */

/* What to do after the current sequence ends: continue with `n` (then
 * `up`), or another iteration of a repetition, or accept (record the end). */
typedef enum { K_SEQ, K_REP, K_ACCEPT } KKind;
typedef struct K {
    KKind kind;
    const RNode *n;     /* K_SEQ: next node; K_REP: the repeat node */
    int count, start;   /* K_REP: iterations done, where this iteration began */
    const struct K *up;
    int *end;           /* K_ACCEPT */
} K;

typedef struct {
    const unsigned char *s;
    int len;
    long steps;
} M;

static bool match(M *m, const RNode *n, int i, const K *k);
static bool repeat(M *m, const RNode *r, int count, int i, const K *k);

static bool cont(M *m, int i, const K *k) {
    if (!k) return i == m->len;
    switch (k->kind) {
    case K_SEQ: return match(m, k->n, i, k->up);
    case K_REP:
        /* an iteration that matched nothing ends the loop (Java's guard) */
        if (i == k->start && k->count >= k->n->min) return match(m, k->n->next, i, k->up);
        return repeat(m, k->n, k->count, i, k->up);
    case K_ACCEPT: *k->end = i; return true;
    }
    return false;
}

/* the first end position of one match of node body at i (atomic), or -1 */
static int first_end(M *m, const RNode *body, int i) {
    int end = -1;
    K acc = {K_ACCEPT, NULL, 0, 0, NULL, &end};
    if (!match(m, body, i, &acc)) return -1;
    return end;
}

static bool repeat(M *m, const RNode *r, int count, int i, const K *k) {
    bool more = r->max < 0 || count < r->max;
    K again = {K_REP, r, count + 1, i, k, NULL};
    if (r->mode == Q_LAZY) {
        if (count >= r->min && match(m, r->next, i, k)) return true;
        return more && match(m, r->body, i, &again);
    }
    if (more && match(m, r->body, i, &again)) return true;
    return count >= r->min && match(m, r->next, i, k);
}

static bool match(M *m, const RNode *n, int i, const K *k) {
    if (++m->steps > 1000000) return false;
    if (!n) return cont(m, i, k);
    switch (n->kind) {
    case R_CHAR:
        if (i >= m->len) return false;
        if (n->ci ? fold(m->s[i]) != fold(n->c) : m->s[i] != n->c) return false;
        return match(m, n->next, i + 1, k);
    case R_ANY:
        if (i >= m->len || m->s[i] == '\n' || m->s[i] == '\r') return false;
        return match(m, n->next, i + 1, k);
    case R_CLASS:
        if (i >= m->len || !set_has(n->set, m->s[i])) return false;
        return match(m, n->next, i + 1, k);
    case R_BOL:
        return i == 0 && match(m, n->next, i, k);
    case R_EOL:
        return i == m->len && match(m, n->next, i, k);
    case R_GROUP: {
        K after = {K_SEQ, n->next, 0, 0, k, NULL};
        for (int a = 0; a < n->nalts; a++)
            if (match(m, n->alts[a], i, &after)) return true;
        return false;
    }
    case R_REPEAT:
        if (n->mode == Q_POSSESSIVE) {
            int count = 0;
            while (n->max < 0 || count < n->max) {
                int e = first_end(m, n->body, i);
                if (e < 0 || (e == i && count >= n->min)) break;
                i = e;
                count++;
            }
            return count >= n->min && match(m, n->next, i, k);
        }
        return repeat(m, n, 0, i, k);
    }
    return false;
}

bool jregex_matches(const JRegex *re, const char *s, size_t len) {
    if (!re || len > 1u << 20) return false;
    M m = {(const unsigned char *)s, (int)len, 0};
    return match(&m, re->head, 0, NULL);
}
