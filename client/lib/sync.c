/* The synchronous layer of czclient.h: a private loop run until the call ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czclient.h"

struct CzcClient {
    CzcConn *conn;
    uint32_t timeout_ms;
};

typedef struct Wait {
    bool done;
    int status;
    char *message;
    size_t msgcap;
    ProtobufCMessage *out; /* the last response message */
    void (*on_event)(void *ud, const Catalyzer__V1__TraceEvent *ev);
    void *ud;
} Wait;

CzcClient *czc_client_new(const char *hostport, char *err, size_t errlen) {
    char host[256];
    int port;
    if (!czc_parse_hostport(hostport, host, sizeof host, &port)) {
        if (err) snprintf(err, errlen, "expected HOST:PORT, got \"%s\"", hostport ? hostport : "");
        return NULL;
    }
    CzcClient *cl = calloc(1, sizeof *cl);
    if (!cl) abort();
    cl->conn = czc_conn_new(NULL, host, port);
    return cl;
}

void czc_client_free(CzcClient *cl) {
    if (!cl) return;
    czc_conn_free(cl->conn);
    free(cl);
}

CzcConn *czc_client_conn(CzcClient *cl) { return cl->conn; }
bool czc_client_set_security(CzcClient *cl, const CzcSecurity *sec, char *err, size_t errlen) {
    return czc_conn_set_security(cl->conn, sec, err, errlen);
}
void czc_client_set_timeout(CzcClient *cl, uint32_t timeout_ms) { cl->timeout_ms = timeout_ms; }

static bool on_message(void *ud, ProtobufCMessage *m) {
    Wait *w = ud;
    if (m->descriptor == &catalyzer__v1__analyze_response__descriptor) {
        Catalyzer__V1__AnalyzeResponse *r = (Catalyzer__V1__AnalyzeResponse *)m;
        if (r->kind_case == CATALYZER__V1__ANALYZE_RESPONSE__KIND_TRACE_EVENT) {
            if (w->on_event) w->on_event(w->ud, r->trace_event);
            return false;
        }
    }
    if (w->out) protobuf_c_message_free_unpacked(w->out, NULL);
    w->out = m;
    return true;
}

static void on_done(void *ud, int status, const char *message) {
    Wait *w = ud;
    w->done = true;
    w->status = status;
    if (w->message && w->msgcap) snprintf(w->message, w->msgcap, "%s", message);
}

static int run_call(CzcClient *cl, const char *path, const ProtobufCMessage *req,
                    const ProtobufCMessageDescriptor *desc, Wait *w, ProtobufCMessage **out) {
    uv_loop_t *loop = czc_conn_loop(cl->conn);
    /* Notice a connection the server closed while we were idle (restart,
     * idle timeout) before sending on it. */
    uv_run(loop, UV_RUN_NOWAIT);
    CzcCallOptions o = {cl->timeout_ms};
    czc_call_start(cl->conn, path, req, desc, &o, on_message, on_done, w);
    while (!w->done) uv_run(loop, UV_RUN_ONCE);
    if (w->status == CZC_OK && !w->out) {
        w->status = CZC_INTERNAL;
        if (w->message && w->msgcap) snprintf(w->message, w->msgcap, "no response message");
    }
    if (w->status != CZC_OK && w->out) {
        protobuf_c_message_free_unpacked(w->out, NULL);
        w->out = NULL;
    }
    if (out) *out = w->out;
    else if (w->out) protobuf_c_message_free_unpacked(w->out, NULL);
    return w->status;
}

int czc_client_unary(CzcClient *cl, const char *method_path, const ProtobufCMessage *req,
                     const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **out, char *message, size_t msgcap) {
    Wait w = {.message = message, .msgcap = msgcap};
    return run_call(cl, method_path, req, resp_desc, &w, out);
}

int czc_client_analyze(CzcClient *cl, const Catalyzer__V1__AnalyzeRequest *req,
                       void (*on_event)(void *ud, const Catalyzer__V1__TraceEvent *ev), void *ud,
                       Catalyzer__V1__AnalyzeResponse **out, char *message, size_t msgcap) {
    Wait w = {.message = message, .msgcap = msgcap, .on_event = on_event, .ud = ud};
    return run_call(cl, "/catalyzer.v1.Analyzer/Analyze", &req->base, &catalyzer__v1__analyze_response__descriptor, &w,
                    (ProtobufCMessage **)out);
}

int czc_client_execute(CzcClient *cl, const Catalyzer__V1__ExecuteRequest *req, Catalyzer__V1__ExecuteResponse **out,
                       char *message, size_t msgcap) {
    return czc_client_unary(cl, "/catalyzer.v1.Analyzer/Execute", &req->base,
                            &catalyzer__v1__execute_response__descriptor, (ProtobufCMessage **)out, message, msgcap);
}

int czc_client_register_catalog(CzcClient *cl, const Catalyzer__V1__RegisterCatalogRequest *req,
                                Catalyzer__V1__RegisterCatalogResponse **out, char *message, size_t msgcap) {
    return czc_client_unary(cl, "/catalyzer.v1.Analyzer/RegisterCatalog", &req->base,
                            &catalyzer__v1__register_catalog_response__descriptor, (ProtobufCMessage **)out, message,
                            msgcap);
}

int czc_client_drop_session(CzcClient *cl, const char *session_id, char *message, size_t msgcap) {
    Catalyzer__V1__DropSessionRequest rq = CATALYZER__V1__DROP_SESSION_REQUEST__INIT;
    rq.session_id = (char *)session_id;
    return czc_client_unary(cl, "/catalyzer.v1.Analyzer/DropSession", &rq.base,
                            &catalyzer__v1__drop_session_response__descriptor, NULL, message, msgcap);
}
