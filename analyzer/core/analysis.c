#include "analysis.h"

Node *an_fail(Analysis *an, ErrorInfo *err) {
    if (!an->error) an->error = err;
    return NULL;
}
