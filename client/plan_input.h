/* `--plan`: the CLI's input as Spark Connect plans instead of SQL. FILE holds
 * spark.connect.Relation messages in protobuf JSON — one object, or one per
 * line (JSON Lines); an object with a "plan" member (a corpus record) stands
 * for that plan. In process each plan is decoded and analysed as catalyzerd
 * analyses it; with --daemon it is sent as catalyzer.v1 AnalyzeRequest.plan. */
#ifndef CZ_CLI_PLAN_INPUT_H
#define CZ_CLI_PLAN_INPUT_H

#include <stddef.h>

#include "catalyzer.h"
#include "spark/connect/relations.pb-c.h"

typedef struct PlanList {
    Spark__Connect__Relation **v; /* each freed with protobuf_c_message_free_unpacked */
    size_t n;
} PlanList;

/* Reads FILE; returns 0, or 2 with a message on stderr. */
int plans_read(const char *path, PlanList *out);
void plans_free(PlanList *l);

/* Decodes and analyses one plan in s. NULL when the plan does not decode,
 * with the reason (as catalyzerd's INVALID_ARGUMENT / UNIMPLEMENTED message)
 * in err. The caller frees the result. */
CzResult *plan_analyse(CzSession *s, const Spark__Connect__Relation *rel, const CzRunOptions *o, char *err,
                       size_t errlen);

/* The `run` line of a plan that did not decode: {"index":N,"status":"error","message":...}. malloc'd. */
char *plan_error_json(int index, const char *message);

#endif
