/* Starting and stopping a real catalyzerd (daemon_proc.h). Its stderr goes to
 * a temporary file, so a chatty daemon never blocks on a full pipe. */
#include "daemon_proc.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int daemon_start(DaemonProc *d, int port) {
    const char *bin = getenv("CATALYZERD");
    if (!bin) bin = "catalyzerd";
    snprintf(d->log, sizeof d->log, "/tmp/cz-client-test-%d-XXXXXX", (int)getpid());
    int fd = mkstemp(d->log);
    if (fd < 0) return -1;
    char grpc[64];
    snprintf(grpc, sizeof grpc, "127.0.0.1:%d", port);
    d->pid = fork();
    if (d->pid < 0) return -1;
    if (d->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* a test that crashes does not leave its daemon behind */
        dup2(fd, 2);
        int null = open("/dev/null", O_RDWR);
        dup2(null, 1);
        execl(bin, bin, "--grpc", grpc, "--http", "off", "--log-level", "warn", (char *)NULL);
        _exit(127);
    }
    close(fd);
    /* wait for the "listening" line */
    for (int i = 0; i < 500; i++) {
        FILE *f = fopen(d->log, "r");
        char line[1024] = "";
        if (f) {
            if (!fgets(line, sizeof line, f)) line[0] = 0;
            fclose(f);
        }
        const char *p = strstr(line, "\"grpc_port\":");
        if (p && strchr(line, '\n')) {
            d->port = atoi(p + 12);
            return 0;
        }
        int st;
        if (waitpid(d->pid, &st, WNOHANG) == d->pid) {
            fprintf(stderr, "catalyzerd (%s) exited before listening: %s\n", bin, line);
            return -1;
        }
        sleep_ms(10);
    }
    fprintf(stderr, "catalyzerd did not start listening\n");
    kill(d->pid, SIGKILL);
    waitpid(d->pid, NULL, 0);
    return -1;
}

int daemon_stop(DaemonProc *d) {
    int st = 0;
    kill(d->pid, SIGTERM);
    for (int i = 0; i < 2000; i++) {
        if (waitpid(d->pid, &st, WNOHANG) == d->pid) {
            unlink(d->log);
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        }
        sleep_ms(10);
    }
    kill(d->pid, SIGKILL);
    waitpid(d->pid, &st, 0);
    unlink(d->log);
    return -1;
}
