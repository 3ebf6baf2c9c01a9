/* catalyzerd: the analyzer as a sidecar daemon (see server.h, config.h). */
#include "config.h"
#include "server.h"

int main(int argc, char **argv) {
    Config cfg;
    int rc = config_load(&cfg, argc, argv);
    if (rc != 0) return rc > 0 ? 0 : 2;
    return server_run(&cfg);
}
