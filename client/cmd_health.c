/* `catalyzer health HOST:PORT` — asks a daemon's grpc.health.v1 service
 * whether it is serving: prints the status (SERVING, NOT_SERVING, ...) and
 * exits 0 only for SERVING, 1 for any other answer, 2 when there is no
 * answer (unreachable, refused, bad usage). What container health checks and
 * probes run (docker/Dockerfile); a draining daemon answers NOT_SERVING. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "commands.h"
#include "health.pb-c.h"
#include "remote.h"

#define HEALTH_USAGE "health [--service NAME] HOST:PORT"

enum { HEALTH_TIMEOUT_MS = 3000 };

int cmd_health(int argc, char **argv) {
    const char *service = "";
    /* --service is this subcommand's alone: taken out before the shared parser sees the rest. */
    char **rest = calloc((size_t)argc + 2, sizeof *rest);
    if (!rest) return 2;
    int n = 0;
    rest[n++] = argv[-1];
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--service") && i + 1 < argc) {
            service = argv[++i];
        } else if (!strncmp(argv[i], "--service=", 10)) {
            service = argv[i] + 10;
        } else {
            rest[n++] = argv[i];
        }
    }
    CliOpts o;
    int prc = cli_getopt(n - 1, rest + 1, 0, HEALTH_USAGE, false, &o);
    free(rest);
    if (prc == 1) return 0;
    if (prc != 0 || o.nfiles != 1) {
        fprintf(stderr, "usage: catalyzer " HEALTH_USAGE "\n");
        return 2;
    }
    char err[256];
    CzcClient *cl = cli_client_new(o.files[0], err, sizeof err);
    if (!cl) {
        fprintf(stderr, "catalyzer health: %s\n", err);
        return 2;
    }
    czc_client_set_timeout(cl, HEALTH_TIMEOUT_MS);
    Grpc__Health__V1__HealthCheckRequest req = GRPC__HEALTH__V1__HEALTH_CHECK_REQUEST__INIT;
    req.service = (char *)service;
    ProtobufCMessage *out = NULL;
    char msg[256] = "";
    int st = czc_client_unary(cl, "/grpc.health.v1.Health/Check", &req.base,
                              &grpc__health__v1__health_check_response__descriptor, &out, msg, sizeof msg);
    czc_client_free(cl);
    if (st != CZC_OK) {
        fprintf(stderr, "catalyzer health: %s: %s%s%s\n", o.files[0], czc_status_name(st), msg[0] ? ": " : "", msg);
        return 2;
    }
    Grpc__Health__V1__HealthCheckResponse *resp = (Grpc__Health__V1__HealthCheckResponse *)out;
    const ProtobufCEnumValue *v =
        protobuf_c_enum_descriptor_get_value(&grpc__health__v1__health_check_response__serving_status__descriptor,
                                             (int)resp->status);
    bool serving = resp->status == GRPC__HEALTH__V1__HEALTH_CHECK_RESPONSE__SERVING_STATUS__SERVING;
    printf("%s\n", v ? v->name : "UNKNOWN");
    protobuf_c_message_free_unpacked(out, NULL);
    return serving ? 0 : 1;
}
