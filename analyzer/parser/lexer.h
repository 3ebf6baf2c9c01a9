/* The SQL lexer: the whole statement is tokenised up front into one arena
 * array, so the parser can look ahead freely and backtrack cheaply.
 * Keywords are not reserved at this level: a word token carries the keyword
 * id it spells (case-insensitively) and the parser decides from context
 * whether it is a keyword or an identifier, as Spark's non-reserved rules do. */
#ifndef CZ_LEXER_H
#define CZ_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

/* Keywords the parser looks at (case-insensitive spelling = the name),
 * kept in ASCII order (keyword_hash.h is generated from this list). */
#define CZ_KEYWORDS(KW_) \
    KW_(ADD) KW_(AFTER) KW_(ALL) KW_(ALTER) KW_(ANALYZE) KW_(AND) KW_(ANTI) KW_(ANY) KW_(ARRAY) KW_(AS) KW_(ASC) KW_(AT) \
    KW_(BETWEEN) KW_(BOTH) KW_(BY) KW_(CACHE) KW_(CASCADE) KW_(CASE) KW_(CAST) KW_(CLUSTER) KW_(CLUSTERED) KW_(COLLATE) \
    KW_(COLUMNS) KW_(COMMENT) KW_(CREATE) KW_(CROSS) KW_(CUBE) KW_(CURRENT) KW_(CURRENT_DATE) KW_(CURRENT_TIME) \
    KW_(CURRENT_TIMESTAMP) KW_(CURRENT_USER) KW_(DATABASE) KW_(DATABASES) KW_(DATE) KW_(DAY) KW_(DAYS) KW_(DECLARE) \
    KW_(DEFAULT) KW_(DESC) KW_(DESCRIBE) KW_(DISTINCT) KW_(DISTRIBUTE) KW_(DIV) KW_(DROP) KW_(ELSE) KW_(END) KW_(ESCAPE) \
    KW_(EXCEPT) KW_(EXCLUDE) KW_(EXECUTE) KW_(EXISTS) KW_(EXPLAIN) KW_(EXTRACT) KW_(FALSE) KW_(FILTER) KW_(FIRST) \
    KW_(FOLLOWING) KW_(FOR) KW_(FROM) KW_(FULL) KW_(FUNCTION) KW_(GLOBAL) KW_(GROUP) KW_(GROUPING) KW_(HAVING) KW_(HOUR) \
    KW_(HOURS) KW_(IDENTIFIER) KW_(IF) KW_(IGNORE) KW_(ILIKE) KW_(IMMEDIATE) KW_(IN) KW_(INCLUDE) KW_(INNER) KW_(INSERT) \
    KW_(INTERSECT) KW_(INTERVAL) KW_(INTO) KW_(IS) KW_(JOIN) KW_(LAST) KW_(LATERAL) KW_(LEADING) KW_(LEFT) KW_(LIKE) \
    KW_(LIMIT) KW_(LOCATION) KW_(MAP) KW_(MICROSECOND) KW_(MICROSECONDS) KW_(MILLISECOND) KW_(MILLISECONDS) \
    KW_(MINUS) KW_(MINUTE) KW_(MINUTES) KW_(MONTH) KW_(MONTHS) KW_(NAME) KW_(NAMESPACE) KW_(NATURAL) KW_(NO) KW_(NOT) \
    KW_(NULL) KW_(NULLS) KW_(OF) KW_(OFFSET) KW_(ON) KW_(ONLY) KW_(OPTIONS) KW_(OR) KW_(ORDER) KW_(OUTER) KW_(OVER) \
    KW_(OVERLAY) KW_(OVERWRITE) KW_(PARTITION) KW_(PARTITIONED) KW_(PIVOT) KW_(PLACING) KW_(POSITION) KW_(PRECEDING) \
    KW_(PROPERTIES) KW_(RANGE) KW_(REGEXP) KW_(REPLACE) KW_(RESET) KW_(RESPECT) KW_(RIGHT) KW_(RLIKE) KW_(ROLLUP) \
    KW_(ROW) KW_(ROWS) KW_(SCHEMA) KW_(SCHEMAS) KW_(SECOND) KW_(SECONDS) KW_(SELECT) KW_(SEMI) KW_(SET) KW_(SETS) \
    KW_(SHOW) KW_(SOME) KW_(SORT) KW_(STORED) KW_(STRUCT) KW_(SUBSTR) KW_(SUBSTRING) KW_(SYSTEM) KW_(TABLE) \
    KW_(TABLESAMPLE) KW_(TBLPROPERTIES) KW_(TEMP) KW_(TEMPORARY) KW_(THEN) KW_(TIMESTAMP) KW_(TIMESTAMP_LTZ) \
    KW_(TIMESTAMP_NTZ) KW_(TO) KW_(TRAILING) KW_(TRIM) KW_(TRUE) KW_(TRY_CAST) KW_(UNBOUNDED) KW_(UNION) KW_(UNKNOWN) \
    KW_(UNPIVOT) KW_(USE) KW_(USING) KW_(VALUES) KW_(VAR) KW_(VARIABLE) KW_(VIEW) KW_(WEEK) KW_(WEEKS) KW_(WHEN) \
    KW_(WHERE) KW_(WINDOW) KW_(WITH) KW_(WITHIN) KW_(X) KW_(YEAR) KW_(YEARS)

typedef enum Keyword {
    KW_NONE = 0,
#define CZ_KW_ENUM(k) KW_##k,
    CZ_KEYWORDS(CZ_KW_ENUM)
#undef CZ_KW_ENUM
    KW_COUNT_
} Keyword;

typedef enum TokKind {
    TK_EOF,
    TK_WORD,      /* identifier or keyword (kw set when it spells one) */
    TK_QIDENT,    /* `backquoted` */
    TK_STRING,    /* '...' or "..." (raw strings: r'...') */
    TK_INT,       /* 123 (suffix in `suffix`: 'L', 'S', 'Y' or 0) */
    TK_DECIMAL,   /* 1.5, .5, 1. (no exponent) */
    TK_EXP,       /* 1e10, 1.5E-3 */
    TK_TYPEDNUM,  /* number with D, F or BD suffix (suffix = 'D', 'F', 'B') */
    TK_OP,        /* punctuation / operator (op) */
    TK_NPARAM,    /* :name */
    TK_QPARAM,    /* ? */
} TokKind;

typedef enum OpKind {
    OP_NONE,
    OP_LPAREN, OP_RPAREN, OP_COMMA, OP_DOT, OP_SEMI, OP_LBRACKET, OP_RBRACKET, OP_LBRACE, OP_RBRACE,
    OP_PLUS, OP_MINUS, OP_STAR, OP_SLASH, OP_PERCENT, OP_TILDE, OP_AMP, OP_PIPE, OP_CARET, OP_CONCAT,
    OP_EQ, OP_EQEQ, OP_NSEQ, OP_NEQ /* <> */, OP_NEQJ /* != */, OP_LT, OP_LE, OP_GT, OP_GE, OP_BANG,
    OP_DCOLON, OP_COLON, OP_ARROW, OP_FATARROW, OP_PIPEGT, OP_DOLLAR, OP_SHL, OP_SHR, OP_SHRU,
} OpKind;

typedef struct Token {
    uint8_t kind;     /* TokKind */
    uint8_t op;       /* OpKind for TK_OP */
    uint8_t suffix;   /* numbers: 'L','S','Y','D','F','B'(BD); strings: 'R' raw, '"' double-quoted */
    uint8_t pad_;
    uint16_t kw;      /* Keyword for TK_WORD */
    int32_t start;    /* byte offset */
    int32_t end;      /* exclusive */
} Token;

typedef struct LexResult {
    Token *toks;      /* ntoks tokens, the last one TK_EOF */
    int32_t ntoks;
    /* on failure: */
    const char *error_class; /* NULL on success */
    int32_t err_start, err_stop;
    const char *err_text;    /* the offending text, for PARSE_SYNTAX_ERROR's `error` */
} LexResult;

/* Tokenises sql[0, len). Comments (--, nested block comments, hints) are
 * skipped. Never fails on ordinary input; an unclosed comment or a stray
 * character gives an error class. */
void ps_lex_sql(Arena *a, const char *sql, size_t len, LexResult *out);

const char *ps_keyword_name(Keyword k);

/* The keyword sql[0, n) spells, case-insensitively (KW_NONE if none). */
Keyword ps_keyword_lookup(const char *s, size_t n);

#endif
