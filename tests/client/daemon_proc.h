/* A real catalyzerd for the client tests: started on port 0 (or a given
 * port), its port read from the first log line, stopped with SIGTERM. */
#ifndef CZ_TEST_DAEMON_PROC_H
#define CZ_TEST_DAEMON_PROC_H

#include <sys/types.h>

typedef struct DaemonProc {
    pid_t pid;
    int port;
    char log[256]; /* its stderr */
} DaemonProc;

/* port 0: any free port. Returns 0, or -1 (why on stderr). */
int daemon_start(DaemonProc *d, int port);
/* SIGTERM, wait; returns the exit status (-1 if it had to be killed). */
int daemon_stop(DaemonProc *d);

#endif
