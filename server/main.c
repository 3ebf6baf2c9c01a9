/* catalyzerd: the analyzer as a sidecar daemon (see server.h, config.h). */
#include "config.h"
#include "server.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    /* An analysis worker process (workers.h): started by the daemon itself. */
    const char *wfd = getenv(WORKER_FD_ENV);
    if (wfd) return worker_process_main(atoi(wfd));
    Config cfg;
    int rc = config_load(&cfg, argc, argv);
    if (rc != 0) return rc > 0 ? 0 : 2;
    return server_run(&cfg);
}
