/* process_* and catalyzer_build_info (see metrics_process.h). The fields and
 * their units follow client_golang's process_collector_procfs.go: CPU is
 * utime + stime from /proc/self/stat over the clock tick, resident memory is
 * the rss field in pages, the start time is the starttime field after boot
 * (btime in /proc/stat), limits are the soft ones. */
#include "metrics_process.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "build_revision.h"

typedef struct ProcStat {
    unsigned long long utime, stime, starttime, vsize;
    long long rss;
} ProcStat;

/* /proc/self/stat: the fields after the parenthesised command (which may hold spaces and ')'). */
static bool read_stat(ProcStat *st) {
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) return false;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p) return false;
    /* Field 3 (state) onwards; utime and stime are fields 14 and 15, starttime 22, vsize 23, rss 24. */
    int got = sscanf(p + 2,
                     "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %*d %*d %llu %llu %lld",
                     &st->utime, &st->stime, &st->starttime, &st->vsize, &st->rss);
    return got == 5;
}

static bool boot_time(unsigned long long *btime) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return false;
    char line[256];
    bool ok = false;
    while (!ok && fgets(line, sizeof line, f)) ok = sscanf(line, "btime %llu", btime) == 1;
    fclose(f);
    return ok;
}

static long open_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    long n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n - 1; /* the directory stream's own descriptor */
}

/* RLIM_INFINITY is reported as client_golang does: the largest uint64, as a float. */
static double soft_limit(int resource) {
    struct rlimit rl;
    if (getrlimit(resource, &rl) != 0) return -1;
    return rl.rlim_cur == RLIM_INFINITY ? 18446744073709551615.0 : (double)rl.rlim_cur;
}

static void gauge(StrBuf *sb, const char *name, const char *type, const char *help, double v) {
    sb_printf(sb, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", name, help, name, type, name, v);
}

void process_metrics_render(StrBuf *sb) {
    ProcStat st;
    long tick = sysconf(_SC_CLK_TCK);
    long page = sysconf(_SC_PAGESIZE);
    if (read_stat(&st) && tick > 0 && page > 0) {
        gauge(sb, "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
              (double)(st.utime + st.stime) / (double)tick);
        gauge(sb, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", (double)st.rss * (double)page);
        gauge(sb, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", (double)st.vsize);
        unsigned long long btime;
        if (boot_time(&btime))
            gauge(sb, "process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.",
                  (double)btime + (double)st.starttime / (double)tick);
    }
    double as = soft_limit(RLIMIT_AS);
    if (as >= 0)
        gauge(sb, "process_virtual_memory_max_bytes", "gauge", "Maximum amount of virtual memory available in bytes.", as);
    long fds = open_fds();
    if (fds >= 0) gauge(sb, "process_open_fds", "gauge", "Number of open file descriptors.", (double)fds);
    double maxfds = soft_limit(RLIMIT_NOFILE);
    if (maxfds >= 0) gauge(sb, "process_max_fds", "gauge", "Maximum number of open file descriptors.", maxfds);
}

void build_info_render(StrBuf *sb) {
#ifdef __clang__
    const char *compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *compiler = "gcc " __VERSION__;
#else
    const char *compiler = "unknown";
#endif
    sb_printf(sb,
              "# HELP catalyzer_build_info A metric with a constant '1' value labeled by the version, revision, "
              "compiler and build type catalyzerd was built from.\n"
              "# TYPE catalyzer_build_info gauge\n"
              "catalyzer_build_info{version=\"%s\",revision=\"%s\",compiler=\"%s\",buildtype=\"%s\"} 1\n",
              CATALYZER_VERSION, CZ_BUILD_REVISION, compiler, CZ_BUILD_TYPE);
}
