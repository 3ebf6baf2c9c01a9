/* The lexer (Spark's SqlBaseLexer rules, hand-written): words, backquoted
 * identifiers, strings, numbers with Spark's suffixes, operators, comments. */
#include "lexer.h"

#include <string.h>

#include "keyword_hash.h"

static const char *const KW_NAMES[KW_COUNT_] = {
    [KW_NONE] = "",
#define CZ_KW_NAME(k) [KW_##k] = #k,
    CZ_KEYWORDS(CZ_KW_NAME)
#undef CZ_KW_NAME
};

/* spelling lengths, so a probe compares no byte past a keyword's end */
static const uint8_t KW_LENGTHS[KW_COUNT_] = {
#define CZ_KW_LENGTH(k) [KW_##k] = sizeof(#k) - 1,
    CZ_KEYWORDS(CZ_KW_LENGTH)
#undef CZ_KW_LENGTH
};

const char *ps_keyword_name(Keyword k) { return (unsigned)k < KW_COUNT_ ? KW_NAMES[k] : ""; }

/* The generated table must list exactly today's keywords (regenerate it with
 * scripts/gen_keyword_hash.py after editing CZ_KEYWORDS). */
_Static_assert(KW_HASH_COUNT == KW_COUNT_ - 1, "keyword_hash.h is stale: run scripts/gen_keyword_hash.py");

static inline char upper_ascii(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 32) : c; }

/* The table's key (scripts/gen_keyword_hash.py computes the same): the
 * length and the first two and last two bytes, case-folded by | 0x20. A few
 * instructions per word whatever its length, where a hash of every byte cost
 * ~5 per byte; the probe's compare settles the rest. n >= 1. */
static inline uint32_t kw_hash(const char *s, size_t n) {
    uint16_t first, last;
    if (n >= 2) { /* little-endian 16-bit loads, as the script reads them */
        first = (uint16_t)((unsigned char)s[0] | (unsigned char)s[1] << 8);
        last = (uint16_t)((unsigned char)s[n - 2] | (unsigned char)s[n - 1] << 8);
    } else {
        first = last = (uint16_t)((unsigned char)s[0] * 0x101u);
    }
    uint32_t x = ((uint32_t)first | (uint32_t)last << 16 | 0x20202020u) * 0x9E3779B1u + (uint32_t)n * 0x85EBCA77u;
    return x >> (32 - KW_HASH_SLOTS_LOG2);
}

/* The keyword the word s[0, n) spells (word characters only), compared
 * case-insensitively in place: keywords are [A-Z_], and among word
 * characters only a letter's two cases agree on c | 0x20. */
static inline Keyword probe_keyword(const char *s, size_t n) {
    if (n > KW_HASH_MAX_LEN) return KW_NONE;
    for (uint32_t slot = kw_hash(s, n);; slot = (slot + 1) & (KW_HASH_SLOTS - 1)) {
        uint16_t kw = KW_HASH_TABLE[slot];
        if (!kw) return KW_NONE;
        if (KW_LENGTHS[kw] != n) continue;
        const char *name = KW_NAMES[kw];
        size_t i = 0;
        while (i < n && (s[i] | 0x20) == (name[i] | 0x20)) i++;
        if (i == n) return (Keyword)kw;
    }
}

/* Character classes, one load per byte in the hot loops (whitespace and word
 * runs are most of the text): bit 1 blank, 2 word character, 4 digit. */
enum { CC_BLANK = 1, CC_WORD = 2, CC_DIGIT = 4 };
static const uint8_t CHAR_CLASS[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 0, 0, 0, 0, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 2,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

static inline bool is_digit(char c) { return CHAR_CLASS[(unsigned char)c] & CC_DIGIT; }
static inline bool is_word(char c) { return CHAR_CLASS[(unsigned char)c] & CC_WORD; }
static inline char up(char c) { return upper_ascii(c); }

Keyword ps_keyword_lookup(const char *s, size_t n) {
    if (n == 0) return KW_NONE;
    for (size_t i = 0; i < n; i++) /* the probe's compare is exact for word characters only */
        if (!is_word(s[i])) return KW_NONE;
    return probe_keyword(s, n);
}

/* The end of the run of bytes of class cls from i: four at a time while
 * four remain, so the bound is checked once per four bytes. */
static inline size_t scan_class(const char *s, size_t i, size_t len, uint8_t cls) {
    const unsigned char *u = (const unsigned char *)s;
    while (len - i >= 4) {
        if (!(CHAR_CLASS[u[i]] & cls)) return i;
        if (!(CHAR_CLASS[u[i + 1]] & cls)) return i + 1;
        if (!(CHAR_CLASS[u[i + 2]] & cls)) return i + 2;
        if (!(CHAR_CLASS[u[i + 3]] & cls)) return i + 3;
        i += 4;
    }
    while (i < len && (CHAR_CLASS[u[i]] & cls)) i++;
    return i;
}

/* The operators a single character always is (the switch in ps_lex_sql
 * handles the ones a following character can extend, and `.`). */
static const uint8_t SINGLE_OP[256] = {
    ['('] = OP_LPAREN, [')'] = OP_RPAREN, [','] = OP_COMMA, [';'] = OP_SEMI,  ['['] = OP_LBRACKET,
    [']'] = OP_RBRACKET, ['{'] = OP_LBRACE, ['}'] = OP_RBRACE, ['+'] = OP_PLUS, ['*'] = OP_STAR,
    ['%'] = OP_PERCENT, ['~'] = OP_TILDE, ['&'] = OP_AMP,    ['^'] = OP_CARET, ['$'] = OP_DOLLAR,
};

typedef struct Lexer {
    Arena *a;
    const char *s;
    size_t len;
    Token *toks;
    int32_t n, cap;
} Lexer;

static inline void push_kw(Lexer *lx, TokKind k, int op, int suffix, size_t start, size_t end, Keyword kw) {
    if (lx->n == lx->cap) {
        int32_t nc = lx->cap ? lx->cap * 2 : 64;
        Token *t = arena_alloc(lx->a, sizeof(Token) * (size_t)nc);
        if (lx->n) memcpy(t, lx->toks, sizeof(Token) * (size_t)lx->n);
        lx->toks = t;
        lx->cap = nc;
    }
    lx->toks[lx->n++] = (Token){.kind = (uint8_t)k, .op = (uint8_t)op, .suffix = (uint8_t)suffix, .kw = (uint16_t)kw,
                                .start = (int32_t)start, .end = (int32_t)end};
}

static void push(Lexer *lx, TokKind k, int op, int suffix, size_t start, size_t end) {
    Keyword kw = k == TK_WORD ? probe_keyword(lx->s + start, end - start) : KW_NONE;
    push_kw(lx, k, op, suffix, start, end, kw);
}

/* A number starting at i (digit, or '.' followed by a digit). Follows the
 * lexer's longest-match: if the run of word characters continues past what
 * a number rule matches, the whole run is an identifier (`1a`, `12abc`). */
static size_t lex_number(Lexer *lx, size_t i, TokKind *kind, int *suffix) {
    const char *s = lx->s;
    size_t n = lx->len, j = i;
    bool dot = false, exp = false;
    while (j < n && is_digit(s[j])) j++;
    if (j < n && s[j] == '.') {
        dot = true;
        j++;
        while (j < n && is_digit(s[j])) j++;
    }
    size_t mant_end = j;
    if (j < n && up(s[j]) == 'E') {
        size_t k = j + 1;
        if (k < n && (s[k] == '+' || s[k] == '-')) k++;
        if (k < n && is_digit(s[k])) {
            while (k < n && is_digit(s[k])) k++;
            exp = true;
            j = k;
        }
    }
    (void)mant_end;
    *suffix = 0;
    size_t numend = j;
    /* suffixes */
    if (j < n) {
        char c = up(s[j]);
        if (!dot && !exp && (c == 'L' || c == 'S' || c == 'Y')) {
            *suffix = c;
            j++;
        } else if (c == 'D' || c == 'F') {
            *suffix = c;
            j++;
        } else if (c == 'B' && j + 1 < n && up(s[j + 1]) == 'D') {
            *suffix = 'B';
            j += 2;
        }
    }
    if (j < n && is_word(s[j])) {
        /* longer identifier match, unless the number had a dot (then the
         * number ends and a word follows, as isValidDecimal rejects it —
         * good enough: `1.5a` is rare). */
        if (!dot) {
            size_t k = j;
            while (k < n && is_word(s[k])) k++;
            *kind = TK_WORD;
            *suffix = 0;
            return k;
        }
        if (*suffix) {
            j = numend;
            *suffix = 0;
        }
    }
    if (*suffix == 'L' || *suffix == 'S' || *suffix == 'Y') *kind = TK_INT;
    else if (*suffix) *kind = TK_TYPEDNUM;
    else if (exp) *kind = TK_EXP;
    else if (dot) *kind = TK_DECIMAL;
    else *kind = TK_INT;
    return j;
}

void ps_lex_sql(Arena *a, const char *sql, size_t len, LexResult *out) {
    Lexer lx = {a, sql, len, NULL, 0, 0};
    memset(out, 0, sizeof *out);
    /* one token per ~4 bytes of SQL is typical: size once, rarely grow */
    lx.cap = (int32_t)(len / 4 + 16);
    lx.toks = arena_alloc(a, sizeof(Token) * (size_t)lx.cap);
    size_t i = 0;
    const char *s = sql;
    while (i < len) {
        char c = s[i];
        uint8_t cc = CHAR_CLASS[(unsigned char)c];
        /* words first: most tokens are (a digit is CC_WORD | CC_DIGIT) */
        if (cc == CC_WORD && !((c | 0x20) == 'r' && i + 1 < len && (s[i + 1] == '\'' || s[i + 1] == '"'))) {
            size_t st = i;
            i = scan_class(s, i + 1, len, CC_WORD);
            push_kw(&lx, TK_WORD, 0, 0, st, i, probe_keyword(s + st, i - st));
            continue;
        }
        if (cc & CC_BLANK) {
            i = scan_class(s, i + 1, len, CC_BLANK);
            continue;
        }
        /* punctuation that is one token whatever follows: one table load
         * instead of the tests below (a third of the tokens are these) */
        if (SINGLE_OP[(unsigned char)c] || (c == '.' && !(i + 1 < len && is_digit(s[i + 1])))) {
            push_kw(&lx, TK_OP, c == '.' ? OP_DOT : SINGLE_OP[(unsigned char)c], 0, i, i + 1, KW_NONE);
            i++;
            continue;
        }
        if (c == '-' && i + 1 < len && s[i + 1] == '-') {
            while (i < len && s[i] != '\n') i++;
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            /* bracketed comments nest, as in Spark */
            size_t st = i;
            int depth = 0;
            while (i < len) {
                if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
                    depth++;
                    i += 2;
                } else if (s[i] == '*' && i + 1 < len && s[i + 1] == '/') {
                    depth--;
                    i += 2;
                    if (!depth) break;
                } else i++;
            }
            if (depth) {
                out->error_class = "UNCLOSED_BRACKETED_COMMENT";
                out->err_start = (int32_t)st;
                out->err_stop = (int32_t)len - 1;
                out->err_text = "/*";
                return;
            }
            continue;
        }
        size_t st = i;
        if ((c == 'r' || c == 'R') && i + 1 < len && (s[i + 1] == '\'' || s[i + 1] == '"')) {
            char q = s[i + 1];
            size_t j = i + 2;
            while (j < len && s[j] != q) j++;
            if (j >= len) goto bad_string;
            push(&lx, TK_STRING, 0, 'R', st, j + 1);
            i = j + 1;
            continue;
        }
        if (is_digit(c) || (c == '.' && i + 1 < len && is_digit(s[i + 1]))) {
            TokKind k;
            int suf;
            size_t e = lex_number(&lx, i, &k, &suf);
            /* `.5` is a number only when nothing word-like follows it
             * (Spark's isValidDecimal); else `.` is a dot (`t.1a`). */
            if (c != '.' || (k != TK_WORD && !(e < len && is_word(s[e])))) {
                push(&lx, k, 0, suf, st, e);
                i = e;
                continue;
            }
        }
        if (c == '`') {
            size_t j = i + 1;
            for (;;) {
                if (j >= len) {
                    out->error_class = "PARSE_SYNTAX_ERROR";
                    out->err_start = (int32_t)st;
                    out->err_stop = (int32_t)len - 1;
                    out->err_text = "`";
                    return;
                }
                if (s[j] == '`') {
                    if (j + 1 < len && s[j + 1] == '`') {
                        j += 2;
                        continue;
                    }
                    break;
                }
                j++;
            }
            push(&lx, TK_QIDENT, 0, 0, st, j + 1);
            i = j + 1;
            continue;
        }
        if (c == '\'' || c == '"') {
            size_t j = i + 1;
            while (j < len && s[j] != c) {
                if (s[j] == '\\' && j + 1 < len) j++;
                j++;
            }
            if (j >= len) goto bad_string;
            push(&lx, TK_STRING, 0, c == '"' ? '"' : 0, st, j + 1);
            i = j + 1;
            continue;
        }
        if (c == ':' && i + 1 < len && (is_word(s[i + 1]) && !is_digit(s[i + 1])) &&
            !(i > 0 && s[i - 1] == ':')) {
            size_t j = i + 1;
            while (j < len && is_word(s[j])) j++;
            push(&lx, TK_NPARAM, 0, 0, st, j);
            i = j;
            continue;
        }
        int op = OP_NONE, w = 1;
        char d = i + 1 < len ? s[i + 1] : 0, e3 = i + 2 < len ? s[i + 2] : 0;
        switch (c) {
        case '(': op = OP_LPAREN; break;
        case ')': op = OP_RPAREN; break;
        case ',': op = OP_COMMA; break;
        case '.': op = OP_DOT; break;
        case ';': op = OP_SEMI; break;
        case '[': op = OP_LBRACKET; break;
        case ']': op = OP_RBRACKET; break;
        case '{': op = OP_LBRACE; break;
        case '}': op = OP_RBRACE; break;
        case '+': op = OP_PLUS; break;
        case '-': if (d == '>') { op = OP_ARROW; w = 2; } else op = OP_MINUS; break;
        case '*': op = OP_STAR; break;
        case '/': op = OP_SLASH; break;
        case '%': op = OP_PERCENT; break;
        case '~': op = OP_TILDE; break;
        case '&': op = OP_AMP; break;
        case '^': op = OP_CARET; break;
        case '$': op = OP_DOLLAR; break;
        case '?': push(&lx, TK_QPARAM, 0, 0, st, st + 1); i++; continue;
        case '|':
            if (d == '|') { op = OP_CONCAT; w = 2; }
            else if (d == '>') { op = OP_PIPEGT; w = 2; }
            else op = OP_PIPE;
            break;
        case '=':
            if (d == '=') { op = OP_EQEQ; w = 2; }
            else if (d == '>') { op = OP_FATARROW; w = 2; }
            else op = OP_EQ;
            break;
        case '<':
            if (d == '=' && e3 == '>') { op = OP_NSEQ; w = 3; }
            else if (d == '=') { op = OP_LE; w = 2; }
            else if (d == '>') { op = OP_NEQ; w = 2; }
            else if (d == '<') { op = OP_SHL; w = 2; }
            else op = OP_LT;
            break;
        case '>':
            /* `>>` / `>>>` are shifts; a type's `array<array<int>>` splits them back */
            if (d == '=') { op = OP_GE; w = 2; }
            else if (d == '>' && e3 == '>') { op = OP_SHRU; w = 3; }
            else if (d == '>') { op = OP_SHR; w = 2; }
            else op = OP_GT;
            break;
        case '!':
            if (d == '=') { op = OP_NEQJ; w = 2; }
            else op = OP_BANG;
            break;
        case ':':
            if (d == ':') { op = OP_DCOLON; w = 2; }
            else op = OP_COLON;
            break;
        default: break;
        }
        if (op == OP_NONE) {
            out->error_class = "PARSE_SYNTAX_ERROR";
            out->err_start = (int32_t)st;
            out->err_stop = (int32_t)st;
            out->err_text = arena_strndup(a, s + st, 1);
            return;
        }
        push(&lx, TK_OP, op, 0, st, st + (size_t)w);
        i += (size_t)w;
    }
    push(&lx, TK_EOF, 0, 0, len, len);
    out->toks = lx.toks;
    out->ntoks = lx.n;
    return;
bad_string:
    out->error_class = "PARSE_SYNTAX_ERROR";
    out->err_start = (int32_t)i;
    out->err_stop = (int32_t)len - 1;
    out->err_text = arena_strndup(a, s + i, 1);
}
