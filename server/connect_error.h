/* Errors as Spark Connect sends them (its ErrorUtils): a gRPC status whose
 * `grpc-status-details-bin` trailer holds a google.rpc.Status carrying one
 * google.rpc.ErrorInfo — reason = the Java exception class, domain
 * "org.apache.spark", metadata `classes` (the class hierarchy as a JSON
 * list), and for Spark errors `errorClass`, `sqlState` and
 * `messageParameters` (a JSON object). Spark Connect clients (PySpark, the
 * Scala client, Go) turn these into their AnalysisException, ParseException,
 * ... classes. Used by both services. No I/O. */
#ifndef CZ_CONNECT_ERROR_H
#define CZ_CONNECT_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalyzer.h"

/* The Java exception a condition is reported as. */
typedef enum ExceptionKind {
    EXC_ANALYSIS,          /* org.apache.spark.sql.catalyst.ExtendedAnalysisException */
    EXC_PARSE,             /* org.apache.spark.sql.catalyst.parser.ParseException */
    EXC_ARITHMETIC,        /* org.apache.spark.SparkArithmeticException */
    EXC_NUMBER_FORMAT,     /* org.apache.spark.SparkNumberFormatException */
    EXC_RUNTIME,           /* org.apache.spark.SparkRuntimeException */
    EXC_SQL,               /* org.apache.spark.SparkSQLException (INVALID_HANDLE.*) */
    EXC_NO_SUCH_ELEMENT,   /* org.apache.spark.SparkNoSuchElementException (SQL_CONF_NOT_FOUND) */
    EXC_ILLEGAL_ARGUMENT,  /* java.lang.IllegalArgumentException (a conf value of the wrong type) */
    EXC_INVALID_PLAN,      /* org.apache.spark.sql.connect.common.InvalidPlanInput */
    EXC_UNSUPPORTED,       /* java.lang.UnsupportedOperationException */
    EXC_INTERNAL,          /* org.apache.spark.SparkException */
} ExceptionKind;

typedef struct RichError {
    ExceptionKind kind;
    const char *error_class; /* NULL: not a Spark error class */
    const char *sqlstate;    /* NULL: none */
    int nparams;
    const char *const *param_names;
    const char *const *param_values;
} RichError;

/* The exception kind of an analyzer error (by its phase and class). */
ExceptionKind exception_kind_of(const CzError *e);

/* Serialises google.rpc.Status{code, message, details = [ErrorInfo]}.
 * Returns malloc'ed bytes (caller frees) and their length in *len; NULL on
 * out of memory. */
uint8_t *rich_status_pack(int grpc_code, const char *message, const RichError *e, size_t *len);

/* The same for an analyzer error: gRPC INTERNAL, as Spark sends every
 * SparkThrowable, and Spark's message text ("[CLASS] ... SQLSTATE: s"),
 * written into msg. */
uint8_t *rich_status_from_cz(const CzError *e, char *msg, size_t msglen, size_t *len);

/* "[CLASS] text SQLSTATE: s" from the parts (the form of Spark's getMessage). */
void spark_error_message(char *out, size_t cap, const char *error_class, const char *text, const char *sqlstate);

/* A failure being built by a handler: the gRPC status, Spark's message
 * ("[CLASS] text SQLSTATE: s") and the error it packs into the details. */
enum { RPC_FAILURE_PARAMS = 8 };
typedef struct RpcFailure {
    int code;                /* gRPC status; 0 = no failure */
    char message[1024];
    RichError re;            /* its strings point into the buffers below */
    char error_class[128], sqlstate[8];
    const char *names[RPC_FAILURE_PARAMS];
    const char *values[RPC_FAILURE_PARAMS];
    char name_buf[RPC_FAILURE_PARAMS][64];
    char value_buf[RPC_FAILURE_PARAMS][256];
} RpcFailure;

/* Sets the failure (copying every string); error_class/sqlstate may be
 * NULL. text is Spark's message text, with or without the "[CLASS] " tag.
 * Returns false (for `return fail_set(...)`). */
bool fail_set(RpcFailure *f, int code, ExceptionKind kind, const char *error_class, const char *sqlstate,
              const char *text);
/* Adds a message parameter (name and value copied) to the failure. */
void fail_param(RpcFailure *f, const char *name, const char *value);
/* The google.rpc.Status of the failure (malloc'ed; see rich_status_pack).
 * The failure may be a by-value copy of the one first set. */
uint8_t *fail_pack(RpcFailure *f, size_t *len);

/* The JSON object text of the parameters ({"a":"x"}), as Spark's metadata
 * `messageParameters`; malloc'ed. */
char *message_parameters_json(int n, const char *const *names, const char *const *values);

#endif
